package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
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
        assertEquals("segtool.doctor/1", j.get("schema").asText());
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
}
