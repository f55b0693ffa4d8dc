package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;

/** {@code scan DATA_DIR} with no mode flag: each partition judged with its topic's stored durability (issue 11). */
class MetadataScanTest {
    @TempDir
    Path tmp;

    private static final Opt PERSISTED = Opt.string("durability", "persisted", true);

    private NodeDir twoTopics() throws Exception {
        return twoTopics(tmp);
    }

    /** Topic 0 persisted, topic 1 replicated, both partitions holding A | B | C plus 100 zero bytes (V2). */
    static NodeDir twoTopics(Path tmp) throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(5, 2, List.of(
                NodeDir.topic(0, "durable", Opt.post4092(PERSISTED), 1),
                NodeDir.topic(1, "lenient", Opt.post4092(), 2))).file());
        NodeDir.appendZeros(n.partition(0, 0, 0, 1), 100);
        NodeDir.appendZeros(n.partition(0, 1, 0, 2), 100);
        return n;
    }

    @Test
    void twoTopicsDifferentDurability_eachJudgedWithItsOwn_textAndJson() throws Exception {
        NodeDir n = twoTopics();
        Cli.Result r = Cli.run("scan", n.root);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        String flat = r.out().replaceAll("\\s*\\|\\s*", " ");
        assertTrue(flat.contains("durability=persisted (from metadata/snapshot.bin)"), r.out());
        assertTrue(flat.contains("durability=replicated (from metadata/snapshot.bin)"), r.out());
        JsonNode j = new ObjectMapper().readTree(Cli.run("scan", "--json", n.root).out());
        assertEquals("segtool.scan/4", j.get("schema").asText());
        JsonNode p0 = j.get("partitions").get(0);
        JsonNode p1 = j.get("partitions").get(1);
        assertEquals("persisted", p0.get("durability").asText());
        assertEquals("snapshot", p0.get("durability_source").asText());
        assertEquals(72, p0.get("segments").get(0).get("after").get("index_entries").asLong() * 24);
        assertEquals("replicated", p1.get("durability").asText());
        assertNull(p1.get("enforce_fsync"), "removed in segtool.scan/4");
        assertEquals(1, p1.get("segments").get(0).get("after").get("index_entries").asLong());
    }

    @Test
    void contradictingCommandLine_refusedUnlessOverridden_andTheOverrideIsPrinted() throws Exception {
        NodeDir n = twoTopics();
        Cli.Result no = Cli.run("scan", n.root, "--durability=replicated");
        assertEquals(ExitCode.USAGE, no.exit(), no.toString());
        assertTrue(no.out().replaceAll("\\s+", " ").contains("--durability=replicated contradicts the topic's stored "
                + "durability"), no.out());
        Cli.Result yes = Cli.run("scan", n.partitionDir(0, 0, 0), "--durability=replicated",
                "--override-durability");
        assertEquals(ExitCode.CHANGES, yes.exit(), yes.toString());
        assertTrue(yes.out().replaceAll("\\s+", " ").contains("durability=replicated (from --durability with "
                + "--override-durability) OVERRIDE: metadata says persisted"), yes.out());
    }

    @Test
    void legacyEnforceFsyncTrue_oneLinePerPartition_exitRefused() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(3, 1, List.of(NodeDir.topic(0, "old", Opt.pre4092(true, true), 1))).file());
        n.partition(0, 0, 0, 1);
        Cli.Result r = Cli.run("scan", n.partitionDir(0, 0, 0));
        assertEquals(ExitCode.REFUSED, r.exit(), r.toString());
        // folded to the width (issue 14.4): compare the words
        assertTrue(r.out().replaceAll("\\s+", " ").contains("cannot judge: stream 0, topic 0 (old) stores "
                + "enforce_fsync = true: the server refuses to start"), r.out());
    }

    @Test
    void frontierCheckpoint_printedWithItsSource() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(segtool.samples.metadata.SnapshotWriter.example28().file());
        NodeDir.wal(n.partition(0, 0, 0, 1), 1, FrontierWriter.example69());
        Cli.Result r = Cli.run("scan", n.partitionDir(0, 0, 0));
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        assertTrue(r.out().contains("durability=persisted (from metadata/snapshot.bin)\n"
                + "checkpoint=(0, 1145, 5) (from prepares-1/frontier slot 0, sequence 2)\n"), r.out());
        Cli.Result e = Cli.run("explain", n.partitionDir(0, 0, 0));
        assertTrue(e.out().contains("WAL open, before segment recovery (METADATA 6.7): re-link "
                + "00000000000000000000.log to the WAL's retained inode: already that inode, no change"), e.out());
    }

    @Test
    void segments_listsConsumerOffsetsFlaggingOnesAboveTheEnd_andTheWalsHardLink() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(segtool.samples.metadata.SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        NodeDir.wal(p, 1, FrontierWriter.example69());
        java.nio.file.Files.createDirectories(p.resolve("offsets/consumers"));
        java.nio.file.Files.write(p.resolve("offsets/consumers/1"), segtool.formats.offsets.ConsumerOffset.encode(3));
        java.nio.file.Files.write(p.resolve("offsets/consumers/2"), segtool.formats.offsets.ConsumerOffset.encode(9));
        Cli.Result r = Cli.run("segments", p);
        String flat = r.out().replaceAll("\\s+", " ");
        assertTrue(flat.contains("consumers/1 = 3, consumers/2 = 9 ABOVE the chain's end (last offset 4)"), r.out());
        assertTrue(flat.contains("2 hard links: the prepare WAL retains this inode"), r.out());
        assertTrue(flat.contains("prepares-1/ (the partition prepare WAL, METADATA 6"), r.out());
    }

    @Test
    void stats_listsConsumerOffsets_textAndJson_flaggingOnesAboveTheLastOffset() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(segtool.samples.metadata.SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        java.nio.file.Files.createDirectories(p.resolve("offsets/groups"));
        java.nio.file.Files.write(p.resolve("offsets/groups/4"), segtool.formats.offsets.ConsumerOffset.encode(4));
        java.nio.file.Files.write(p.resolve("offsets/groups/5"), segtool.formats.offsets.ConsumerOffset.encode(5));
        java.nio.file.Files.write(p.resolve("offsets/groups/6"), new byte[3]);
        Cli.Result r = Cli.run("stats", p);
        assertTrue(r.out().contains("  consumers  groups/4 = 4, groups/5 = 5 ABOVE the chain's end (last offset 4), "
                + "groups/6: torn (fewer than 8 bytes, ignored)"), r.out());
        Cli.Result j = Cli.run("stats", "--json", p);
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(j.out());
        var offsets = root.path("partitions").get(0).path("consumer_offsets");
        assertEquals(3, offsets.size(), j.out());
        assertEquals("groups", offsets.get(1).path("kind").asText());
        assertEquals("5", offsets.get(1).path("id").asText());
        assertEquals(5, offsets.get(1).path("offset").asLong());
        assertTrue(offsets.get(1).path("above_last_offset").asBoolean());
        assertFalse(offsets.get(0).path("above_last_offset").asBoolean());
        assertEquals("torn", offsets.get(2).path("state").asText());
        assertTrue(offsets.get(2).path("offset").isNull());
    }
}
