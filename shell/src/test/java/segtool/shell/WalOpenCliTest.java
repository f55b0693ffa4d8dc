package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.SnapshotWriter;

/**
 * The WAL's own open (METADATA 6.7) on the command line: scan, explain and the repair dry run say what the server's
 * open will first do to the directory, judge the directory it leaves, and change nothing.
 */
class WalOpenCliTest {
    @TempDir
    Path tmp;

    private static final String CUT = "truncate prepares-1/segment-0-0.log from 1145 to 782 bytes (tail.length)";

    /** FORMAT 8's A | B | C under a frontier whose tail and checkpoint are (0, 782, 4): the open cuts C off. */
    private NodeDir cutByTheOpen() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        NodeDir.wal(n.partition(0, 0, 0, 1), 1, FrontierWriter.example69().checkpoint(0, 782, 4));
        return n;
    }

    private static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }

    @Test
    void scanAndExplain_showTheOpensStepsAndJudgeTheDirectoryItLeaves() throws Exception {
        NodeDir n = cutByTheOpen();
        Path p = n.partitionDir(0, 0, 0);
        Cli.Result scan = Cli.run("scan", p);
        assertEquals(ExitCode.CHANGES, scan.exit(), scan.toString());
        String s = flat(scan.out());
        assertTrue(s.contains("WAL open, before segment recovery (METADATA 6.7): " + CUT), scan.out());
        assertTrue(s.contains(flat(Inputs.AFTER_OPEN)), scan.out());

        Cli.Result explain = Cli.run("explain", p);
        String e = flat(explain.out());
        assertTrue(e.contains("WAL open, before segment recovery (METADATA 6.7): " + CUT), explain.out());
        assertTrue(e.indexOf(CUT) < e.indexOf(flat(Inputs.AFTER_OPEN)), explain.out());

        JsonNode j = new ObjectMapper().readTree(Cli.run("scan", "--json", p).out()).get("partitions").get(0);
        assertTrue(j.get("judged_after_wal_open").asBoolean());
        JsonNode step = j.get("wal_open_steps").get(0);
        assertEquals("truncate", step.get("action").asText());
        assertEquals("prepares-1/segment-0-0.log", step.get("file").asText());
        assertEquals(1145, step.get("from_bytes").asLong());
        assertEquals(782, step.get("to_bytes").asLong());
        assertTrue(step.get("changes").asBoolean());
        assertEquals("relink_same", j.get("wal_open_steps").get(1).get("action").asText());
        assertFalse(j.get("wal_open_steps").get(1).get("changes").asBoolean());
        assertEquals(CUT, j.get("wal_open").get(0).asText());
        assertEquals("accepted", j.get("outcome").asText());
        assertEquals(782, j.get("segments").get(0).get("before").get("log_size").asLong(), j.toString());

        assertEquals(1145, Files.size(p.resolve("00000000000000000000.log")), "nothing on disk changed");
    }

    @Test
    void explain_neverSaysBootCutsTheCheckpointSegment() throws Exception {
        // review finding: tail (0, 1145, 5) past checkpoint (0, 782, 4), the ordinary shape of a WAL partition with
        // unacknowledged bytes; RECOVERY 9 walks the first 782 bytes and never truncates the log (step 2)
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        FrontierWriter w = FrontierWriter.example69();
        w.segments = new long[] {1L << 30, 1, 0, 0, 1145, 5, 0, 0, 782, 4};
        NodeDir.wal(n.partition(0, 0, 0, 1), 1, w);
        Path p = n.partitionDir(0, 0, 0);
        Cli.Result explain = Cli.run("explain", p);
        String e = flat(explain.out());
        assertFalse(e.contains("cuts the log"), explain.out());
        assertFalse(e.contains("torn (dropped by recovery)"), explain.out());
        assertFalse(e.contains("To keep the"), explain.out());
        assertTrue(e.contains("reads only the WAL checkpoint's first 782 bytes and leaves the log whole: the 363 bytes "
                + "past it are the WAL's"), explain.out());
        assertTrue(e.contains("past the WAL checkpoint (the WAL's; kept, not read)"), explain.out());
        JsonNode j = new ObjectMapper().readTree(Cli.run("explain", "--json", p).out());
        assertTrue(j.toString().contains("\"past_checkpoint\""), j.toString());
        assertFalse(j.toString().contains("\"truncate_log\""), j.toString());
        assertEquals(1145, Files.size(p.resolve("00000000000000000000.log")));
    }

    @Test
    void scanDataDir_namesThePartitionsJudgedAfterTheOpen() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(5, 2, java.util.List.of(NodeDir.topic(0, "t", segtool.samples.metadata.Opt
                .post4092(segtool.samples.metadata.Opt.string("durability", "persisted", true)), 1, 1))).file());
        NodeDir.wal(n.partition(0, 0, 0, 1), 1, FrontierWriter.example69().checkpoint(0, 782, 4));
        n.partition(0, 0, 1, 1);
        Cli.Result dir = Cli.run("scan", n.root);
        assertEquals(ExitCode.CHANGES, dir.exit(), dir.toString());
        String d = flat(dir.out());
        assertTrue(d.contains("s0/t0/p0: judged on the directory after the server's WAL open (METADATA 6.7), which "
                + "first will " + CUT), dir.out());
        assertFalse(d.contains("s0/t0/p1: judged on the directory after"), dir.out());
    }

    @Test
    void repairDryRun_saysTheOpenComesFirst_andPlansOnlyWhatItLeavesAlone() throws Exception {
        NodeDir n = cutByTheOpen();
        Path p = n.partitionDir(0, 0, 0);
        Cli.Result r = Cli.run("repair", p);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        String o = flat(r.out());
        int open = o.indexOf("the server's WAL open will first (METADATA 6.7, prepares-1/frontier slot 0, sequence 2): "
                + CUT);
        int then = o.indexOf("then segment recovery runs on the directory it leaves");
        assertTrue(open >= 0 && then > open, r.out());
        assertTrue(o.contains("00000000000000000000.index"), r.out());
        JsonNode j = new ObjectMapper().readTree(Cli.run("repair", "--json", p).out()).get("partitions").get(0);
        assertTrue(j.get("judged_after_wal_open").asBoolean(), j.toString());
        assertEquals("truncate", j.get("wal_open_steps").get(0).get("action").asText());
        assertEquals(1145, Files.size(p.resolve("00000000000000000000.log")));
    }

    /** The 6.9 frontier over A | B | C with the index R 9 rebuilds: recovery alone changes nothing. */
    private Path cleanUnderTheCheckpoint(String name) throws Exception {
        NodeDir n = new NodeDir(tmp.resolve(name));
        n.snapshot(NodeDir.oneStream(5, 2, java.util.List.of(NodeDir.topic(0, "t", segtool.samples.metadata.Opt
                .post4092(segtool.samples.metadata.Opt.string("durability", "persisted", true)), 1, 1))).file());
        n.partition(0, 0, 1, 1);
        Path p = n.partition(0, 0, 0, 1);
        NodeDir.wal(p, 1, FrontierWriter.example69());
        Files.write(p.resolve("00000000000000000000.index"), segtool.formats.index.IndexFile.encode(java.util.List.of(
                new segtool.formats.index.IndexEntry(0, segtool.formats.SpecVectors.TA, 0))));
        return p;
    }

    @Test
    void openDeletesAFileAboveTheTail_bootChangesFiles_exit1_countedAsWouldChange() throws Exception {
        Path p = cleanUnderTheCheckpoint("above");
        assertEquals(ExitCode.CLEAN, Cli.run("scan", p).exit(), "recovery alone changes nothing");
        byte[] abc = Files.readAllBytes(p.resolve("00000000000000000000.log"));
        Files.write(p.resolve("00000000000000000009.log"), java.util.Arrays.copyOfRange(abc, 782, 1145));
        Cli.Result scan = Cli.run("scan", p);
        assertEquals(ExitCode.CHANGES, scan.exit(), scan.toString());
        assertTrue(flat(scan.out()).contains("s0/t0/p0: accepted: 1 clean, 1 file(s) changed by the WAL open first"),
                scan.out());
        Cli.Result dir = Cli.run("scan", tmp.resolve("above"));
        assertEquals(ExitCode.CHANGES, dir.exit(), dir.toString());
        assertTrue(flat(dir.out()).contains("2 partitions: 0 refused, 1 would change files, 1 clean"), dir.out());
        Cli.Result explain = Cli.run("explain", p);
        String e = flat(explain.out());
        assertFalse(e.contains("without changing a file"), explain.out());
        assertTrue(e.contains("ACCEPTED after changes: at boot the server's WAL open first changes files (METADATA "
                + "6.7: deletes 00000000000000000009.log), then segment recovery changes none"), explain.out());
        assertTrue(Files.exists(p.resolve("00000000000000000009.log")));
    }

    @Test
    void publicLogAnotherInode_replacedAtBoot_exit1_theTextSaysWhereToCopyItsBytes() throws Exception {
        Path p = cleanUnderTheCheckpoint("replace");
        Path log = p.resolve("00000000000000000000.log");
        byte[] longer = java.util.Arrays.copyOf(Files.readAllBytes(log), 1645);
        Files.delete(log);
        Files.write(log, longer);
        Cli.Result scan = Cli.run("scan", p);
        assertEquals(ExitCode.CHANGES, scan.exit(), scan.toString());
        String s = flat(scan.out());
        assertTrue(s.contains("replace 00000000000000000000.log (another inode, 1645 bytes) by the WAL's retained "
                + "inode prepares-1/segment-0-0.log"), scan.out());
        assertTrue(s.contains("note: 00000000000000000000.log (another inode than the WAL's, 1645 bytes) is replaced "
                + "at boot by the WAL's open (METADATA 6.7 step 2): its bytes are then gone from the directory; to "
                + "keep them, copy 00000000000000000000.log (a copy, not a hard link) to a place outside the data "
                + "directory before the server starts"), scan.out());
        String e = flat(Cli.run("explain", p).out());
        assertFalse(e.contains("without changing a file"), e);
        assertTrue(e.contains("re-links 00000000000000000000.log to prepares-1/segment-0-0.log"), e);
        assertTrue(e.contains("1645 bytes) is replaced at boot"), e);

        Cli.Result r = Cli.run("repair", p);
        String o = flat(r.out());
        assertFalse(o.contains("clean, nothing to change"), r.out());
        assertTrue(o.contains("nothing for segtool to change, but not clean: the server's WAL open changes these files "
                + "at boot (METADATA 6.7: 00000000000000000000.log); segtool does not do the WAL's work"), r.out());
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        Cli.Result applied = Cli.run("repair", "--apply", "--yes", p);
        assertEquals(ExitCode.CHANGES, applied.exit(), applied.toString());
        assertEquals(1645, Files.size(log), "segtool does not do the WAL's work");
    }
}
