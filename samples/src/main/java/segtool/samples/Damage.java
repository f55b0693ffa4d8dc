package segtool.samples;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;

/**
 * Small, named ways to break a partition's files on purpose, each one the on-disk trace of a crash or of rot.
 * Every operation works on whole files by path and never reads recovery's rules; what recovery makes of the result
 * is written down by hand beside each sample.
 */
public final class Damage {
    private Damage() {
    }

    /** Cuts {@code file} to {@code length} bytes, as a crash before write-back does. Never extends. */
    public static void truncate(Path file, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (length > ch.size()) {
                throw new IllegalArgumentException(file + " is " + ch.size() + " bytes; truncate would extend to "
                        + length);
            }
            ch.truncate(length);
        }
    }

    /** Appends {@code count} zero bytes, as delayed allocation leaves past the written-back pages. */
    public static void appendZeros(Path file, int count) throws IOException {
        appendBytes(file, new byte[count]);
    }

    /** Appends {@code count} pseudo-random bytes from {@code seed}: garbage that is the same on every run. */
    public static void appendGarbage(Path file, int count, long seed) throws IOException {
        byte[] garbage = new byte[count];
        new Random(seed).nextBytes(garbage);
        appendBytes(file, garbage);
    }

    /** Appends {@code bytes} as they are. */
    public static void appendBytes(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    /** Inverts every bit of the byte at {@code position} (XOR 0xFF), a rotted sector in miniature. */
    public static void flipByte(Path file, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            readFully(ch, one, position);
            one.put(0, (byte) (one.get(0) ^ 0xFF));
            one.rewind();
            ch.write(one, position);
        }
    }

    /** Overwrites {@code bytes.length} bytes at {@code position}; the file must already hold them. */
    public static void overwrite(Path file, long position, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (position + bytes.length > ch.size()) {
                throw new IllegalArgumentException("overwrite of " + bytes.length + " bytes at " + position
                        + " runs past the end of " + file + " (" + ch.size() + " bytes)");
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b, position + b.position());
            }
        }
    }

    /** Overwrites the little-endian u64 at {@code position}, e.g. a batch header field. */
    public static void overwriteU64(Path file, long position, long value) throws IOException {
        byte[] le = new byte[Long.BYTES];
        LittleEndian.putU64(le, 0, value);
        overwrite(file, position, le);
    }

    /**
     * Recomputes the batch checksum of the record at {@code position} in a log after its header was edited, so the
     * edited record verifies again: the shape of a batch that was stamped wrongly rather than damaged.
     */
    public static void restampBatch(Path log, long position) throws IOException {
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(BatchHeader.LENGTH);
            readFully(ch, header, position);
            long length = LittleEndian.u64(header, BatchHeader.BATCH_LENGTH_OFFSET);
            if (length < BatchHeader.LENGTH || position + length > ch.size() || length > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("no whole record at " + position + " of " + log);
            }
            ByteBuffer record = ByteBuffer.allocate((int) length);
            readFully(ch, record, position);
            RecordEncoder.restamp(record.array());
            ch.write(ByteBuffer.wrap(record.array(), BatchHeader.CHECKSUM_OFFSET, Long.BYTES),
                    position + BatchHeader.CHECKSUM_OFFSET);
        }
    }

    /** Appends whole 24-byte entries to an index, e.g. entries the log does not back. */
    public static void appendIndexEntries(Path index, IndexEntry... entries) throws IOException {
        appendBytes(index, IndexFile.encode(List.of(entries)));
    }

    /** Replaces an index's content with exactly {@code entries}. */
    public static void replaceIndex(Path index, List<IndexEntry> entries) throws IOException {
        writeRaw(index, IndexFile.encode(entries));
    }

    /** Creates or replaces {@code file} with {@code bytes}: a stray, scratch or rotted file. */
    public static void writeRaw(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes);
    }

    /** {@code count} copies of one byte value, for rotted content such as {@code 0xAB 0xAB ...}. */
    public static byte[] repeated(int count, int value) {
        byte[] out = new byte[count];
        Arrays.fill(out, (byte) value);
        return out;
    }

    /** Writes {@code <planted_start>.anchor} in {@code partition}, as the boot re-anchor does before planting. */
    public static Path writeAnchor(Path partition, AnchorRecord anchor) throws IOException {
        Path file = SegmentFiles.anchor(partition, anchor.plantedStart());
        writeRaw(file, anchor.encode());
        return file;
    }

    /** Deletes {@code file}, e.g. an index that never reached the disk. */
    public static void delete(Path file) throws IOException {
        Files.delete(file);
    }

    private static void readFully(FileChannel ch, ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            if (ch.read(into, position + into.position()) < 0) {
                throw new IOException("unexpected end of file at " + (position + into.position()));
            }
        }
        into.flip();
    }
}
