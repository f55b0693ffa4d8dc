package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/** A partition directory {@code <root>/streams/1/topics/1/partitions/<id>/} built from bytes in a test. */
final class Fixture {
    final Path dir;
    final PartitionPath partition;

    Fixture(Path root, long partitionId) throws IOException {
        this.dir = root.resolve("streams/1/topics/1/partitions/" + partitionId);
        Files.createDirectories(dir);
        this.partition = PartitionPath.of(dir);
    }

    Fixture log(long start, byte[] bytes) throws IOException {
        Files.write(SegmentFiles.log(dir, start), bytes);
        return this;
    }

    Fixture index(long start, IndexEntry... entries) throws IOException {
        Files.write(SegmentFiles.index(dir, start), IndexFile.encode(List.of(entries)));
        return this;
    }

    Fixture rawIndex(long start, byte[] bytes) throws IOException {
        Files.write(SegmentFiles.index(dir, start), bytes);
        return this;
    }

    Fixture file(String name, byte[] bytes) throws IOException {
        Files.write(dir.resolve(name), bytes);
        return this;
    }

    static byte[] concat(byte[]... parts) {
        return segtool.formats.io.Bytes.concat(parts);
    }

    static byte[] prefix(byte[] b, int n) {
        return Arrays.copyOf(b, n);
    }

    static byte[] filled(int n, int value) {
        byte[] out = new byte[n];
        Arrays.fill(out, (byte) value);
        return out;
    }

    PartitionReport judge(boolean durable) {
        return new RecoveryEngine().judge(partition, durable);
    }

    PartitionReport judge(boolean durable, int threads) {
        return new RecoveryEngine(RecoveryOptions.defaults().withThreads(threads)).judge(partition, durable);
    }
}
