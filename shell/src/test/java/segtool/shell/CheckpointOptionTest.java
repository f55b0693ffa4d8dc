package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.samples.SampleGenerator;

/** {@code --wal-checkpoint START:LENGTH:NEXT} judges as a checkpointed boot (RECOVERY 9). */
class CheckpointOptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    @Test
    void checkpoint_rebuildsThePrefix_orRefusesWhenItEndsInsideARecord() throws Exception {
        SampleGenerator.generate(root, Set.of("torn-tail"));
        Path p = root.resolve("torn-tail");
        Cli.Result ok = Cli.run("scan", "--json", "--wal-checkpoint", "0:782:4", p);
        assertEquals(ExitCodes.CHANGES, ok.exit(), ok.err());
        JsonNode seg = JSON.readTree(ok.out()).get("partitions").get(0).get("segments").get(0);
        assertEquals("index_rebuilt", seg.get("status").asText());
        assertEquals(782, seg.get("after").get("size").asLong());
        assertTrue(seg.get("operations").toString().contains("install_index"));
        assertTrue(!seg.get("operations").toString().contains("truncate_log"), "the checkpointed log is never cut");

        Cli.Result refused = Cli.run("scan", "--json", "--wal-checkpoint", "0:900:4", p);
        assertEquals(ExitCodes.REFUSED, refused.exit());
        JsonNode r = JSON.readTree(refused.out()).get("partitions").get(0).get("refusal");
        assertEquals("CheckpointSizeMismatch", r.get("variant").asText());
        assertEquals(782, r.get("fields").get("validated_bytes").asLong());

        Cli.Result bad = Cli.run("scan", "--wal-checkpoint", "0:x", p);
        assertEquals(ExitCodes.USAGE, bad.exit());
    }
}
