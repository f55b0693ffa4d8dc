package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * scan and explain on the gallery's V6 shape in durable mode: the verdict is accepted and clean, and the flipped
 * batch below the last index entry is reported as latent damage, with exit 5; --no-latent gives the plain verdict.
 */
class LatentDamageScanTest {
    private static final String SHAPE = Path.of("..", "samples", "gallery", "interior-damage-below-last-entry")
            .toString();

    @Test
    void scan_marksTheSummary_namesBytesOffsetsAndCheck_exit5() {
        Cli.Result r = Cli.run("scan", SHAPE, "--durability=persisted");
        assertEquals(ExitCodes.LATENT, r.exit(), r::toString);
        assertTrue(r.out().contains("s1/t1/p1: accepted: 1 clean"), r.out());
        assertTrue(r.out().contains("latent damage: 1 stretch(es) in 1 segment(s)"), r.out());
        assertTrue(r.out().contains("segment 0: bytes [315, 782), offsets 1..3: message 0 checksum mismatch at 571"),
                r.out());
        Cli.Result plain = Cli.run("scan", SHAPE, "--durability=persisted", "--no-latent");
        assertEquals(ExitCodes.CLEAN, plain.exit(), plain::toString);
        assertTrue(!plain.out().contains("latent"), plain.out());
        assertEquals(ExitCodes.REFUSED, Cli.run("scan", SHAPE, "--durability=replicated").exit());
    }

    @Test
    void scanJson_latentDamagePerSegment_andInTheSummary() throws Exception {
        Cli.Result r = Cli.run("scan", SHAPE, "--durability=persisted", "--json");
        assertEquals(ExitCodes.LATENT, r.exit(), r::toString);
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("segtool.scan/4", j.get("schema").asText());
        JsonNode seg = j.get("partitions").get(0).get("segments").get(0);
        assertEquals("clean", seg.get("status").asText());
        JsonNode l = seg.get("latent_damage");
        assertEquals(782, l.get("checked_bytes").asLong());
        JsonNode f = l.get("findings").get(0);
        assertEquals(315, f.get("from").asLong());
        assertEquals(782, f.get("to").asLong());
        assertEquals(1, f.get("first_offset").asLong());
        assertEquals(3, f.get("last_offset").asLong());
        assertEquals("verify_failed", f.get("stop").asText());
        assertEquals(1, j.get("summary").get("latent_damage").asInt());
        assertTrue(j.get("summary").get("latent_checked").asBoolean());
        assertEquals(5, j.get("exit_code").asInt());
        JsonNode off = new ObjectMapper().readTree(Cli.run("scan", SHAPE, "--durability=persisted", "--json",
                "--no-latent").out());
        assertTrue(off.get("partitions").get(0).get("segments").get(0).get("latent_damage").isNull());
        assertTrue(!off.get("summary").get("latent_checked").asBoolean());
    }

    @Test
    void explain_saysTheServerBoots_andWhereReadersFail() {
        Cli.Result r = Cli.run("explain", SHAPE, "--durability=persisted");
        assertEquals(ExitCodes.LATENT, r.exit(), r::toString);
        String text = r.out().replaceAll("\\s+", " ");
        assertTrue(text.contains("the server will boot this partition"), r.out());
        assertTrue(text.contains("Readers will fail here"), r.out());
        assertTrue(text.contains("segment 0: bytes [315, 782), offsets 1..3"), r.out());
    }
}
