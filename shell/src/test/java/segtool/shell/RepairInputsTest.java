package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;

/**
 * repair and rebuild-index judge each partition with the inputs scan uses: the topic's stored durability
 * (METADATA 3.4), never one command-line default for every partition. A lenient repair of a persisted topic would
 * rebuild an index the durable boot keeps, and in other shapes truncate what the durable boot refuses.
 */
class RepairInputsTest {
    @TempDir
    Path tmp;


    private NodeDir twoTopics() throws Exception {
        return MetadataScanTest.twoTopics(tmp);
    }

    private static long indexSize(Path partition) throws Exception {
        return Files.size(partition.resolve("00000000000000000000.index"));
    }

    @Test
    void repairApply_eachTopicWithItsStoredDurability_thenScanIsClean() throws Exception {
        NodeDir n = twoTopics();
        Cli.Result dry = Cli.run("repair", "--json", n.root);
        assertEquals(ExitCode.CHANGES, dry.exit(), dry.toString());
        JsonNode parts = new ObjectMapper().readTree(dry.out()).get("partitions");
        assertEquals("persisted", parts.get(0).get("durability").asText());
        assertEquals("snapshot", parts.get(0).get("durability_source").asText());
        assertEquals("replicated", parts.get(1).get("durability").asText());

        Cli.Result applied = Cli.run("repair", "--apply", "--yes", n.root);
        assertEquals(ExitCode.CLEAN, applied.exit(), applied.toString());
        assertTrue(applied.out().contains("durability=persisted (from metadata/snapshot.bin)"), applied.out());
        assertTrue(applied.out().contains("durability=replicated (from metadata/snapshot.bin)"), applied.out());
        assertTrue(!applied.err().contains("no metadata/ says"), applied.err());
        // RECOVERY 4.3: the durable boot keeps the three fsynced entries; the lenient one rebuilds one entry
        assertEquals(72, indexSize(n.partitionDir(0, 0, 0)));
        assertEquals(24, indexSize(n.partitionDir(0, 1, 0)));
        Cli.Result after = Cli.run("scan", n.root);
        assertEquals(ExitCode.CLEAN, after.exit(), after.toString());
    }

    @Test
    void contradictingCommandLine_nothingChanges_exitUsage() throws Exception {
        NodeDir n = twoTopics();
        Path p = n.partitionDir(0, 0, 0);
        long log = Files.size(p.resolve("00000000000000000000.log"));
        Cli.Result r = Cli.run("repair", "--apply", "--yes", "--durability=replicated", p);
        assertEquals(ExitCode.USAGE, r.exit(), r.toString());
        assertTrue(r.err().contains("not repaired:"), r.err());
        assertEquals(log, Files.size(p.resolve("00000000000000000000.log")));
        Cli.Result ri = Cli.run("rebuild-index", "--apply", "--yes", "--durability=replicated", p);
        assertEquals(ExitCode.USAGE, ri.exit(), ri.toString());
        assertEquals(72, indexSize(p));
    }

    @Test
    void legacyEnforceFsyncTrue_isTheServersRefusal_notRepaired() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(3, 1, List.of(NodeDir.topic(0, "old", Opt.pre4092(true, true), 1))).file());
        NodeDir.appendZeros(n.partition(0, 0, 0, 1), 100);
        Path p = n.partitionDir(0, 0, 0);
        long log = Files.size(p.resolve("00000000000000000000.log"));
        Cli.Result r = Cli.run("repair", "--apply", "--yes", p);
        assertEquals(ExitCode.REFUSED, r.exit(), r.toString());
        assertTrue(r.err().contains("enforce_fsync = true"), r.err());
        assertEquals(log, Files.size(p.resolve("00000000000000000000.log")));
    }

    @Test
    void noMetadata_fallsBackToTheCommandLineDefault_andSaysSo() throws Exception {
        NodeDir n = twoTopics();
        try (var files = Files.walk(n.root.resolve("metadata"))) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        Cli.Result r = Cli.run("repair", n.partitionDir(0, 0, 0));
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        // the mode and the warning come before the plan (issue 14.3)
        int warning = r.out().indexOf("WARNING: no metadata/ says this topic's durability");
        assertTrue(warning > 0 && warning < r.out().indexOf("would change files"), r.toString());
        Cli.Result given = Cli.run("repair", "--durability=persisted", n.partitionDir(0, 0, 0));
        assertTrue(!given.err().contains("no metadata/ says"), given.err());
        assertTrue(given.out().contains("durability=persisted"), given.out());
    }
}
