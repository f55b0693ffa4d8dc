package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.report.ScanJson;
import segtool.formats.log.BatchHeader;

/** {@code explain}: the account of each verdict, in both modes, with its map; text (golden) and JSON. */
class ExplainTest {
    @TempDir
    static Path root;

    static Partitions healthy;
    static Partitions torn;
    static Partitions interior;
    static Partitions outrun;
    static Partitions foreign;

    @BeforeAll
    static void build() throws IOException {
        healthy = Partitions.healthy(root, "healthy");
        torn = Partitions.tornTail(root);
        interior = Partitions.interior(root);
        outrun = Partitions.indexOutrunsLog(root);
        foreign = Partitions.foreign(root);
    }

    /** The text with wrapping undone, so phrases can be searched whatever the width. */
    static String flat(String text) {
        return text.replaceAll("\\s+", " ");
    }

    @Test
    void healthy_cleanInBothModes_golden() throws IOException {
        Cli.Result r = Cli.run("explain", healthy.dir);
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("explain-healthy", r.out(root));
    }

    @Test
    void tornTail_truncatedAndRebuilt_golden() throws IOException {
        Cli.Result r = Cli.run("explain", torn.dir, Long.toString(torn.last().startOffset()));
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        Golden.check("explain-torn", r.out(root));
    }

    @Test
    void interiorDamage_refusedLenientCleanDurable_golden() throws IOException {
        Cli.Result r = Cli.run("explain", interior.dir);
        assertEquals(ExitCodes.REFUSED, r.exit(), r.toString());
        Golden.check("explain-interior", r.out(root));
    }

    @Test
    void interiorDamage_namesTheExactCheckAndTheSurvivors() {
        long bad = interior.segment(0).batch(5).position();
        long survivor = interior.segment(0).batch(6).position();
        String out = flat(Cli.run("explain", interior.dir).out());
        assertTrue(out.contains("stopped at " + bad + ": message 0 checksum mismatch at " + (bad + BatchHeader.LENGTH)
                + ": stored 0x"), out);
        assertTrue(out.contains("a record verifies at " + survivor + ": survivor"), out);
        int after = interior.segment(0).batches().size() - 6;
        assertTrue(out.contains(after + " record(s) verify, offsets 30.."), out);
        assertTrue(out.contains("$ segtool hexdump " + interior.segment(0).log() + " " + bad + " 512"), out);
        assertTrue(out.contains("The setting changes the verdict"), out);
    }

    @Test
    void interiorDamage_mapShowsVerifiedDamagedSurvivor() {
        String out = Cli.run("explain", interior.dir, "0").out();
        String map = out.lines().filter(l -> l.startsWith("  map  |")).findFirst().orElseThrow();
        assertEquals(80, map.length(), map);
        String cells = map.substring(map.indexOf('|') + 1, map.lastIndexOf('|'));
        assertTrue(cells.matches("=+X+S+"), cells);
        assertTrue(out.contains("= verified "), out);
        assertTrue(out.contains("X damaged 696 B"), out);
    }

    @Test
    void durable_stepBackOfTwo_refusesFsyncedLogLoss_golden() throws IOException {
        Cli.Result r = Cli.run("explain", outrun.dir, Long.toString(outrun.last().startOffset()), "--enforce-fsync");
        assertEquals(ExitCodes.REFUSED, r.exit(), r.toString());
        assertTrue(flat(r.out()).contains("REFUSED FsyncedLogLoss"), r.out());
        assertTrue(flat(r.out()).contains("2: the log backs"), r.out());
        Golden.check("explain-outrun-durable", r.out(root));
    }

    @Test
    void lenient_stepBackMeasuredButNotSearchedByServer() {
        Cli.Result r = Cli.run("explain", outrun.dir, Long.toString(outrun.last().startOffset()));
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        assertTrue(flat(r.out()).contains("the server does not search in lenient mode"), r.out());
        assertTrue(flat(r.out()).contains("so enforce_fsync=true would refuse FsyncedLogLoss"), r.out());
    }

    @Test
    void foreignBatch_refusedInBothModes() {
        Cli.Result r = Cli.run("explain", foreign.dir);
        assertEquals(ExitCodes.REFUSED, r.exit());
        assertTrue(flat(r.out()).contains("belongs to partition 1, not 2"), r.out());
        assertTrue(flat(r.out()).contains("- the same verdict"), r.out());
    }

    @Test
    void partitionIdOverride_acceptsForeignDirectory() {
        Cli.Result r = Cli.run("explain", foreign.dir, "--partition-id", "1", "--quiet");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
    }

    @Test
    void quiet_printsOnlyTheVerdicts() {
        Cli.Result r = Cli.run("explain", interior.dir, "-q");
        assertFalse(r.out().contains("Segment "), r.out());
        assertTrue(r.out().contains("REFUSED InteriorDamage"), r.out());
    }

    @Test
    void json_isScanJsonPlusFactsMapAndSurvivors() throws IOException {
        JsonNode j = ScanJson.mapper().readTree(Cli.run("explain", interior.dir, "--json").out());
        assertEquals("segtool.explain/1", j.get("schema").asText());
        assertFalse(j.get("enforce_fsync").asBoolean());
        JsonNode p = j.get("partitions").get(0);
        assertEquals("refused", p.get("outcome").asText());
        assertEquals("InteriorDamage", p.get("refusal").get("variant").asText());
        assertEquals("accepted", p.get("other_mode").get("outcome").asText());
        assertNotNull(p.get("other_mode_report"));
        JsonNode seg = p.get("segments").get(0);
        assertEquals("verified", seg.get("map").get(0).get("region").asText());
        assertEquals("damaged", seg.get("map").get(1).get("region").asText());
        assertEquals(interior.segment(0).batch(5).position(), seg.get("map").get(1).get("from").asLong());
        assertEquals(interior.segment(0).batches().size() - 6, seg.get("survivors").get("records").asLong());
        assertTrue(seg.get("facts").size() > 8);
        assertEquals(2, j.get("summary").get("exit_code").asInt());
    }

    @Test
    void segmentFile_explainsThatSegmentOnly() {
        Cli.Result r = Cli.run("explain", torn.last().log());
        assertEquals(ExitCodes.CHANGES, r.exit());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("Segment ")).count(), r.out());
    }

    @Test
    void dataDirectory_cleanPartitionsGetOneLine() {
        Cli.Result r = Cli.run("explain", root.resolve("healthy"));
        assertTrue(r.out().contains(": clean in both modes"), r.out());
        assertEquals(ExitCodes.CLEAN, r.exit());
    }

    @Test
    void unknownSegment_isUsage() {
        Cli.Result r = Cli.run("explain", healthy.dir, "12345");
        assertEquals(ExitCodes.USAGE, r.exit());
        assertTrue(r.err().contains("no segment 12345"), r.toString());
    }
}
