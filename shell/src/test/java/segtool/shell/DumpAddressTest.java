package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 14.1: a crash dump has an address that outlives the command's extraction, {@code DUMP::INNER}; every
 * read-only command takes it, and what they print (next steps, "name one", tables, JSON) names paths inside the dump
 * in that form, never by the temporary directory that is gone when the command ends.
 */
class DumpAddressTest {
    @TempDir
    static Path root;

    static Path node;
    static Path dump;
    static List<PartitionWriter.SegmentLayout> torn;

    @BeforeAll
    static void build() throws Exception {
        Partitions.healthy(root, "node");
        node = root.resolve("node");
        Path p2 = Partitions.partitionDir(root, "node", 2);
        torn = PartitionWriter.fill(p2, PartitionWriter.Config.of(2).segmentSize(16 * 1024).messagesRequiredToSave(5),
                300, 5, 40, 7);
        PartitionWriter.SegmentLayout last = torn.get(torn.size() - 1);
        Partitions.truncate(last.log(), last.length() - 300);
        dump = root.resolve("node.tar.lz4");
        Cli.Result packed = Cli.run("pack", node, "-o", dump);
        assertEquals(0, packed.exit(), packed.toString());
    }

    static String address(String inner) {
        return dump + "::" + inner;
    }

    static final String P1 = "streams/1/topics/1/partitions/1";
    static final String P2 = "streams/1/topics/1/partitions/2";

    /** Nothing printed names the extraction (segtool-dump-<pid>-...) or the temp directory. */
    static void noTempPaths(Cli.Result r) {
        assertFalse((r.out() + r.err()).contains("segtool-dump-"), r.toString());
    }

    @Test
    void everyReadCommand_takesTheAddress_andAgreesWithTheDirectory() {
        Object[][] runs = {
            {"scan", "#P2"}, {"explain", "#P2"}, {"segments", "#P1"}, {"stats", "#P1"}, {"doctor", "#P2"},
            {"messages", "#P1", "--limit", "3"}, {"find", "#P1", "--offset", "17"},
            {"batches", "#P1/0", "--limit", "2"}, {"index", "#P1/0"},
            {"hexdump", "#P1/00000000000000000000.log", "0", "32"},
        };
        for (Object[] run : runs) {
            Object[] viaDump = run.clone();
            Object[] viaDir = run.clone();
            String inner = ((String) run[1]).replace("#P1", P1).replace("#P2", P2);
            viaDump[1] = address(inner);
            viaDir[1] = node.resolve(inner);
            Cli.Result d = Cli.run(viaDump);
            Cli.Result n = Cli.run(viaDir);
            assertEquals(n.exit(), d.exit(), run[0] + ": " + d);
            assertTrue(d.exit() == 0 || d.exit() == 1, run[0] + ": " + d);
            noTempPaths(d);
            String onDir = n.out().replace(node.toString(), "X");
            String onDump = d.out().replace(dump + "::", "X/").replace(dump.toString(), "X");
            if (run[0].equals("doctor")) {
                // a dump is read-only: doctor offers no repair on it, and says why, where the directory gets one
                assertTrue(onDump.contains("next: # a crash dump is read-only: extract it"), onDump);
                onDir = onDir.replaceAll("(?m)^ +next: segtool repair .*\n", "");
                onDump = onDump.replaceAll("(?m)^ +next: # a crash dump is read-only.*\n", "");
            }
            assertEquals(onDir, onDump, run[0] + ": the same report, the dump named by its address");
        }
    }

    @Test
    void aDumpOfSeveralPartitions_namesOneByItsAddress() {
        Cli.Result r = Cli.run("messages", dump);
        assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
        assertTrue(r.err().contains("name one (" + dump + "::streams/<s>/topics/<t>/partitions/<p>)"), r.toString());
        noTempPaths(r);
    }

    @Test
    void explainsNextSteps_andScanJson_useTheAddress() {
        Cli.Result r = Cli.run("explain", dump);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("$ segtool hexdump " + address(P2) + "/"), r.toString());
        assertTrue(r.out().contains("Partition " + address(P2) + "  (stream 1, topic 1, partition 2)"), r.out());
        noTempPaths(r);
        Cli.Result json = Cli.run("scan", dump, "--json");
        assertTrue(json.out().contains("\"path\" : \"" + address(P2) + "\""), json.out());
        noTempPaths(json);
        Cli.Result table = Cli.run("scan", dump);
        noTempPaths(table);
        // the table's columns stay aligned where a cell named the extraction
        long widths = table.out().lines().filter(l -> l.startsWith("|") || l.startsWith("+"))
                .mapToInt(String::length).distinct().count();
        assertEquals(1, widths, table.out());
    }

    @Test
    void theAddressItselfIsChecked_inOneLine() {
        Cli.Result notDump = Cli.run("scan", node.resolve(P1 + "/00000000000000000000.log") + "::x");
        assertEquals(ExitCodes.USAGE, notDump.exit(), notDump.toString());
        assertTrue(notDump.err().contains("not a crash dump"), notDump.toString());
        Cli.Result escape = Cli.run("scan", address("../x"));
        assertEquals(ExitCodes.USAGE, escape.exit(), escape.toString());
        assertTrue(escape.err().contains("must stay inside the dump"), escape.toString());
        Cli.Result missing = Cli.run("segments", address("streams/9"));
        assertEquals(ExitCodes.USAGE, missing.exit(), missing.toString());
        assertTrue(missing.err().startsWith("segtool: " + address("streams/9") + ": no such file"), missing.toString());
        Cli.Result segment = Cli.run("batches", address(P1 + "/9"));
        assertEquals(ExitCodes.USAGE, segment.exit(), segment.toString());
        assertTrue(segment.err().contains(address(P1) + "/00000000000000000009.log: no such segment"),
                segment.toString());
        for (Cli.Result r : List.of(notDump, escape, missing, segment)) {
            assertEquals(1, r.err().lines().count(), r.toString());
            noTempPaths(r);
        }
    }

    @Test
    void salvage_refusesADump_inOneLine() {
        Cli.Result r = Cli.run("salvage", address(P2), "-o", root.resolve("salvaged"));
        assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
        assertTrue(r.err().startsWith("segtool: " + address(P2) + ": a crash dump; salvage records"), r.toString());
        assertFalse(java.nio.file.Files.exists(root.resolve("salvaged")), r.toString());
    }

    @Test
    void aMutatingCommand_refusesTheAddress() {
        Cli.Result r = Cli.run("repair", address(P2), "--apply", "-y");
        assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
        assertTrue(r.err().contains("a crash dump is read-only"), r.toString());
    }
}
