package segtool.samples.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.SpecVectors;
import segtool.formats.writer.PartitionWriter;

/**
 * Builds a post-#4092 data directory (METADATA 1.1): {@code metadata/} files from the writers of this package and
 * partitions at {@code streams/<s>/topics/<t>/partitions/<p>/} (0-based ids) holding FORMAT 8's segment
 * {@code A | B | C} (1,145 bytes, offsets 0-4, three index entries), their {@code created.revision} and, when asked,
 * the WAL's {@code prepares-<rev>/} with a frontier and the retained hard link of segment 0.
 */
public final class NodeDir {
    public final Path root;

    public NodeDir(Path root) throws IOException {
        this.root = root;
        Files.createDirectories(root);
    }

    public Path metadata() throws IOException {
        return Files.createDirectories(root.resolve("metadata"));
    }

    public NodeDir snapshot(byte[] file) throws IOException {
        Files.write(metadata().resolve("snapshot.bin"), file);
        return this;
    }

    public NodeDir journal(byte[] file) throws IOException {
        Files.write(metadata().resolve("journal.wal"), file);
        return this;
    }

    public NodeDir superblock(String slot, byte[] file) throws IOException {
        Files.write(metadata().resolve("superblock." + slot), file);
        return this;
    }

    public Path partitionDir(long s, long t, long p) {
        return root.resolve("streams/" + s + "/topics/" + t + "/partitions/" + p);
    }

    /** Partition {@code (s, t, p)} holding A | B | C with three index entries, and {@code created.revision}. */
    public Path partition(long s, long t, long p, long createdRevision) throws IOException {
        Path dir = partitionDir(s, t, p);
        Files.createDirectories(dir);
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(p).messagesRequiredToSave(1))) {
            w.append(SpecVectors.messagesA(), SpecVectors.TA, SpecVectors.ORIGIN_A);
            w.append(SpecVectors.messagesB(), SpecVectors.TB, SpecVectors.ORIGIN_B);
            w.append(SpecVectors.messagesC(), SpecVectors.TC, SpecVectors.ORIGIN_C);
        }
        Files.write(dir.resolve("created.revision"),
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(createdRevision).array());
        return dir;
    }

    /**
     * {@code prepares-<rev>/frontier} from {@code w} (slots with sequences 2 and 1) and the retained link
     * {@code segment-0-0.log} to the partition's segment 0, as a WAL that owns segment 0 leaves them.
     */
    public static Path wal(Path partition, long createdRevision, FrontierWriter w) throws IOException {
        Path wal = Files.createDirectories(partition.resolve("prepares-" + createdRevision));
        Files.write(wal.resolve("frontier"), w.file(2, 1));
        Files.createLink(wal.resolve("segment-0-0.log"), partition.resolve("00000000000000000000.log"));
        Files.write(wal.resolve("prepares-0.wal"), new byte[4096]);
        return wal;
    }

    /** A snapshot of one stream {@code key 0, "s0"} whose topics are given. */
    public static SnapshotWriter oneStream(long sequence, long revision, List<SnapshotWriter.Topic> topics) {
        return new SnapshotWriter().sequence(sequence).revision(revision)
                .stream(new SnapshotWriter.Stream(0, "s0", SnapshotWriter.T, topics));
    }

    public static SnapshotWriter.Topic topic(long key, String name, List<Opt> options, long... revisions) {
        List<SnapshotWriter.Partition> parts = new java.util.ArrayList<>();
        for (int i = 0; i < revisions.length; i++) {
            parts.add(SnapshotWriter.Partition.of(i, revisions[i]));
        }
        return new SnapshotWriter.Topic(key, name, SnapshotWriter.T, parts, options);
    }

    /** Appends {@code n} zero bytes to segment 0's log (FORMAT 8's torn-tail shape, RECOVERY V2). */
    public static void appendZeros(Path partition, int n) throws IOException {
        Files.write(partition.resolve("00000000000000000000.log"), new byte[n],
                java.nio.file.StandardOpenOption.APPEND);
    }
}
