package segtool.analyzers.repair;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;

/** Repairable partition shapes, each built from bytes into {@code <root>/streams/1/topics/1/partitions/1}. */
final class Shapes {
    static final IndexEntry EA = new IndexEntry(0, Vectors.TA, 0);
    static final IndexEntry EB = new IndexEntry(1, Vectors.TB, 315);
    static final IndexEntry EC = new IndexEntry(4, Vectors.TC, 782);

    interface Builder {
        void build(Path partition) throws IOException;
    }

    /** A named shape; {@code toString} is the test display name. */
    record Shape(String name, Builder builder) {
        @Override
        public String toString() {
            return name;
        }
    }

    private Shapes() {
    }

    static Path partitionDir(Path root) {
        return root.resolve("streams/1/topics/1/partitions/1");
    }

    static PartitionPath make(Path root, Shape shape) throws IOException {
        Path dir = partitionDir(root);
        Files.createDirectories(dir);
        shape.builder().build(dir);
        return PartitionPath.of(dir);
    }

    static List<Shape> repairable() {
        List<Shape> out = new ArrayList<>();
        out.add(new Shape("torn tail of zero bytes (V2)", d -> {
            log(d, 0, concat(Vectors.abc(), new byte[100]));
            index(d, 0, EA, EB, EC);
        }));
        out.add(new Shape("torn last batch (V5)", d -> {
            log(d, 0, Arrays.copyOf(Vectors.abc(), 900));
            index(d, 0, EA);
        }));
        out.add(new Shape("torn tail with a long garbage residue", d -> {
            byte[] junk = new byte[5000];
            new java.util.Random(7).nextBytes(junk);
            log(d, 0, concat(Vectors.abc(), junk));
            index(d, 0, EA, EB, EC);
        }));
        out.add(new Shape("index entry past the end of the log, step-back 1 (V3)", d -> {
            log(d, 0, Vectors.abc());
            index(d, 0, EA, EB, EC, new IndexEntry(5, Vectors.TC + 1, 1145));
        }));
        out.add(new Shape("index entry that does not map its batch", d -> {
            log(d, 0, Vectors.abc());
            index(d, 0, EA, new IndexEntry(1, Vectors.TB + 9, 315), EC);
        }));
        out.add(new Shape("structurally inconsistent index", d -> {
            log(d, 0, Vectors.abc());
            index(d, 0, EA, EC, EB);
        }));
        out.add(new Shape("no index at all", d -> log(d, 0, Vectors.abc())));
        out.add(new Shape("recovered empty (V11)", d -> {
            log(d, 0, filled(300, 0xAB));
            raw(d, SegmentFiles.stem(0) + ".index", filled(10, 0xAB));
        }));
        out.add(new Shape("recovered empty with no index file", d -> log(d, 0, filled(300, 0xAB))));
        out.add(new Shape("partial trailing index entry", d -> {
            log(d, 0, Vectors.abc());
            raw(d, SegmentFiles.stem(0) + ".index", concat(IndexFile.encode(List.of(EA, EB, EC)), filled(7, 3)));
        }));
        out.add(new Shape("staging and orphan files to sweep", d -> {
            log(d, 0, Vectors.abc());
            index(d, 0, EA, EB, EC);
            raw(d, SegmentFiles.stem(0) + ".index.staging", filled(48, 9));
            raw(d, SegmentFiles.stem(99) + ".index", filled(24, 1));
            raw(d, SegmentFiles.stem(77) + ".anchor", filled(40, 2));
            raw(d, "5.index", filled(5, 5));
            raw(d, SegmentFiles.stem(0) + ".log.staging", filled(33, 4));
            raw(d, SegmentFiles.stem(0) + ".anchor.staging", new byte[0]);
        }));
        out.add(new Shape("empty log under a lone index entry", d -> {
            log(d, 0, new byte[0]);
            index(d, 0, EA);
        }));
        out.add(new Shape("everything at once over four segments", Shapes::composite));
        return out;
    }

    /**
     * A written partition (1 KiB-ish batches, one index entry per batch) damaged in every repairable way at once:
     * segment 0's index has a torn trailing entry, segment 1's index has an entry that does not map its batch, the
     * last written segment ends in a torn batch, and after it a segment of garbage (recovered empty, fenced). A
     * staging file and an orphan index wait for the sweep. Returns the log with the torn batch.
     */
    static Path composite(Path d) throws IOException {
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(1)
                .segmentSize(8 * 1024).messagesRequiredToSave(1), 120, 4, 200, 42);
        if (segs.size() < 3) {
            throw new IllegalStateException("expected at least 3 segments, got " + segs.size());
        }
        append(segs.get(0).index(), filled(7, 0x11));
        PartitionWriter.SegmentLayout s1 = segs.get(1);
        IndexEntry e1 = s1.entries().get(1);
        try (var ch = java.nio.channels.FileChannel.open(s1.index(), StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new IndexEntry(e1.offset(), e1.timestamp() + 5, e1.position())
                    .toBytes()), IndexEntry.LENGTH);
        }
        PartitionWriter.SegmentLayout last = segs.get(segs.size() - 1);
        PartitionWriter.BatchInfo torn = last.batch(last.batches().size() - 1);
        try (var ch = java.nio.channels.FileChannel.open(last.log(), StandardOpenOption.WRITE)) {
            ch.truncate(torn.position() + torn.length() / 2);
        }
        long emptyStart = torn.baseOffset();
        log(d, emptyStart, filled(700, 0xCD));
        raw(d, SegmentFiles.stem(emptyStart) + ".index", filled(30, 0xCD));
        raw(d, SegmentFiles.stem(s1.startOffset()) + ".index.staging", filled(24, 0x22));
        raw(d, SegmentFiles.stem(123456) + ".index", filled(24, 0x33));
        return last.log();
    }

    static void log(Path d, long start, byte[] bytes) throws IOException {
        Files.write(SegmentFiles.log(d, start), bytes);
    }

    static void index(Path d, long start, IndexEntry... entries) throws IOException {
        Files.write(SegmentFiles.index(d, start), IndexFile.encode(List.of(entries)));
    }

    static void raw(Path d, String name, byte[] bytes) throws IOException {
        Files.write(d.resolve(name), bytes);
    }

    static void append(Path f, byte[] bytes) {
        try {
            Files.write(f, bytes, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] concat(byte[]... parts) {
        return segtool.formats.io.Bytes.concat(parts);
    }

    static byte[] filled(int n, int value) {
        byte[] out = new byte[n];
        Arrays.fill(out, (byte) value);
        return out;
    }
}
