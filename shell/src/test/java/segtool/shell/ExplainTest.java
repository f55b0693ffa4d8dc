package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.LogRegions;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.report.ScanJson;
import segtool.formats.log.BatchHeader;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter.SegmentLayout;
import segtool.shell.render.Explainer;
import segtool.shell.render.SegmentMap;

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
        String out = flat(Cli.run("explain", interior.dir, "--detail").out());
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
        // pinned with --detail: the golden keeps the step-back derivation and the decision step
        Cli.Result r = Cli.run("explain", outrun.dir, Long.toString(outrun.last().startOffset()), "--enforce-fsync",
                "--detail");
        assertEquals(ExitCodes.REFUSED, r.exit(), r.toString());
        assertTrue(flat(r.out()).contains("REFUSED (FsyncedLogLoss): the server will not boot this partition"),
                r.out());
        assertTrue(flat(r.out()).contains("2: the log backs"), r.out());
        Golden.check("explain-outrun-durable", r.out(root));
    }

    @Test
    void lenient_stepBackMeasuredButNotSearchedByServer() {
        Cli.Result r = Cli.run("explain", outrun.dir, Long.toString(outrun.last().startOffset()), "--detail");
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        assertTrue(flat(r.out()).contains("the server does not search in lenient mode"), r.out());
        assertTrue(flat(r.out()).contains("so durability=persisted would refuse FsyncedLogLoss"), r.out());
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
        assertTrue(r.out().contains("REFUSED (InteriorDamage)"), r.out());
        assertFalse(r.out().contains("detail"), r.out());
    }

    @Test
    void json_isScanJsonPlusFactsMapAndSurvivors() throws IOException {
        JsonNode j = ScanJson.mapper().readTree(Cli.run("explain", interior.dir, "--json").out());
        assertEquals("segtool.explain/2", j.get("schema").asText());
        assertNull(j.get("enforce_fsync"), "removed in segtool.scan/4");
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
        assertEquals(2, j.get("exit_code").asInt());
        assertEquals(2, j.get("summary").get("exit_code").asInt(), "deprecated, kept in explain/2");
    }

    /** The spec's internals that plain explain text leaves to --detail. */
    static final List<String> INTERNALS = List.of("W(first)", "W(last)", "R()", "candidate unit", "pass A", "pass B",
            "pass C", "A2:", "A4:", "A5:", "A6:", "A7:", "step-back", "via A");

    @Test
    void plainText_leadsWithWhatBootDoes_theOffsetsAndBytes_andTheNextCommand() throws Exception {
        SegmentLayout seg = torn.last();
        var lastBatch = seg.batch(seg.batches().size() - 1);
        long kept = lastBatch.position();
        long onDisk = Files.size(seg.log());
        Cli.Result r = Proc.run(java.util.Map.of("COLUMNS", "80"), "explain", torn.dir,
                Long.toString(seg.startOffset()));
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        fits(r, 80);
        String out = flat(r.out());
        String cut = onDisk + " bytes (" + String.format(java.util.Locale.ROOT, "%.1f KiB", onDisk / 1024.0) + ") to "
                + kept + " bytes (" + String.format(java.util.Locale.ROOT, "%.1f KiB", kept / 1024.0) + "), dropping "
                + (onDisk - kept) + " bytes";
        long lastKept = lastBatch.baseOffset() - 1;
        inOrder(out, "verdict ACCEPTED after changes: the server boots this partition and changes files itself first",
                "Segment " + SegmentFiles.stem(seg.startOffset()) + " truncated",
                "at boot cuts the log from " + cut + ", and rebuilds the index",
                "offsets kept: offsets " + seg.startOffset() + ".." + lastKept + " ("
                        + (lastKept - seg.startOffset() + 1) + ") in bytes [0, " + kept + ")",
                "bytes [" + kept + ", " + onDisk + ") = " + (onDisk - kept) + " bytes: torn",
                "plan write ", "next step", "$ segtool hexdump " + seg.log() + " " + kept);
        for (String internal : INTERNALS) {
            assertFalse(r.out().contains(internal), internal + " in\n" + r.out());
        }
        Cli.Result detail = Proc.run(java.util.Map.of("COLUMNS", "80"), "explain", torn.dir,
                Long.toString(seg.startOffset()), "--detail");
        fits(detail, 80);
        inOrder(flat(detail.out()), "detail (how recovery decides, in RECOVERY.md's terms)", "probe budget",
                "candidate units", "Segment ", "next step", "detail (how recovery decides", "walk W(last)",
                "walk R()", "step-back", "decision A4:", "result ", "unread ");
    }

    @Test
    void everyGalleryShape_bothModes_plainUnlessDetail() {
        for (String shape : new String[]{"healthy", "torn-tail", "interior-damage", "unverified-residue",
            "offset-discontinuity", "foreign-batch", "hole", "empty-non-tail-segment", "fsynced-log-loss",
            "fsynced-rebuild-shortfall", "index-partial-entry", "index-past-end-stepback-1",
            "index-past-end-stepback-2", "index-rebuilt", "recovered-empty", "wal-checkpoint", "anchored-gap",
            "interior-damage-below-last-entry", "non-canonical-names"}) {
            for (String mode : new String[]{"--durability=replicated", "--durability=persisted"}) {
                Path p = GALLERY.resolve(shape);
                Cli.Result plain = Cli.run("explain", p, mode);
                Cli.Result detail = Cli.run("explain", p, mode, "--detail");
                assertEquals(plain.exit(), detail.exit(), shape + " " + mode);
                assertTrue(plain.exit() != ExitCodes.IO_ERROR, plain.toString());
                if (plain.exit() == ExitCodes.USAGE) {
                    // a topic whose metadata names the other durability: the command line contradicts it
                    assertTrue(plain.out().contains("contradicts"), plain.toString());
                    continue;
                }
                for (String internal : INTERNALS) {
                    assertFalse(plain.out().contains(internal), shape + " " + mode + ": " + internal + " in\n"
                            + plain.out());
                }
                if (!plain.out().contains("clean in both modes")) {
                    assertTrue(plain.out().contains("  verdict        "), plain.out());
                    assertTrue(detail.out().contains("detail (how recovery decides"), detail.out());
                    assertTrue(detail.out().startsWith(plain.out().substring(0, plain.out().indexOf("  verdict"))),
                            shape);
                }
            }
        }
    }

    @Test
    void help_documentsDetail() {
        Cli.Result r = Cli.run("explain", "--help");
        assertTrue(flat(r.out()).contains("--detail Also show how recovery reaches the verdict"), r.out());
    }

    /** Every line fits in {@code width}, but one naming a path under the test's root (never folded). */
    static void fits(Cli.Result r, int width) {
        for (String line : r.out().split("\n")) {
            assertTrue(line.length() <= width || line.contains(root.toString()), "longer than " + width + ": ["
                    + line + "]\n" + r.out());
        }
    }

    static void inOrder(String text, String... parts) {
        int at = 0;
        for (String p : parts) {
            int i = text.indexOf(p, at);
            assertTrue(i >= 0, "missing, in order: [" + p + "] after " + at + " in\n" + text);
            at = i + p.length();
        }
    }

    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    /** The first segment of a gallery shape's partition, as explain --json shows it. */
    private static JsonNode gallerySegment(String shape) throws IOException {
        Path partition = GALLERY.resolve(shape).resolve("streams/1/topics/1/partitions/1");
        JsonNode j = ScanJson.mapper().readTree(Cli.run("explain", partition, "--json").out());
        return j.get("partitions").get(0).get("segments").get(0);
    }

    private static String regions(JsonNode seg) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (JsonNode m : seg.get("map")) {
            out.add(m.get("region").asText() + " " + m.get("from").asLong() + ".." + m.get("to").asLong());
        }
        return String.join("; ", out);
    }

    private static String fact(JsonNode seg, String topic) {
        for (JsonNode f : seg.get("facts")) {
            if (f.get("topic").asText().equals(topic)) {
                return f.get("text").asText();
            }
        }
        throw new AssertionError("no fact " + topic + " in " + seg.get("facts"));
    }

    @Test
    void foreignBatch_thatVerifies_isDrawnAsForeign_notDamaged() throws IOException {
        // C (782..1145) verifies and carries partition_id 2; W(last) starts at C, so nothing before it was walked
        JsonNode seg = gallerySegment("foreign-batch");
        assertEquals("unexamined 0..782; foreign_batch 782..1145", regions(seg));
    }

    @Test
    void offsetDiscontinuity_mapAndTextAgreeOnWhatVerified() throws IOException {
        // W(first entry) accepts A and B, then C verifies with base_offset 7 where 4 is expected
        JsonNode seg = gallerySegment("offset-discontinuity");
        assertEquals("verified 0..782; stale_batch 782..1145", regions(seg));
        assertEquals("[0, 782) verifies (W(last)), through offset 3", fact(seg, "log proves"));
        assertTrue(fact(seg, "walk W(last)").endsWith("stopped at 782: the record at 782 verifies and refuses: "
                + "OffsetDiscontinuity {start_offset: 0, expected_offset: 4, found_offset: 7, position: 782}"),
                fact(seg, "walk W(last)"));
    }

    @Test
    void recoveredEmpty_garbageIsFenced_notTorn() throws IOException {
        JsonNode seg = gallerySegment("recovered-empty");
        assertEquals("fenced 0..300", regions(seg));
    }

    @Test
    void explainer_rendersWithoutTheFiles(@TempDir Path scratch) throws IOException {
        Partitions p = Partitions.interior(scratch);
        RecoveryEngine engine = new RecoveryEngine();
        PartitionReport r = engine.judgeBothModes(PartitionPath.of(p.dir), false);
        List<LogRegions> regions = engine.regions(r);
        for (SegmentLayout s : p.segments) {
            Files.delete(s.log());
        }
        Explainer.PartitionStory story = new Explainer().explain(r, regions, null);
        Explainer.SegmentStory first = story.segments().get(0);
        assertEquals(p.segment(0).batches().size() - 6, first.survivors().records());
        assertEquals(SegmentMap.Kind.SURVIVOR, first.map().get(first.map().size() - 1).kind());
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

    /**
     * The salvage and accept-loss commands explain prints for a refusal carry the options this run judged with
     * (--partition-id for a directory whose name is no partition id, the durability given without metadata), so
     * that running them judges the same partition the same way; without them they exited 64 or judged another mode.
     */
    @Test
    void lossCommands_carryTheVerdictOptions(@TempDir Path scratch) throws IOException {
        Path p = scratch.resolve("7");
        Partitions.copyTree(Path.of("..", "samples", "gallery", "hole", "streams", "1", "topics", "1", "partitions", "1"),
                p);
        Cli.Result r = Cli.run("explain", p, "--partition-id", "1", "--durability=persisted");
        assertEquals(ExitCodes.REFUSED, r.exit(), r.toString());
        assertTrue(r.out().contains("$ segtool salvage " + p + " -o OUT --format ndjson --partition-id=1\n"), r.out());
        String repair = "$ segtool repair " + p + " --durability=persisted --partition-id=1 --accept-loss --apply"
                + " --salvage-to OUT";
        assertTrue(r.out().contains(repair), r.out());
        // the look-at-it lines too (a hole: the chain's segments), and they run
        assertTrue(r.out().contains("$ segtool segments " + p + " --partition-id=1\n"), r.out());
        assertTrue(Cli.run("segments", p, "--partition-id=1").exit() != ExitCodes.USAGE);
        // the dry run of that repair reads the same partition in the same mode
        Cli.Result dry = Cli.run("repair", p, "--durability=persisted", "--partition-id=1", "--accept-loss");
        assertTrue(dry.exit() != ExitCodes.USAGE, dry.toString());
    }
}
