package segtool.formats.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.ByteArrayChannel;
import segtool.formats.io.LittleEndian;

/**
 * Scans {@code metadata/journal.wal} as the server does (METADATA 4.1-4.3): a gap-free run of entries
 * {@code 256-byte PrepareHeader | body}; header checksum over the header with {@code checksum} and {@code view}
 * zeroed, body checksum, and the hash chain between consecutive ops. The scan ends at the first entry that fails; the
 * bytes after it decide between a torn final append (truncated) and damage the server refuses. Bodies are read back
 * on demand, at most {@link JournalEntry#MAX_SIZE} bytes each.
 */
public final class JournalReader implements AutoCloseable {
    /** How the scan ended. */
    public enum End {
        /** Every byte belongs to a verified entry. */
        CLEAN,
        /** Damage at the end with no complete entry after it: the server truncates the journal there. */
        TORN_TAIL,
        /** Damage followed by a complete entry (or by more than 64 MiB): the server refuses to boot. */
        REFUSED
    }

    /** The scan: verified entries in file order, how it ended, where and why. */
    public record Scan(List<JournalEntry> entries, End end, long endPosition, String reason) {
        public Scan {
            entries = List.copyOf(entries);
        }
    }

    private final Path file;
    private final SeekableByteChannel channel;
    private final long size;

    private JournalReader(Path file, SeekableByteChannel channel) throws IOException {
        this.file = file;
        this.channel = channel;
        this.size = channel.size();
    }

    public static JournalReader open(Path file) throws IOException {
        return new JournalReader(file, FileChannel.open(file, StandardOpenOption.READ));
    }

    /** A reader of {@code bytes}, the content of {@code file} already in memory; it scans as a file is scanned. */
    public static JournalReader of(Path file, byte[] bytes) throws IOException {
        return new JournalReader(file, new ByteArrayChannel(bytes));
    }

    public Path file() {
        return file;
    }

    public Scan scan() throws IOException {
        List<JournalEntry> entries = new ArrayList<>();
        long pos = 0;
        byte[] header = new byte[JournalEntry.HEADER_LENGTH];
        JournalEntry previous = null;
        while (pos < size) {
            if (size - pos < JournalEntry.HEADER_LENGTH) {
                return new Scan(entries, End.TORN_TAIL, pos, (size - pos) + " bytes left, less than a header");
            }
            readFully(header, pos);
            String bad = headerDefect(header, size - pos);
            JournalEntry e = bad == null ? decode(header, pos) : null;
            if (bad == null && previous != null && e.op() == previous.op() + 1 && e.sealed() && previous.sealed()
                    && !e.parentIs(previous)) {
                bad = "op " + Long.toUnsignedString(e.op()) + ": parent is not the checksum of op "
                        + Long.toUnsignedString(previous.op()) + " (chain break)";
            }
            if (bad == null && (e.bodyChecksumLow() | e.bodyChecksumHigh()) != 0) {
                long h = Xxh3.hash(body(e));
                if (h != e.bodyChecksumLow() || e.bodyChecksumHigh() != 0) {
                    bad = "op " + Long.toUnsignedString(e.op()) + ": body checksum mismatch";
                }
            }
            if (bad != null) {
                return damaged(entries, pos, bad);
            }
            entries.add(e);
            previous = e;
            pos += e.size();
        }
        return new Scan(entries, End.CLEAN, pos, null);
    }

    /** The body bytes of {@code e} ({@code [256, size)} of its entry). */
    public byte[] body(JournalEntry e) throws IOException {
        if (e.size() > JournalEntry.MAX_SIZE || e.position() + e.size() > size) {
            throw new MetadataFormatException(file, e.position(), "entry of " + e.size() + " bytes is out of bounds");
        }
        byte[] b = new byte[(int) e.bodyLength()];
        readFully(b, e.position() + JournalEntry.HEADER_LENGTH);
        return b;
    }

    /** Why {@code h} does not start a structurally sound, checksum-verified entry, or null. */
    private static String headerDefect(byte[] h, long left) {
        if ((h[JournalEntry.COMMAND_OFFSET] & 0xff) != JournalEntry.COMMAND_PREPARE) {
            return "command " + (h[JournalEntry.COMMAND_OFFSET] & 0xff) + ", not 6 (Prepare)";
        }
        long entrySize = LittleEndian.u32(h, JournalEntry.SIZE_OFFSET);
        if (entrySize < JournalEntry.HEADER_LENGTH || entrySize > JournalEntry.MAX_SIZE) {
            return "size " + entrySize + " outside [256, 64 MiB]";
        }
        if (entrySize > left) {
            return "entry of " + entrySize + " bytes runs past the end (" + left + " left)";
        }
        for (int i = 0; i < JournalEntry.RESERVED_FRAME_LENGTH; i++) {
            if (h[JournalEntry.RESERVED_FRAME_OFFSET + i] != 0) {
                return "reserved_frame byte " + (JournalEntry.RESERVED_FRAME_OFFSET + i) + " is not zero";
            }
        }
        long low = LittleEndian.u64(h, 0);
        long high = LittleEndian.u64(h, 8);
        if ((low | high) != 0) {
            long want = identity(h);
            if (want != low || high != 0) {
                return "header checksum mismatch";
            }
        }
        return null;
    }

    /** XXH3-64 of the header with {@code checksum} (0-16) and {@code view} (52-56) zeroed (METADATA 4.2). */
    public static long identity(byte[] header) {
        byte[] h = header.clone();
        java.util.Arrays.fill(h, 0, 16, (byte) 0);
        java.util.Arrays.fill(h, JournalEntry.VIEW_OFFSET, JournalEntry.VIEW_OFFSET + 4, (byte) 0);
        return Xxh3.hash(h, 0, JournalEntry.HEADER_LENGTH);
    }

    private static JournalEntry decode(byte[] h, long pos) {
        return new JournalEntry(pos, LittleEndian.u32(h, JournalEntry.SIZE_OFFSET), LittleEndian.u64(h, 0),
                LittleEndian.u64(h, 8), LittleEndian.u64(h, 16), LittleEndian.u64(h, 24),
                LittleEndian.u64(h, JournalEntry.PARENT_OFFSET), LittleEndian.u64(h, JournalEntry.PARENT_OFFSET + 8),
                (int) LittleEndian.u32(h, JournalEntry.VIEW_OFFSET), (int) LittleEndian.u32(h, JournalEntry.RELEASE_OFFSET),
                LittleEndian.u64(h, JournalEntry.OP_OFFSET), LittleEndian.u64(h, JournalEntry.COMMIT_OFFSET),
                LittleEndian.u64(h, JournalEntry.TIMESTAMP_OFFSET), h[JournalEntry.OPERATION_OFFSET] & 0xff,
                LittleEndian.u64(h, JournalEntry.GROUP_OFFSET), LittleEndian.u32(h, JournalEntry.USER_ID_OFFSET));
    }

    /**
     * Damage at {@code pos}: if a complete, verified entry starts anywhere after it, or more than 64 MiB follow, the
     * server refuses; otherwise it truncates there.
     */
    private Scan damaged(List<JournalEntry> entries, long pos, String why) throws IOException {
        long rest = size - pos;
        if (rest > JournalEntry.MAX_SIZE) {
            return new Scan(entries, End.REFUSED, pos, why + "; more than 64 MiB follow");
        }
        byte[] tail = new byte[(int) rest];
        readFully(tail, pos);
        byte[] h = new byte[JournalEntry.HEADER_LENGTH];
        for (int at = 1; at + JournalEntry.HEADER_LENGTH <= tail.length; at++) {
            if ((tail[at + JournalEntry.COMMAND_OFFSET] & 0xff) != JournalEntry.COMMAND_PREPARE) {
                continue;
            }
            System.arraycopy(tail, at, h, 0, h.length);
            if (headerDefect(h, tail.length - at) == null) {
                JournalEntry e = decode(h, pos + at);
                boolean bodyOk = (e.bodyChecksumLow() | e.bodyChecksumHigh()) == 0
                        || (Xxh3.hash(tail, at + JournalEntry.HEADER_LENGTH, (int) e.bodyLength()) == e.bodyChecksumLow()
                        && e.bodyChecksumHigh() == 0);
                if (bodyOk) {
                    return new Scan(entries, End.REFUSED, pos, why + "; a complete entry (op "
                            + Long.toUnsignedString(e.op()) + ") follows at byte " + (pos + at));
                }
            }
        }
        return new Scan(entries, End.TORN_TAIL, pos, why);
    }

    private void readFully(byte[] into, long at) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(into);
        while (b.hasRemaining()) {
            if (ByteArrayChannel.read(channel, b, at + b.position()) < 0) {
                throw new MetadataFormatException(file, at + b.position(), "file shrank while read");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
