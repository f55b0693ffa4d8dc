package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import segtool.analyzers.report.ScanJson;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.FrameHeader;
import segtool.formats.writer.PartitionWriter;

/**
 * Every inspection command, black-box through {@link CommandLines#oneShot()}: output (golden where it is stable),
 * exit codes on healthy, torn, damaged and refused partitions, JSON shape, bounded reads and one-line errors.
 */
class CommandsTest {
    @TempDir
    static Path root;

    static Partitions healthy;
    static Partitions torn;
    static Partitions interior;
    static Partitions outrun;
    static Partitions foreign;
    static Partitions huge;
    static Partitions messages;

    @BeforeAll
    static void build() throws IOException {
        healthy = Partitions.healthy(root, "healthy");
        torn = Partitions.tornTail(root);
        interior = Partitions.interior(root);
        outrun = Partitions.indexOutrunsLog(root);
        foreign = Partitions.foreign(root);
        huge = Partitions.hugeLength(root);
        messages = Partitions.messages(root);
    }

    static JsonNode json(Cli.Result r) throws IOException {
        return ScanJson.mapper().readTree(r.out());
    }

    // ---- scan --------------------------------------------------------------------------------------------

    @Test
    void scan_exitCodesFollowTheVerdict() {
        assertEquals(ExitCodes.CLEAN, Cli.run("scan", healthy.dir).exit());
        assertEquals(ExitCodes.CHANGES, Cli.run("scan", torn.dir).exit());
        assertEquals(ExitCodes.REFUSED, Cli.run("scan", interior.dir).exit());
        assertEquals(ExitCodes.CHANGES, Cli.run("scan", outrun.dir).exit());
        assertEquals(ExitCodes.REFUSED, Cli.run("scan", outrun.dir, "--enforce-fsync").exit());
        assertEquals(ExitCodes.REFUSED, Cli.run("scan", foreign.dir).exit());
    }

    @Test
    void scan_printsTheDurabilityItUsedAndWhereItCameFrom() {
        Cli.Result r = Cli.run("scan", torn.dir, "--durability=persisted");
        assertTrue(r.out().contains("durability=persisted (from --durability; "), r.toString());
        assertTrue(r.out().contains("checkpoint=none (no prepares-<created_revision>/ directory)"), r.toString());
        assertEquals("", r.err(), r.toString());
        Cli.Result alias = Cli.run("scan", torn.dir, "--enforce-fsync=true");
        assertTrue(alias.out().contains("durability=persisted (from --durability; "), alias.toString());
        assertEquals("segtool: note: --enforce-fsync is the #3970 name; today's option is --durability=persisted",
                alias.err().strip());
        assertEquals(ExitCodes.USAGE, Cli.run("scan", torn.dir, "--durability=replicated", "--enforce-fsync").exit());
        assertEquals(ExitCodes.USAGE, Cli.run("scan", torn.dir, "--durability=Persisted").exit());
    }

    @Test
    void scan_tornTail_golden() throws IOException {
        Golden.check("scan-torn", Cli.run("scan", torn.dir).out(root));
    }

    // ---- segments ----------------------------------------------------------------------------------------

    @Test
    void segments_healthy_listsTheChainAndExitsClean() throws IOException {
        Cli.Result r = Cli.run("segments", healthy.dir);
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("segments-healthy", r.out(root));
    }

    @Test
    void segments_tornTail_flagsTheShortWalk() {
        Cli.Result r = Cli.run("segments", torn.dir);
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        assertTrue(r.out().contains("headers stop at " + torn.last().batch(torn.last().batches().size() - 1)
                .position()), r.toString());
    }

    @Test
    void segments_listsScratchOrphanAndFenceFiles() throws IOException {
        Partitions p = Partitions.healthy(root, "sidecars");
        Files.write(p.dir.resolve("00000000000000000000.index.staging"), new byte[24]);
        Files.write(p.dir.resolve("00000000000000099999.index"), new byte[24]);
        Files.createDirectories(p.dir.resolveSibling("1.fenced.0"));
        Cli.Result r = Cli.run("segments", p.dir);
        assertTrue(r.out().contains("00000000000000000000.index.staging (24 bytes): scratch, deleted at boot"),
                r.toString());
        assertTrue(r.out().contains("00000000000000099999.index (24 bytes): orphan"), r.toString());
        assertTrue(r.out().contains("../1.fenced.0/ (fence directory"), r.toString());
    }

    @Test
    void segments_json_hasEverySegment() throws IOException {
        JsonNode j = json(Cli.run("segments", healthy.dir, "--json"));
        assertEquals("segtool.segments/1", j.get("schema").asText());
        assertEquals(healthy.segments.size(), j.get("partitions").get(0).get("segments").size());
        assertEquals(299, j.get("partitions").get(0).get("segments").get(healthy.segments.size() - 1)
                .get("end_offset_by_headers").asLong());
    }

    // ---- index -------------------------------------------------------------------------------------------

    @Test
    void index_healthy_everyEntryMapsAndVerifies() {
        Cli.Result r = Cli.run("index", healthy.segment(0).index());
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        int n = healthy.segment(0).entries().size();
        assertTrue(r.out().contains(n + " entries: " + n + " match their batch header, " + n + " of those verify"),
                r.toString());
    }

    @Test
    void index_interiorDamage_golden() throws IOException {
        Cli.Result r = Cli.run("index", interior.segment(0).log(), "--limit", "8");
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        Golden.check("index-interior", r.out(root));
    }

    @Test
    void index_entriesPastTheLog_sayWhy() {
        Cli.Result r = Cli.run("index", outrun.last().index());
        assertEquals(ExitCodes.CHANGES, r.exit());
        assertTrue(r.out().contains("leaves no room for a header"), r.toString());
    }

    @Test
    void index_json_rowsAndSummary() throws IOException {
        JsonNode j = json(Cli.run("index", interior.segment(0).index(), "--json"));
        assertEquals(interior.segment(0).entries().size(), j.get("rows").size());
        assertFalse(j.get("rows").get(5).get("verifies").asBoolean());
        assertTrue(j.get("rows").get(4).get("verifies").asBoolean());
        assertEquals(1, j.get("summary").get("problems").asLong());
        assertEquals(1, j.get("exit_code").asInt());
    }

    // ---- batches -----------------------------------------------------------------------------------------

    @Test
    void batches_tornTail_golden() throws IOException {
        Cli.Result r = Cli.run("batches", torn.last().log());
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        Golden.check("batches-torn", r.out(root));
    }

    @Test
    void batches_interiorDamage_marksTheBatchAndWalksOn() {
        Cli.Result r = Cli.run("batches", interior.segment(0).log());
        assertEquals(ExitCodes.CHANGES, r.exit());
        assertTrue(r.out().contains("message 0 checksum mismatch at " + (interior.segment(0).batch(5).position()
                + 256)), r.toString());
        assertTrue(r.out().contains(interior.segment(0).batches().size() + " batches"), r.toString());
        assertTrue(r.out().contains("1 fail verification"), r.toString());
    }

    @Test
    void batches_hugeLength_stopsCleanlyWithoutTrustingIt() {
        long at = huge.segment(0).batch(3).position();
        Cli.Result r = Cli.run("batches", huge.segment(0).log());
        assertEquals(ExitCodes.CHANGES, r.exit(), r.toString());
        assertTrue(r.out().contains("stopped at " + at + ": batch_length 4611686018427387904 at " + at
                + " exceeds MAX_RECOVERABLE_BATCH_BYTES"), r.toString());
        assertEquals("", r.err());
    }

    @Test
    void batches_fromAndLimit() {
        long from = healthy.segment(1).batch(2).position();
        Cli.Result r = Cli.run("batches", healthy.segment(1).log(), "--from", from, "--limit", "2", "--no-verify");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        assertTrue(r.out().contains("2 batches, 10 messages"), r.toString());
        assertTrue(r.out().contains("stopped at --limit"), r.toString());
    }

    @Test
    void batches_foreignPartition_flagged() {
        Cli.Result r = Cli.run("batches", foreign.segment(0).log(), "--limit", "1");
        assertTrue(r.out().contains("partition_id 1, not 2"), r.toString());
    }

    // ---- messages ----------------------------------------------------------------------------------------

    @Test
    void messages_decodesTextJsonBinaryAndLz4_golden() throws IOException {
        Cli.Result r = Cli.run("messages", messages.dir);
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("messages-mixed", r.out(root));
    }

    @Test
    void messages_formatJsonPrettyPrints() {
        Cli.Result r = Cli.run("messages", messages.dir, "--offset", "1", "--limit", "1", "--format", "json");
        assertTrue(r.out().contains("\"order\" : 17"), r.toString());
    }

    @Test
    void messages_offsetCrossesSegments() {
        long start = healthy.segment(1).startOffset();
        Cli.Result r = Cli.run("messages", healthy.dir, "--offset", start - 1, "--limit", "2", "--max-bytes", "4");
        assertTrue(r.out().contains("offset " + (start - 1) + " "), r.toString());
        assertTrue(r.out().contains("offset " + start + " "), r.toString());
        assertTrue(r.out().contains("2 message(s) shown"), r.toString());
    }

    @Test
    void messages_stopAtDamageAndSayWhere() {
        long bad = interior.segment(0).batch(5).position();
        Cli.Result r = Cli.run("messages", interior.segment(0).log(), "--offset", "20", "--limit", "100");
        assertEquals(ExitCodes.CHANGES, r.exit());
        assertTrue(r.out().contains("stopped: 00000000000000000000.log @ " + bad + ": the batch does not verify"),
                r.toString());
        assertTrue(r.out().contains("5 message(s) shown"), r.toString());
    }

    @Test
    void messages_json_typedHeadersAndDecodedPayload() throws IOException {
        JsonNode j = json(Cli.run("messages", messages.dir, "--json"));
        JsonNode m = j.get("messages");
        assertEquals(4, m.size());
        assertEquals("hello, iggy", m.get(0).get("payload_text").asText());
        assertEquals("uint32", m.get(1).get("user_headers").get(2).get("value_kind").asText());
        assertEquals("7", m.get(1).get("user_headers").get(2).get("value").asText());
        assertTrue(m.get(3).get("decompressed").asBoolean());
        assertEquals("iggy ".repeat(20), m.get(3).get("payload_text").asText());
    }

    // ---- find --------------------------------------------------------------------------------------------

    @Test
    void find_offset_golden() throws IOException {
        Cli.Result r = Cli.run("find", healthy.dir, "--offset", "137");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("find-offset", r.out(root));
    }

    @Test
    void find_timestamp_isoAndMicros() {
        long ts = healthy.segment(2).batch(1).baseTimestamp();
        Cli.Result micros = Cli.run("find", healthy.dir, "--timestamp", ts);
        assertTrue(micros.out().contains("batch at byte " + healthy.segment(2).batch(1).position()), micros.toString());
        Cli.Result iso = Cli.run("find", healthy.dir, "--timestamp", java.time.Instant.ofEpochSecond(ts / 1_000_000,
                ts % 1_000_000 * 1000).toString());
        assertEquals(micros.out(), iso.out());
    }

    @Test
    void find_pastTheEnd_saysSo() {
        Cli.Result r = Cli.run("find", healthy.dir, "--offset", "5000");
        // one rule for an offset the data does not reach (issue 14.6): a bad argument, not damage
        assertEquals(ExitCodes.USAGE, r.exit());
        assertTrue(r.out().contains("offset 5000 is past the end of segment"), r.toString());
    }

    @Test
    void find_needsExactlyOneTarget() {
        Cli.Result r = Cli.run("find", healthy.dir);
        assertEquals(ExitCodes.USAGE, r.exit());
        assertTrue(r.err().startsWith("segtool: "), r.toString());
    }

    // ---- hexdump -----------------------------------------------------------------------------------------

    @Test
    void hexdump_annotatesHeaderFields_golden() throws IOException {
        long at = healthy.segment(0).batch(1).position();
        Cli.Result r = Cli.run("hexdump", healthy.segment(0).log(), at, "112");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("hexdump-header", r.out(root));
    }

    @Test
    void hexdump_atDamagedLength_showsTheWouldBeHeader() {
        long at = huge.segment(0).batch(3).position();
        Cli.Result r = Cli.run("hexdump", huge.segment(0).log(), "0x" + Long.toHexString(at), "64");
        assertTrue(r.out().contains("would-be batch @" + at + " (batch_length 4611686018427387904"), r.toString());
        assertTrue(r.out().contains("the chain breaks at " + at), r.toString());
    }

    /** One line, as batches --from past the end says it (it added "Try 'segtool hexdump --help'."). */
    @Test
    void hexdump_pastTheEnd_isAUsageError() throws IOException {
        Path log = healthy.segment(0).log();
        Cli.Result r = Cli.run("hexdump", log, "99999999");
        assertEquals(ExitCodes.USAGE, r.exit());
        assertEquals("segtool: " + log + ": position 99999999 is at or past the end of the log (" + Files.size(log)
                + " bytes)\n", r.err(), r.toString());
        assertEquals("", r.out(), r.toString());
        Cli.Result b = Cli.run("batches", log, "--from", "99999999");
        assertEquals(r.err(), b.err(), "the same line as batches");
    }

    // ---- the frame walk, through every command that shows it ----------------------------------------------

    @Test
    void frameReservedDamage_eachCommandSaysWhereTheFrameWalkStops() throws IOException {
        Partitions p = Partitions.healthy(root, "frame-reserved");
        PartitionWriter.BatchInfo b = p.segment(0).batch(2);
        long frame1 = b.position() + BatchHeader.LENGTH + FrameHeader.LENGTH + 40;
        Partitions.write(p.segment(0).log(), frame1 + FrameHeader.RESERVED_OFFSET, new byte[]{1});
        String walk = "frame 1 reserved bytes not zero at " + frame1;

        Cli.Result find = Cli.run("find", p.dir, "--offset", b.baseOffset() + 3);
        assertEquals(ExitCodes.CHANGES, find.exit(), find.toString());
        assertTrue(find.out().contains("does not verify: " + walk + ": 0x1"), find.toString());
        assertTrue(find.out().contains("message 3 of the batch is not readable: " + walk + "\n"), find.toString());

        Cli.Result hex = Cli.run("hexdump", p.segment(0).log(), b.position(), "400");
        assertTrue(hex.out().contains("frames: " + walk), hex.toString());

        Cli.Result messages = Cli.run("messages", p.segment(0).log(), "--offset", b.baseOffset(), "--limit", "9");
        assertEquals(ExitCodes.CHANGES, messages.exit(), messages.toString());
        assertTrue(messages.out().contains("the batch does not verify: " + walk + ": 0x1; messages from 1 on are not "
                + "shown"), messages.toString());
        assertTrue(messages.out().contains("1 message(s) shown"), messages.toString());
    }

    // ---- stats -------------------------------------------------------------------------------------------

    @Test
    void stats_healthy_golden() throws IOException {
        Cli.Result r = Cli.run("stats", healthy.dir, "--segments");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        Golden.check("stats-healthy", r.out(root));
    }

    @Test
    void stats_dataDirectory_totals() throws IOException {
        JsonNode j = json(Cli.run("stats", root.resolve("healthy"), "--json"));
        assertEquals(300, j.get("total").get("messages").asLong());
        assertEquals(60, j.get("total").get("batches").asLong());
    }

    // ---- every command ---------------------------------------------------------------------------------

    @Test
    void everyCommand_helpListsExitCodes() {
        CommandLine cmd = CommandLines.oneShot();
        for (String name : cmd.getSubcommands().keySet()) {
            if (cmd.getSubcommands().get(name).getCommandSpec().usageMessage().hidden() || name.equals("help")
                    || name.equals("generate-completion")) {
                continue;
            }
            Cli.Result r = Cli.run(name, "--help");
            assertEquals(ExitCodes.CLEAN, r.exit(), name);
            assertTrue(r.out().contains("Exit codes:"), name + "\n" + r.out());
            assertTrue(r.out().contains("64    usage error"), name + "\n" + r.out());
            assertTrue(r.out().contains("130   cancelled"), name + "\n" + r.out());
            assertTrue(r.out().contains("143   terminated (SIGTERM)"), name + "\n" + r.out());
        }
    }

    @Test
    void topLevelHelp_golden() throws IOException {
        Golden.check("help", Cli.run("--help").out());
    }

    @Test
    void bareSegtool_notATerminal_isUsage() {
        Cli.Result r = Cli.run();
        assertEquals(ExitCodes.USAGE, r.exit());
        assertTrue(r.out().contains("Usage: segtool"), r.toString());
    }

    @Test
    void missingFile_oneLineNoTrace() {
        for (String command : new String[]{"scan", "explain", "segments", "stats", "index", "batches", "messages"}) {
            Cli.Result r = Cli.run(command, root.resolve("nope/00000000000000000000.log"));
            assertEquals(ExitCodes.USAGE, r.exit(), command + ": " + r);
            assertEquals(1, r.err().lines().count(), command + ": " + r);
            assertTrue(r.err().startsWith("segtool: ") && r.err().contains("nope"), command + ": " + r);
            assertFalse(r.err().contains("\tat "), command + ": " + r);
        }
    }

    @Test
    void unreadableLog_isAnIoErrorNamingTheFile() throws IOException {
        Path dir = Partitions.partitionDir(root, "unreadable", 1);
        Files.createDirectories(dir.resolve("00000000000000000000.log"));
        Cli.Result batches = Cli.run("batches", dir.resolve("0"));
        assertEquals(ExitCodes.IO_ERROR, batches.exit(), batches.toString());
        assertEquals(1, batches.err().lines().count(), batches.toString());
        assertTrue(batches.err().contains("00000000000000000000.log"), batches.toString());
        Cli.Result debug = Cli.run("batches", dir.resolve("0"), "--debug");
        assertTrue(debug.err().contains("\tat "), "--debug shows the trace: " + debug);
    }

    @Test
    void badOption_oneLineAndAPointerToHelp() {
        Cli.Result r = Cli.run("batches", healthy.segment(0).log(), "--limt", "3");
        assertEquals(ExitCodes.USAGE, r.exit());
        assertTrue(r.err().startsWith("segtool: Unknown options: '--limt'"), r.toString());
        assertTrue(r.err().contains("Possible solutions: --limit"), r.toString());
        assertTrue(r.err().contains("Try 'segtool batches --help'."), r.toString());
        assertFalse(r.err().contains("Usage:"), r.toString());
    }

    @Test
    void notATerminal_noColour() {
        for (Cli.Result r : new Cli.Result[]{Cli.run("explain", interior.dir), Cli.run("batches",
                interior.segment(0).log()), Cli.run("index", interior.segment(0).index())}) {
            assertFalse(r.out().contains("\u001b["), r.out());
        }
    }

    @Test
    void interruptedJudge_isCancelledNotAnIoError() throws Exception {
        Cli.Result[] result = new Cli.Result[1];
        Thread t = new Thread(() -> {
            Thread.currentThread().interrupt();
            result[0] = Cli.run("scan", healthy.dir);
        });
        t.start();
        t.join();
        assertEquals(ExitCodes.CANCELLED, result[0].exit(), result[0].toString());
        assertEquals("segtool: scan interrupted: nothing changed\n", result[0].err());
    }

    @Test
    void interruptedRead_isCancelled() throws Exception {
        Cli.Result[] result = new Cli.Result[1];
        Thread t = new Thread(() -> {
            Thread.currentThread().interrupt();
            result[0] = Cli.run("batches", healthy.segment(0).log());
        });
        t.start();
        t.join();
        assertEquals(ExitCodes.CANCELLED, result[0].exit(), result[0].toString());
    }

    /**
     * Completion offers the values the options take: --durability's two as the server spells them (it offered the
     * enum's PERSISTED and REPLICATED, which the option refuses, exit 64).
     */
    @Test
    void completion_offersDurabilityAsTyped() {
        Cli.Result r = Cli.run("generate-completion");
        assertEquals(ExitCodes.CLEAN, r.exit(), r.toString());
        assertTrue(r.out().contains("(\"persisted\" \"replicated\") # --durability values"), r.out());
        assertFalse(r.out().contains("PERSISTED"), "upper-case values offered");
        assertEquals(ExitCodes.CLEAN, Cli.run("scan", "-q", "--durability", "persisted",
                Path.of("..", "samples", "gallery", "healthy")).exit());
    }
}
