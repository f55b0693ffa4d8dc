package segtool.shell;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Message;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.formats.writer.PartitionWriter;
import segtool.formats.writer.PartitionWriter.SegmentLayout;

/**
 * Partitions built in a test with the segment writer, then damaged on purpose. Each lives at
 * {@code <root>/<name>/streams/1/topics/1/partitions/<id>} and is deterministic (fixed seed and timestamps), so text
 * output can be compared with golden files once the root is replaced.
 */
final class Partitions {
    /** 60 batches of 5 messages (40-byte payloads, 696 bytes each), one index entry per batch, 16 KiB segments. */
    static final PartitionWriter.Config CONFIG = PartitionWriter.Config.of(1).segmentSize(16 * 1024)
            .messagesRequiredToSave(5);

    final Path dir;
    final List<SegmentLayout> segments;

    private Partitions(Path dir, List<SegmentLayout> segments) {
        this.dir = dir;
        this.segments = segments;
    }

    SegmentLayout segment(int i) {
        return segments.get(i);
    }

    SegmentLayout last() {
        return segments.get(segments.size() - 1);
    }

    static Path partitionDir(Path root, String name, long id) {
        return root.resolve(name).resolve("streams/1/topics/1/partitions/" + id);
    }

    /** Three clean segments: offsets 0..299. */
    static Partitions healthy(Path root, String name) {
        Path dir = partitionDir(root, name, 1);
        return new Partitions(dir, PartitionWriter.fill(dir, CONFIG, 300, 5, 40, 7));
    }

    /** The last batch of the last segment loses its final 300 bytes: a torn tail. */
    static Partitions tornTail(Path root) throws IOException {
        Partitions p = healthy(root, "torn");
        truncate(p.last().log(), p.last().length() - 300);
        return p;
    }

    /** One payload byte of batch 5 of segment 0 flipped, with verified batches after it: InteriorDamage. */
    static Partitions interior(Path root) throws IOException {
        Partitions p = healthy(root, "interior");
        PartitionWriter.BatchInfo b = p.segment(0).batch(5);
        flip(p.segment(0).log(), b.position() + BatchHeader.LENGTH + 60);
        return p;
    }

    /**
     * Two index entries past the end of the last log: lenient mode rebuilds the index; durable mode refuses
     * FsyncedLogLoss (the step-back is 2).
     */
    static Partitions indexOutrunsLog(Path root) throws IOException {
        Partitions p = healthy(root, "outrun");
        SegmentLayout s = p.last();
        IndexEntry last = s.entries().get(s.entries().size() - 1);
        byte[] extra = new byte[2 * IndexEntry.LENGTH];
        new IndexEntry(s.endOffset() + 1, last.timestamp() + 10, s.length()).write(extra, 0);
        new IndexEntry(s.endOffset() + 6, last.timestamp() + 20, s.length() + 696).write(extra, IndexEntry.LENGTH);
        Files.write(s.index(), extra, StandardOpenOption.APPEND);
        return p;
    }

    /** Batches stamped for partition 1 in the directory of partition 2: ForeignBatch in both modes. */
    static Partitions foreign(Path root) {
        Path dir = partitionDir(root, "foreign", 2);
        return new Partitions(dir, PartitionWriter.fill(dir, CONFIG, 50, 5, 40, 7));
    }

    /** The header of batch 3 of segment 0 claims a length of 2^62 bytes: a damaged length that must not be trusted. */
    static Partitions hugeLength(Path root) throws IOException {
        Partitions p = healthy(root, "huge");
        PartitionWriter.BatchInfo b = p.segment(0).batch(3);
        byte[] v = new byte[8];
        LittleEndian.putU64(v, 0, 1L << 62);
        write(p.segment(0).log(), b.position() + BatchHeader.BATCH_LENGTH_OFFSET, v);
        return p;
    }

    /** One segment with text, JSON, binary and LZ4 payloads and typed user headers (offsets 0..3). */
    static Partitions messages(Path root) throws IOException {
        Path dir = partitionDir(root, "messages", 1);
        PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(1));
        try {
            byte[] plain = "iggy ".repeat(20).getBytes(StandardCharsets.US_ASCII);
            byte[] lz4 = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                    UserHeaders.string("lz4"))));
            byte[] mixed = UserHeaders.encode(List.of(
                    new UserHeaders.Header(UserHeaders.string("a"), UserHeaders.of(HeaderKind.BOOL, new byte[]{1})),
                    new UserHeaders.Header(UserHeaders.string("trace-id"), UserHeaders.string("abc123")),
                    new UserHeaders.Header(UserHeaders.string("z"),
                            UserHeaders.of(HeaderKind.UINT32, new byte[]{7, 0, 0, 0}))));
            w.append(List.of(new Message(1, 0, 0, "hello, iggy".getBytes(StandardCharsets.UTF_8), null)));
            w.append(List.of(new Message(2, 0, 250, "{\"order\": 17, \"items\": [1,2]}".getBytes(
                    StandardCharsets.UTF_8), mixed), new Message(3, 0, 1000, new byte[]{0, 1, 2, 3, (byte) 0xff},
                    null)));
            w.append(List.of(new Message(0xAABBCCDDL, 0, 0, Payloads.lz4Compress(plain), lz4)));
        } finally {
            w.close();
        }
        return new Partitions(dir, w.segments());
    }

    /** Copies the tree at {@code from} to {@code to} (created), files and directories, as they are. */
    static void copyTree(Path from, Path to) throws IOException {
        try (java.util.stream.Stream<Path> all = java.nio.file.Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (java.nio.file.Files.isDirectory(p)) {
                    java.nio.file.Files.createDirectories(t);
                } else {
                    java.nio.file.Files.copy(p, t);
                }
            }
        }
    }

    static void truncate(Path file, long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    static void flip(Path file, long position) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(position);
            int v = f.read();
            f.seek(position);
            f.write(v ^ 0x10);
        }
    }

    static void write(Path file, long position, byte[] bytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(position);
            f.write(bytes);
        }
    }
}
