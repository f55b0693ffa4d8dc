package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 14.2 and 14.9: what a PATH is comes from the whole layout (a server log beside node directories does not make
 * a partition), stray entries of a data directory are skipped with one line each and never abort the run, an empty
 * partition is not an unqualified all-clear; several PATHs and --stream/--topic/--partition narrow a run.
 */
class DiscoveryTest {
    @TempDir
    Path root;

    static void partition(Path dataDir, long stream, long topic, long id) {
        Path dir = dataDir.resolve("streams/" + stream + "/topics/" + topic + "/partitions/" + id);
        PartitionWriter.fill(dir, PartitionWriter.Config.of(id).segmentSize(16 * 1024).messagesRequiredToSave(5),
                100, 5, 40, 7);
    }

    static void tear(Path dataDir, long stream, long topic, long id) throws Exception {
        Path dir = dataDir.resolve("streams/" + stream + "/topics/" + topic + "/partitions/" + id);
        List<Path> logs;
        try (var s = Files.list(dir)) {
            logs = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
        Path last = logs.get(logs.size() - 1);
        Partitions.truncate(last, Files.size(last) - 300);
    }

    @Test
    void aFolderOfNodes_withAServerLogBeside_isAFolderOfDataDirectories() throws Exception {
        Path fleet = root.resolve("fleet");
        partition(fleet.resolve("node-1"), 1, 1, 1);
        partition(fleet.resolve("node-2"), 1, 1, 1);
        tear(fleet.resolve("node-2"), 1, 1, 1);
        Files.writeString(fleet.resolve("iggy-server.log"), "2026-12-01T03:00:00Z INFO server started\n");
        Cli.Result r = Cli.run("scan", fleet);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("node-1:s1/t1/p1") && r.out().contains("node-2:s1/t1/p1"), r.toString());
        assertFalse(r.out().contains("no segments"), r.toString());
        // --partition-id does not turn the folder into one empty partition
        Cli.Result id = Cli.run("scan", fleet, "--partition-id", "1");
        assertEquals(ExitCodes.USAGE, id.exit(), id.toString());
        assertFalse(id.out().contains("accepted"), id.toString());
    }

    @Test
    void strayEntries_areSkippedWithOneLineEach_andNeverAbortTheRun() throws Exception {
        Path dd = root.resolve("node");
        partition(dd, 1, 1, 1);
        Path partitions = dd.resolve("streams/1/topics/1/partitions");
        List<Path> stray = List.of(partitions.resolve("1.bak"), partitions.resolve("backup"),
                partitions.resolve(".snapshot"), dd.resolve("streams/backup"), dd.resolve("streams/1/topics/old"));
        for (Path p : stray) {
            Files.createDirectories(p);
        }
        Files.copy(partitions.resolve("1/00000000000000000000.log"), partitions.resolve("1.bak/x.log"));
        for (String command : new String[]{"scan", "explain", "segments", "stats", "repair", "doctor"}) {
            Cli.Result r = Cli.run(command, dd);
            assertEquals(0, r.exit(), command + ": " + r);
            for (Path p : stray) {
                String what = p.getParent().getFileName().toString().equals("partitions") ? "partition"
                        : p.getParent().getFileName().toString().equals("streams") ? "stream" : "topic";
                String line = "segtool: warning: " + p + ": not a " + what + " directory (the name is not a numeric "
                        + what + " id); skipped";
                assertEquals(1, r.err().lines().filter(line::equals).count(), command + ": " + r);
            }
            assertFalse(r.err().contains("--partition-id"), command + ": " + r);
        }
        assertTrue(Files.isDirectory(partitions.resolve("1.bak")), "nothing removed");
    }

    @Test
    void anEmptyPartition_saysItHoldsNoSegments() throws Exception {
        Path dir = root.resolve("node/streams/1/topics/1/partitions/4");
        Files.createDirectories(dir);
        Cli.Result r = Cli.run("scan", dir);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().replaceAll("\\s+", " ").contains("accepted: no segments (no segment files: nothing "
                + "judged)"), r.toString());
        Cli.Result notAPartition = Cli.run("scan", Files.createDirectories(root.resolve("empty")));
        assertEquals(ExitCodes.USAGE, notAPartition.exit(), notAPartition.toString());
        assertTrue(notAPartition.err().contains("neither a partition"), notAPartition.toString());
    }

    @Test
    void severalPaths_andSelections() throws Exception {
        Path a = root.resolve("node-a");
        Path b = root.resolve("node-b");
        partition(a, 1, 1, 1);
        partition(a, 1, 2, 1);
        partition(a, 2, 1, 3);
        partition(b, 1, 1, 1);
        tear(b, 1, 1, 1);
        Cli.Result both = Cli.run("scan", a, b);
        assertEquals(1, both.exit(), both.toString());
        assertTrue(both.out().contains("4 partitions:"), both.toString());
        assertTrue(both.out().contains("node-a:s1/t1/p1") && both.out().contains("node-b:s1/t1/p1"), both.toString());
        Cli.Result twice = Cli.run("scan", a, a.resolve("streams/1/topics/1/partitions/1"), "--json");
        assertEquals(3, twice.out().split("\"partition_id\"").length - 1, "each partition once: " + twice.out());

        Cli.Result topic = Cli.run("scan", a, b, "--stream", "1", "--topic", "2", "--json");
        assertEquals(0, topic.exit(), topic.toString());
        assertEquals(1, topic.out().split("\"partition_id\"").length - 1, topic.out());
        assertTrue(topic.out().contains("streams/1/topics/2/partitions/1"), topic.out());
        Cli.Result some = Cli.run("scan", a, "--stream", "1,2", "--partition", "1,3");
        assertTrue(some.out().contains("3 partitions:"), some.toString());
        Cli.Result explain = Cli.run("explain", b, "--partition", "1");
        assertEquals(1, explain.exit(), explain.toString());

        for (String command : new String[]{"segments", "stats", "repair"}) {
            Cli.Result one = Cli.run(command, a, "--stream", "2", "--json");
            assertEquals(0, one.exit(), command + ": " + one);
            assertTrue(one.out().contains("partitions/3") && !one.out().contains("topics/2/partitions/1"),
                    command + ": " + one);
        }

        Cli.Result none = Cli.run("scan", a, "--stream", "9");
        assertEquals(ExitCodes.USAGE, none.exit(), none.toString());
        assertEquals("segtool: " + a + ": no partition matches the selection (3 partition(s): s1/t1/p1, s1/t2/p1, "
                + "s2/t1/p3)", none.err().strip(), none.toString());
    }
}
