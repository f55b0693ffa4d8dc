package segtool.formats.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/**
 * The partition prepare WAL's {@code prepares-<created_revision>/frontier} (METADATA 6.2-6.5): 0, 4096 or 8192
 * bytes, one or two 4096-byte slots of magic {@code IGGYWAL3}. A slot is checked as {@code JournalState::decode}
 * does; the winner is the verified slot with the highest sequence (tie: slot 0). Slots of another magic are reported
 * by name and never decoded.
 * <pre>
 *   0 magic | 8 checksum = XXH3-64[16,4096) | 16 group | 24 incarnation | 32 generation | 40 length
 *  48 checkpoint op | 56 checkpoint_checksum u128 | 72 head | 80 head_checksum u128 | 96 anchor_known
 *  97 checkpoint_prepare | 98 certified view present | 99 segment state present | 100 segment_references
 * 101..104 zero | 104 purge_generation | 112 purge_floor | 120 certified log view u32 | 124 zero
 * 128 segment state: max_size, next_generation, tail (generation, start, length, next),
 *     checkpoint (generation, start = C, length = Lc, next = N) | 208 magic copy | 216 sequence | 224.. zero
 * </pre>
 */
public final class Frontier {
    public static final int SLOT = 4096;
    public static final String MAGIC = "IGGYWAL3";
    public static final String FILE = "frontier";
    public static final long GIB = 1L << 30;

    /** A segment position {@code (generation, start_offset, length, next_offset)} (METADATA 6.5). */
    public record Position(long generation, long startOffset, long length, long nextOffset) {
    }

    /** Bytes 128-208 when byte 99 = 1. */
    public record SegmentState(long maxSize, long nextGeneration, Position tail, Position checkpoint) {
    }

    /** One slot: its index, magic as text, whether it verifies (and why not), and the decoded fields. */
    public record Slot(int index, String magic, boolean verified, String defect, long group, long incarnation,
                       long generation, long length, long checkpointOp, long head, boolean anchorKnown,
                       boolean checkpointPrepare, boolean segmentReferences, long sequence,
                       SegmentState segments) {
    }

    /** The file: its length, its slots, and the winner (null when none verifies). */
    public record File(Path path, long length, List<Slot> slots, Slot winner) {
        public File {
            slots = List.copyOf(slots);
        }
    }

    private Frontier() {
    }

    /** The frontier at {@code path}, or null when it is missing or empty (no frontier). */
    public static File read(Path path) throws IOException {
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return null;
            }
            checkSize(path, size);
            bytes = new byte[(int) size];
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                if (ch.read(b, b.position()) < 0) {
                    throw new MetadataFormatException(path, b.position(), "file shrank while read");
                }
            }
        } catch (NoSuchFileException e) {
            return null;
        }
        return decode(path, bytes);
    }

    /** The frontier whose file {@code path} holds {@code bytes}: null when empty, refused unless 1 or 2 slots. */
    public static File decode(Path path, byte[] bytes) throws MetadataFormatException {
        if (bytes.length == 0) {
            return null;
        }
        checkSize(path, bytes.length);
        List<Slot> slots = new ArrayList<>();
        Slot winner = null;
        for (int i = 0; i * SLOT < bytes.length; i++) {
            Slot s = slot(bytes, i);
            slots.add(s);
            if (s.verified() && (winner == null || Long.compareUnsigned(s.sequence(), winner.sequence()) > 0)) {
                winner = s;
            }
        }
        return new File(path, bytes.length, slots, winner);
    }

    private static void checkSize(Path path, long size) throws MetadataFormatException {
        if (size != SLOT && size != 2 * SLOT) {
            throw new MetadataFormatException(path, 0, "unknown frontier size " + size
                    + " (0, 4096 or 8192 expected); the WAL refuses to open");
        }
    }

    /** Decodes and verifies slot {@code i} of {@code bytes}. */
    public static Slot slot(byte[] bytes, int i) {
        int o = i * SLOT;
        String magic = new String(bytes, o, 8, StandardCharsets.ISO_8859_1);
        if (!magic.equals(MAGIC)) {
            return new Slot(i, magic, false, "magic \"" + printable(magic) + "\", not " + MAGIC, 0, 0, 0, 0, 0, 0,
                    false, false, false, 0, null);
        }
        long checksum = LittleEndian.u64(bytes, o + 8);
        long group = LittleEndian.u64(bytes, o + 16);
        long incarnation = LittleEndian.u64(bytes, o + 24);
        long generation = LittleEndian.u64(bytes, o + 32);
        long length = LittleEndian.u64(bytes, o + 40);
        long checkpoint = LittleEndian.u64(bytes, o + 48);
        long head = LittleEndian.u64(bytes, o + 72);
        int anchor = bytes[o + 96];
        int cpPrepare = bytes[o + 97];
        int certified = bytes[o + 98];
        int segState = bytes[o + 99];
        int segRefs = bytes[o + 100];
        long sequence = LittleEndian.u64(bytes, o + 216);
        SegmentState seg = null;
        if (segState == 1) {
            seg = new SegmentState(LittleEndian.u64(bytes, o + 128), LittleEndian.u64(bytes, o + 136),
                    position(bytes, o + 144), position(bytes, o + 176));
        }
        String defect = null;
        long want = Xxh3.hash(bytes, o + 16, SLOT - 16);
        if (want != checksum) {
            defect = String.format("checksum 0x%016x, XXH3-64 of bytes 16-4096 is 0x%016x", checksum, want);
        } else if (!new String(bytes, o + 208, 8, StandardCharsets.ISO_8859_1).equals(magic)) {
            defect = "magic copy at byte 208 differs from the magic";
        } else if (!bit(anchor) || !bit(cpPrepare) || !bit(certified) || !bit(segRefs)
                || !(segState == 0 || segState == 1 && segRefs == 1)) {
            defect = "flag bytes 96-100 are " + anchor + " " + cpPrepare + " " + certified + " " + segState + " "
                    + segRefs + " (each 0 or 1; byte 99 = 1 needs byte 100 = 1)";
        } else if (Long.compareUnsigned(length, 4 * GIB) > 0 || length % SLOT != 0) {
            defect = "length " + Long.toUnsignedString(length) + " is not a multiple of 4096 up to 4 GiB";
        } else if (Long.compareUnsigned(head, checkpoint) < 0) {
            defect = "head " + Long.toUnsignedString(head) + " < checkpoint " + Long.toUnsignedString(checkpoint);
        } else if (anchor == 0 && head != checkpoint) {
            defect = "anchor unknown but head != checkpoint";
        } else if (cpPrepare == 1 && (checkpoint == 0 || length == 0 || anchor == 0)) {
            defect = "checkpoint_prepare set with checkpoint 0, length 0 or anchor unknown";
        } else if (seg != null) {
            defect = segmentDefect(seg);
        }
        return new Slot(i, magic, defect == null, defect, group, incarnation, generation, length, checkpoint, head,
                anchor == 1, cpPrepare == 1, segRefs == 1, sequence, seg);
    }

    private static String segmentDefect(SegmentState s) {
        if (Long.compareUnsigned(s.maxSize(), 1) < 0 || Long.compareUnsigned(s.maxSize(), GIB) > 0) {
            return "segment state max_size " + Long.toUnsignedString(s.maxSize()) + " outside [1, 1 GiB]";
        }
        if (Long.compareUnsigned(s.tail().generation(), s.nextGeneration()) >= 0
                || Long.compareUnsigned(s.checkpoint().generation(), s.nextGeneration()) >= 0) {
            return "segment state generation not below next_generation " + Long.toUnsignedString(s.nextGeneration());
        }
        for (Position p : List.of(s.tail(), s.checkpoint())) {
            if (Long.compareUnsigned(p.nextOffset(), p.startOffset()) < 0
                    || (p.length() == 0) != (p.nextOffset() == p.startOffset())) {
                return "segment state position " + p + " is inconsistent";
            }
        }
        if (Long.compareUnsigned(s.tail().nextOffset(), s.checkpoint().nextOffset()) < 0) {
            return "segment state tail.next_offset below checkpoint.next_offset";
        }
        return null;
    }

    private static Position position(byte[] b, int at) {
        return new Position(LittleEndian.u64(b, at), LittleEndian.u64(b, at + 8), LittleEndian.u64(b, at + 16),
                LittleEndian.u64(b, at + 24));
    }

    private static boolean bit(int v) {
        return v == 0 || v == 1;
    }

    /** The packed namespace {@code stream<<32 | topic<<20 | partition} a slot's {@code group} must equal. */
    public static long group(long stream, long topic, long partition) {
        return stream << 32 | topic << 20 | partition;
    }

    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return sb.toString();
    }
}
