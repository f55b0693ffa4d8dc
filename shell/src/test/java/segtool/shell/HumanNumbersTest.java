package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.report.ScanJson;
import segtool.formats.writer.PartitionWriter;
import segtool.shell.render.Bytes;

/**
 * Numbers for people (issue 14.11): a human unit beside every exact byte count in text, exact integers in JSON, and
 * number options refused in the spec's terms; a partition id is any u64, 2^64-1 included.
 */
class HumanNumbersTest {
    @TempDir
    static Path root;

    static Partitions healthy;
    static Partitions torn;

    @BeforeAll
    static void build() throws IOException {
        healthy = Partitions.healthy(root, "healthy");
        torn = Partitions.tornTail(root);
    }

    @Test
    void bytes_exactCountWithABinaryUnit() {
        assertEquals("0 bytes", Bytes.count(0));
        assertEquals("1 byte", Bytes.count(1));
        assertEquals("1023 bytes", Bytes.count(1023));
        assertEquals("1024 bytes (1.0 KiB)", Bytes.count(1024));
        assertEquals("8052 bytes (7.9 KiB)", Bytes.count(8052));
        assertEquals("1073741824 bytes (1.0 GiB)", Bytes.count(1L << 30));
        assertEquals("18446744073709551615 bytes (16.0 EiB)", Bytes.count(-1));
        assertEquals("696 B", Bytes.size(696));
        assertEquals("16704 (16.3 KiB)", Bytes.size(16704));
    }

    @Test
    void textOutputs_showTheUnitBesideTheExactCount_jsonStaysExact() throws Exception {
        long log = Files.size(torn.last().log());
        String unit = String.format(java.util.Locale.ROOT, "%.1f KiB", log / 1024.0);
        Cli.Result segments = Cli.run("segments", torn.dir);
        assertTrue(segments.out().contains(log + " (" + unit + ")"), segments.out());
        Cli.Result stats = Cli.run("stats", torn.dir);
        long total = 0;
        for (var seg : torn.segments) {
            total += Files.size(seg.log());
        }
        assertTrue(stats.out().contains(" of " + Bytes.count(total) + "; stopped in"), stats.out());
        assertTrue(stats.out().contains("log " + Bytes.count(total) + ", index "), stats.out());
        assertTrue(stats.out().matches("(?s).*log " + total + " bytes \\(\\d+\\.\\d KiB\\).*"), stats.out());
        Cli.Result explain = Cli.run("explain", torn.dir, "--json");
        JsonNode j = ScanJson.mapper().readTree(explain.out());
        JsonNode last = j.get("partitions").get(0).get("segments").get(2);
        assertEquals(log, last.get("before").get("log_size").asLong(), last.toString());
        assertTrue(last.get("before").get("log_size").isIntegralNumber(), last.toString());
        Path copy = root.resolve("repair-copy");
        Partitions.copyTree(root.resolve("torn"), copy);
        Cli.Result repair = Cli.run("repair", copy.resolve(root.resolve("torn").relativize(torn.dir).toString()));
        long kept = torn.last().batch(torn.last().batches().size() - 1).position();
        assertTrue(repair.out().contains("truncate_log   " + torn.last().log().getFileName() + " " + log + " -> "
                + Bytes.count(kept)), repair.out());
        Cli.Result wide = Proc.run(Map.of("COLUMNS", "120"), "scan", torn.dir);
        assertTrue(wide.out().contains(log + " (" + unit + ")"), wide.out());
    }

    @Test
    void messageSizeUpper_nonPositiveOrAbsurd_isRefusedWithTheRange() {
        for (String v : new String[]{"0", "-5", "1048575", "4294967297", "99999999999999999999"}) {
            Cli.Result r = Cli.run("scan", healthy.dir, "--max-message-size-upper", v);
            assertEquals(ExitCodes.USAGE, r.exit(), v + ": " + r);
            assertTrue(r.err().contains("'" + v + "' is outside 1048576 (1 MiB) .. 4294967296 (4 GiB)"), r.err());
            assertEquals(1, r.err().lines().filter(l -> l.startsWith("segtool:")).count(), r.err());
        }
        assertEquals(ExitCodes.CLEAN, Cli.run("scan", healthy.dir, "--max-message-size-upper", "1048576").exit());
    }

    @Test
    void negativeLimits_areRefusedAsCounts_notAsJavaTypes() {
        Path seg = healthy.segment(0).log();
        Object[][] runs = {{"messages", healthy.dir, "--limit", "-1"}, {"messages", healthy.dir, "--max-bytes", "-1"},
            {"batches", seg, "--limit", "-1"}, {"index", seg, "--limit", "-7"}, {"hexdump", seg, "-1"}};
        for (Object[] run : runs) {
            Cli.Result r = Cli.run(run);
            assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
            assertTrue(r.err().contains("is negative; give a"), r.err());
            assertFalse(r.err().matches("(?s).*\\b(long|int|Long|Integer)\\b.*"), r.err());
        }
    }

    @Test
    void partitionId_2to64minus1_isAKnownId_onTheCommandLineAndAsADirectoryName() throws Exception {
        Cli.Result over = Cli.run("scan", healthy.dir, "--json", "--partition-id", "18446744073709551615");
        assertEquals(ExitCodes.REFUSED, over.exit(), over.toString());
        assertTrue(over.out().contains("\"partition_id\" : 18446744073709551615,"), over.out());
        Cli.Result why = Cli.run("explain", healthy.dir, "--partition-id", "18446744073709551615");
        assertTrue(ExplainTest.flat(why.out()).contains("belongs to partition 1, not 18446744073709551615"),
                why.out());
        // a partition whose directory is the largest id, and whose batches carry it: judged clean, named by it
        Path dir = root.resolve("max-id/streams/1/topics/1/partitions/18446744073709551615");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(-1L).segmentSize(16 * 1024), 20, 5, 40, 7);
        Cli.Result scan = Cli.run("scan", dir);
        assertEquals(ExitCodes.CLEAN, scan.exit(), scan.toString());
        assertTrue(scan.out().contains("s1/t1/p18446744073709551615: accepted"), scan.out());
        JsonNode j = ScanJson.mapper().readTree(Cli.run("scan", dir, "--json").out());
        assertEquals("18446744073709551615", j.get("partitions").get(0).get("partition_id").asText());
    }

}
