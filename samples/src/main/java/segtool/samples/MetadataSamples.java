package segtool.samples;

import static segtool.samples.Expected.Mode.accepted;
import static segtool.samples.Expected.Mode.refused;
import static segtool.samples.Expected.Segment.of;
import static segtool.samples.Expected.Status.CLEAN;
import static segtool.samples.Expected.Status.TRUNCATED;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import segtool.samples.Expected.Partition;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.JournalWriter;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;
import segtool.samples.metadata.SnapshotWriter;
import segtool.samples.metadata.SuperblockWriter;

/**
 * Gallery shapes whose verdict depends on what the data directory's {@code metadata/} and the partition WAL say
 * (METADATA.md): post-#4092 layouts with 0-based ids. Each partition holds FORMAT 8's {@code A | B | C} (partition 0);
 * the expected verdicts are the engine's under both modes, as for every sample; which mode the server uses is what
 * {@code scan} reads from {@code metadata/} (checked by the analyzers' gallery inputs test).
 */
final class MetadataSamples {
    static final String P000 = "streams/0/topics/0/partitions/0";
    static final String P010 = "streams/0/topics/1/partitions/0";
    private static final Opt PERSISTED = Opt.string("durability", "persisted", true);
    /** RECOVERY V2 on partition 0: 100 zero bytes after C; lenient rebuilds the index to one entry. */
    private static final Partition TORN_000 = Partition.of(P000, accepted(of(0, TRUNCATED, 4, 1145, 24)),
            accepted(of(0, TRUNCATED, 4, 1145, 72)));
    private static final Partition TORN_010 = Partition.of(P010, accepted(of(0, TRUNCATED, 4, 1145, 24)),
            accepted(of(0, TRUNCATED, 4, 1145, 72)));

    private MetadataSamples() {
    }

    static List<Gallery.Sample> all() {
        return List.of(durability(), journalTopic(), legacyEnforceFsync(), walCheckpoint(), walOpen());
    }

    private static void torn(Path p) throws IOException {
        NodeDir.appendZeros(p, 100);
    }

    /** Two topics of one stream, one persisted and one replicated, the same torn tail in each. */
    static Gallery.Sample durability() {
        return new Gallery.Sample("metadata-durability",
                "Post-#4092 data directory: topic 0 stores durability=persisted, topic 1 replicated (the default), "
                        + "in metadata/snapshot.bin; both partitions carry the V2 torn tail. scan with no mode flag "
                        + "judges topic 0 durable (index kept, 72 bytes) and topic 1 lenient (index rebuilt, 24).",
                dir -> {
                    NodeDir n = new NodeDir(dir);
                    n.snapshot(NodeDir.oneStream(5, 2, List.of(
                            NodeDir.topic(0, "payments", Opt.post4092(PERSISTED), 1),
                            NodeDir.topic(1, "clicks", Opt.post4092(), 2))).file());
                    torn(n.partition(0, 0, 0, 1));
                    torn(n.partition(0, 1, 0, 2));
                },
                List.of(TORN_000, TORN_010));
    }

    /** A topic created after the last snapshot: only the journal knows it, and its durability. */
    static Gallery.Sample journalTopic() {
        return new Gallery.Sample("metadata-journal-topic",
                "Topic 1 was created (durability=persisted) after the last snapshot: it is found by replaying "
                        + "metadata/journal.wal from the snapshot's sequence number 7 (op 8, solo node). Both "
                        + "partitions carry the V2 torn tail.",
                dir -> {
                    NodeDir n = new NodeDir(dir);
                    SnapshotWriter s = NodeDir.oneStream(7, 1, List.of(NodeDir.topic(0, "old", Opt.post4092(), 1)));
                    n.snapshot(s.file());
                    JournalWriter j = new JournalWriter();
                    j.entry(8, 8, 64, JournalWriter.createTopic(0, "new", 1, PERSISTED));
                    n.journal(j.file());
                    SuperblockWriter sb = new SuperblockWriter();
                    sb.checkpointOp = 7;
                    sb.checkpointChecksum = segtool.formats.hash.Xxh3.hash(s.payload());
                    sb.offsetFrontier = 0;
                    n.superblock("a", sb.file());
                    torn(n.partition(0, 0, 0, 1));
                    torn(n.partition(0, 1, 0, 2));
                },
                List.of(TORN_000, TORN_010));
    }

    /** A pre-#4092 topic that stored enforce_fsync = true: the server refuses to start. */
    static Gallery.Sample legacyEnforceFsync() {
        return new Gallery.Sample("metadata-legacy-enforce-fsync",
                "Topic 0 was created before #4092 with enforce_fsync=true: today's server refuses to start the node "
                        + "(UnsupportedOptionKey), so scan gives no verdict and says why; the segment itself is "
                        + "healthy in both modes.",
                dir -> {
                    NodeDir n = new NodeDir(dir);
                    n.snapshot(NodeDir.oneStream(3, 1, List.of(
                            NodeDir.topic(0, "legacy", Opt.pre4092(true, true), 1))).file());
                    n.partition(0, 0, 0, 1);
                },
                List.of(Partition.bothModes(P000, accepted(of(0, CLEAN, 4, 1145, 72)))));
    }

    /** METADATA 6.9: the frontier checkpoints segment 0 at (0, 1145, 5). */
    static Gallery.Sample walCheckpoint() {
        return new Gallery.Sample("wal-checkpoint",
                "METADATA 2.8 snapshot (durability=persisted) and 6.9 frontier: the WAL checkpoint (0, 1145, 5) is "
                        + "read from prepares-1/frontier, so scan judges RECOVERY 9 (index rebuilt to one entry). "
                        + "Without the checkpoint the segment is clean in both modes, as below.",
                dir -> {
                    NodeDir n = new NodeDir(dir);
                    n.snapshot(SnapshotWriter.example28().file());
                    Path p = n.partition(0, 0, 0, 1);
                    Path wal = Files.createDirectories(p.resolve("prepares-1"));
                    Files.write(wal.resolve("frontier"), FrontierWriter.example69().file(2, 1));
                    Files.write(wal.resolve("prepares-0.wal"), new byte[4096]);
                },
                List.of(Partition.bothModes(P000, accepted(of(0, CLEAN, 4, 1145, 72)))));
    }

    /**
     * METADATA 6.7 before RECOVERY 9: the WAL's retained {@code prepares-1/segment-0-0.log} is another inode than the
     * public name (as a checkout of the gallery leaves every hard link) and holds A | B | C plus 100 zero bytes; the
     * public {@code 00000000000000000000.log} has byte 620 (inside B) flipped.
     */
    static Gallery.Sample walOpen() {
        // Without inputs, as below: V6 (byte 620 flipped, index I3). Lenient A6: W(E0) stops at 315, R() stops at
        // 315, the probe finds C at 782 -> InteriorDamage {0, 315, 782}. Durable A7: the probe at 1,145 = L -> KEEP.
        // scan reads the frontier of 6.9 (tail = checkpoint = (0, 1145, 5)): the open cuts the retained inode from
        // 1,245 to 1,145 bytes and replaces the public name by it, so R 9 walks the intact A | B | C (checked in
        // GalleryInputsTest).
        return new Gallery.Sample("wal-open",
                "METADATA 2.8 snapshot and 6.9 frontier (tail = checkpoint = (0, 1145, 5)); the public "
                        + "00000000000000000000.log has byte 620 flipped, the WAL's retained "
                        + "prepares-1/segment-0-0.log is another inode holding A | B | C and 100 zero bytes. The "
                        + "WAL's open first cuts the retained inode to 1,145 bytes and replaces the public name by it, "
                        + "so scan judges RECOVERY 9 on intact bytes: accepted, index rebuilt to one entry. Without "
                        + "the open and the checkpoint (as below) lenient refuses InteriorDamage and durable accepts "
                        + "the damaged file clean (V6).",
                dir -> {
                    NodeDir n = new NodeDir(dir);
                    n.snapshot(SnapshotWriter.example28().file());
                    Path p = n.partition(0, 0, 0, 1);
                    Path log = p.resolve("00000000000000000000.log");
                    byte[] abc = Files.readAllBytes(log);
                    Path wal = Files.createDirectories(p.resolve("prepares-1"));
                    Files.write(wal.resolve("frontier"), FrontierWriter.example69().file(2, 1));
                    Files.write(wal.resolve("prepares-0.wal"), new byte[4096]);
                    byte[] retained = java.util.Arrays.copyOf(abc, abc.length + 100);
                    Files.write(wal.resolve("segment-0-0.log"), retained);
                    Damage.flipByte(log, 620);
                },
                List.of(Partition.of(P000, refused(Expected.Refusal.of("InteriorDamage", 0, "start_offset", 0,
                        "damage_position", 315, "survivor_position", 782), Expected.Segment.refused(0)),
                        accepted(of(0, CLEAN, 4, 1145, 72)))));
    }
}
