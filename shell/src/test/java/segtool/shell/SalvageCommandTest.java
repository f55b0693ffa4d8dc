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

/** {@code salvage} on the command line: the summary, the exit codes, and OUT refused when it is not new. */
class SalvageCommandTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    @TempDir
    Path tmp;

    @Test
    void interiorDamage_namesWhatIsLost_exit1() throws Exception {
        Path p = GALLERY.resolve("interior-damage/streams/1/topics/1/partitions/1");
        Cli.Result r = Cli.run("salvage", p, "-o", tmp.resolve("a"), "--format", "ndjson");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("in the archive: offsets 0, 4"), r.out());
        assertTrue(r.out().contains("lost:           offsets 1..3"), r.out());
        assertTrue(r.out().contains("damaged bytes:  00000000000000000000.log [315, 782) 467 B"), r.out());
        assertEquals(2, Files.readAllLines(tmp.resolve("a/messages.ndjson")).size());
    }

    @Test
    void healthy_exit0_json() throws Exception {
        Path p = GALLERY.resolve("healthy/streams/1/topics/1/partitions/1");
        Cli.Result r = Cli.run("salvage", p, "-o", tmp.resolve("h"), "--json");
        assertEquals(0, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("segtool.salvage/1", j.get("schema").asText());
        assertTrue(j.get("complete").asBoolean());
        assertEquals(3, j.get("batches").asInt());
        assertEquals(0, j.at("/archived_offsets/0/first").asInt());
        assertEquals(4, j.at("/archived_offsets/0/last").asInt());
    }

    @Test
    void existingOut_isAUsageError_andNothingChanges() throws Exception {
        Path p = GALLERY.resolve("healthy/streams/1/topics/1/partitions/1");
        Path out = Files.createDirectory(tmp.resolve("there"));
        Cli.Result r = Cli.run("salvage", p, "-o", out);
        assertEquals(64, r.exit(), r.toString());
        assertTrue(r.err().contains("already exists"), r.err());
        try (var s = Files.list(out)) {
            assertFalse(s.findAny().isPresent());
        }
        Cli.Result data = Cli.run("salvage", GALLERY.resolve("data-dir"), "-o", tmp.resolve("d"));
        assertEquals(64, data.exit(), data.toString());
        assertFalse(Files.exists(tmp.resolve("d")));
    }
}
