package segtool.formats.metadata;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/**
 * The superblock slot pair {@code superblock.a} / {@code superblock.b} (METADATA 5), in {@code metadata/} and in
 * every partition directory. One file = {@code magic u32 0x53424C4B | version u16 = 1 | reserved u16 | sequence u64
 * | parent_checksum u64 | payload_len u32 | payload | XXH3-64 of everything before it}; the payload is a
 * {@code VsrState} of 66 bytes (58 in the older layout, without {@code offset_frontier}).
 */
public final class Superblock {
    public static final int MAGIC = 0x53424C4B;
    public static final int HEADER_LENGTH = 28;
    public static final int MAX_FILE = 4132;
    public static final String A = "superblock.a";
    public static final String B = "superblock.b";

    /** {@code VsrState}; 128-bit fields as low/high halves. */
    public record VsrState(long clusterLow, long clusterHigh, int replicaId, int replicaCount, long view,
                           long logView, long commitMax, long checkpointOp, long checkpointChecksumLow,
                           long checkpointChecksumHigh, long offsetFrontier) {
    }

    /** One slot: absent, corrupt (with the reason), or valid (sequence and payload bytes). */
    public record Slot(String name, Status status, String reason, long sequence, byte[] payload) {
        public enum Status { ABSENT, CORRUPT, VALID }
    }

    /** The pair combined (METADATA 5.2): the winning state, or empty, or unreadable/undecodable with the reason. */
    public record Pair(Result result, VsrState state, String winner, String reason, Slot a, Slot b) {
        public enum Result { EMPTY, VALID, UNREADABLE, UNDECODABLE }
    }

    private Superblock() {
    }

    /** The pair in {@code dir}: {@link #A} and {@link #B} read and combined. */
    public static Pair read(Path dir) throws IOException {
        return pair(slot(dir.resolve(A)), slot(dir.resolve(B)));
    }

    /** Two slots combined (METADATA 5.2): a corrupt slot makes the pair unreadable, else the newer valid one wins. */
    public static Pair pair(Slot a, Slot b) {
        if (a.status() == Slot.Status.CORRUPT || b.status() == Slot.Status.CORRUPT) {
            Slot bad = a.status() == Slot.Status.CORRUPT ? a : b;
            return new Pair(Pair.Result.UNREADABLE, null, null, bad.name() + ": " + bad.reason(), a, b);
        }
        Slot win;
        if (a.status() == Slot.Status.VALID && b.status() == Slot.Status.VALID) {
            win = Long.compareUnsigned(b.sequence(), a.sequence()) > 0 ? b : a;
        } else if (a.status() == Slot.Status.VALID) {
            win = a;
        } else if (b.status() == Slot.Status.VALID) {
            win = b;
        } else {
            return new Pair(Pair.Result.EMPTY, null, null, "both slots absent", a, b);
        }
        byte[] p = win.payload();
        if (p.length != 66 && p.length != 58) {
            return new Pair(Pair.Result.UNDECODABLE, null, win.name(), win.name() + ": VsrState of " + p.length
                    + " bytes (66 or 58 expected)", a, b);
        }
        long view = LittleEndian.u32(p, 18);
        long logView = LittleEndian.u32(p, 22);
        if (logView > view) {
            return new Pair(Pair.Result.UNDECODABLE, null, win.name(), win.name() + ": log_view " + logView
                    + " > view " + view, a, b);
        }
        VsrState s = new VsrState(LittleEndian.u64(p, 0), LittleEndian.u64(p, 8), p[16] & 0xff, p[17] & 0xff, view,
                logView, LittleEndian.u64(p, 26), LittleEndian.u64(p, 34), LittleEndian.u64(p, 42),
                LittleEndian.u64(p, 50), p.length == 66 ? LittleEndian.u64(p, 58) : 0);
        return new Pair(Pair.Result.VALID, s, win.name(), null, a, b);
    }

    /** The slot file {@code file}; one larger than {@link #MAX_FILE} is judged by its size, unread. */
    static Slot slot(Path file) throws IOException {
        String name = file.getFileName().toString();
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            Slot bySize = bySize(name, ch.size());
            if (bySize != null) {
                return bySize;
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return slot(name, null);
        }
        return slot(name, bytes);
    }

    /** The slot named {@code name} whose file holds {@code bytes}; null bytes: there is no such file. */
    public static Slot slot(String name, byte[] bytes) {
        if (bytes == null) {
            return new Slot(name, Slot.Status.ABSENT, "missing", 0, null);
        }
        Slot bySize = bySize(name, bytes.length);
        if (bySize != null) {
            return bySize;
        }
        if (bytes.length < HEADER_LENGTH + 8) {
            return new Slot(name, Slot.Status.CORRUPT, bytes.length + " bytes, shorter than a record", 0, null);
        }
        if ((int) LittleEndian.u32(bytes, 0) != MAGIC) {
            return new Slot(name, Slot.Status.CORRUPT, String.format("magic 0x%08x, not 0x%08x",
                    LittleEndian.u32(bytes, 0), MAGIC), 0, null);
        }
        int version = (bytes[4] & 0xff) | (bytes[5] & 0xff) << 8;
        if (version != 1) {
            return new Slot(name, Slot.Status.CORRUPT, "unknown superblock format version " + version, 0, null);
        }
        long len = LittleEndian.u32(bytes, 24);
        if (len > 4096 || HEADER_LENGTH + len + 8 != bytes.length) {
            return new Slot(name, Slot.Status.CORRUPT, "payload_len " + len + " does not match the file's "
                    + bytes.length + " bytes", 0, null);
        }
        int end = HEADER_LENGTH + (int) len;
        long want = Xxh3.hash(bytes, 0, end);
        long got = LittleEndian.u64(bytes, end);
        if (want != got) {
            return new Slot(name, Slot.Status.CORRUPT, String.format("checksum 0x%016x, XXH3-64 of bytes 0-%d is "
                    + "0x%016x", got, end, want), 0, null);
        }
        byte[] payload = new byte[(int) len];
        System.arraycopy(bytes, HEADER_LENGTH, payload, 0, payload.length);
        return new Slot(name, Slot.Status.VALID, null, LittleEndian.u64(bytes, 8), payload);
    }

    /** An empty slot is absent, one over {@link #MAX_FILE} corrupt; null for a size the bytes must decide. */
    private static Slot bySize(String name, long size) {
        if (size == 0) {
            return new Slot(name, Slot.Status.ABSENT, "empty", 0, null);
        }
        if (size > MAX_FILE) {
            return new Slot(name, Slot.Status.CORRUPT, size + " bytes, more than " + MAX_FILE, 0, null);
        }
        return null;
    }
}
