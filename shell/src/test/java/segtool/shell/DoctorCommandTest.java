package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code doctor} on the command line: text, JSON and the exit codes. */
class DoctorCommandTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    @Test
    void healthy_nothingNeedsAttention_exit0() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("healthy"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("1 partition(s) examined: nothing needs attention"), r.out());
    }

    @Test
    void refused_json_exit2() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("hole"), "--json");
        assertEquals(2, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("segtool.doctor/2", j.get("schema").asText());
        assertEquals("refused_partition", j.at("/findings/0/kind").asText());
        assertEquals("Hole", j.at("/findings/0/details/variant").asText());
        assertEquals("1..3", j.at("/findings/0/details/lost_offsets/0").asText());
        assertEquals(2, j.get("exit_code").asInt());
    }

    @Test
    void scratchFile_exit1_namesTheRepair() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("non-canonical-names"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("scratch file 00000000000000000000.index.staging"), r.out());
        assertTrue(r.out().contains("next: segtool repair "), r.out());
    }

    /**
     * Doctor judges each partition with the inputs scan reads (its topic's durability from metadata/, its WAL
     * checkpoint, the directory as the WAL's open leaves it), so for every gallery shape it exits as scan does.
     * Before, it judged every partition lenient with no checkpoint: it said "nothing needs attention" where the
     * server refuses to start (a legacy enforce_fsync) or rebuilds the checkpointed index, and REFUSED where the
     * WAL's open first replaces the log and recovery then accepts it.
     */
    @Test
    void everyGalleryShape_exitsAsScanDoes() throws IOException {
        List<Path> shapes;
        try (Stream<Path> s = Files.list(GALLERY)) {
            shapes = s.filter(Files::isDirectory).sorted().toList();
        }
        assertTrue(shapes.size() >= 20, shapes.toString());
        for (Path shape : shapes) {
            Cli.Result doctor = Cli.run("doctor", "-q", shape);
            Cli.Result scan = Cli.run("scan", "-q", shape);
            assertEquals(scan.exit(), doctor.exit(), shape + "\n" + doctor + "\n" + scan);
        }
    }

    @Test
    void walOpen_judgedOnTheDirectoryTheOpenLeaves() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("wal-open"), "--json");
        assertEquals(1, r.exit(), r.toString());
        JsonNode f = new ObjectMapper().readTree(r.out()).at("/findings/0");
        assertEquals("recovery_would_change", f.get("kind").asText());
        assertEquals("stage_index 00000000000000000000.index.staging", f.at("/details/operations/0").asText());
        assertEquals("install_index 00000000000000000000.index", f.at("/details/operations/1").asText());
        assertTrue(f.at("/details/wal_open/0").asText().startsWith("truncate prepares-1/segment-0-0.log from 1245 to "
                + "1145 bytes"), f.toString());
        assertEquals("persisted", f.at("/details/durability").asText());
        assertEquals("metadata/snapshot.bin", f.at("/details/durability_from").asText());
        assertEquals("0:1145:5", f.at("/details/checkpoint").asText());
        assertEquals("prepares-1/frontier slot 0, sequence 2", f.at("/details/checkpoint_from").asText());
    }

    @Test
    void walCheckpoint_theCheckpointedIndexIsRebuilt_exit1() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("wal-checkpoint"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("the next boot would change files: stage_index 00000000000000000000.index.staging,"
                + " install_index 00000000000000000000.index"), r.out());
        assertTrue(r.out().contains("checkpoint: 0:1145:5"), r.out());
    }

    @Test
    void legacyEnforceFsync_noVerdict_theServerRefusesToStart_exit2() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("metadata-legacy-enforce-fsync"), "--json");
        assertEquals(2, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(1, j.at("/counts/no_verdict").asInt());
        assertEquals("no_verdict", j.at("/findings/0/kind").asText());
        assertEquals("server_refuses_node", j.at("/findings/0/details/refusal").asText());
        assertTrue(j.at("/findings/0/details/reason").asText().contains("UnsupportedOptionKey(\"enforce_fsync\")"),
                j.toString());
        assertEquals(2, j.get("exit_code").asInt());
        assertTrue(j.get("durability").isNull(), j.toString());
    }

    @Test
    void durabilityContradictingTheMetadata_noVerdictForThatTopic_exit64_theOtherJudged() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("metadata-durability"), "--durability=replicated");
        assertEquals(64, r.exit(), r.toString());
        assertTrue(r.out().contains("no verdict: --durability=replicated contradicts the topic's stored durability"),
                r.out());
        assertTrue(r.out().contains("durability: replicated"), r.out());
    }

    @Test
    void commandLineDurability_isRepeatedOnTheNextCommands() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("torn-tail"), "--durability=persisted", "--json");
        assertEquals(1, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("persisted", j.get("durability").asText());
        assertTrue(j.get("enforce_fsync").asBoolean());
        for (JsonNode next : j.at("/findings/0/next")) {
            assertTrue(next.asText().contains(" --durability=persisted"), next.toString());
        }
        assertEquals("persisted", j.at("/findings/0/details/durability").asText());
        assertFalse(j.at("/findings/0/details/durability_from").asText().contains("metadata"), j.toString());
    }
}
