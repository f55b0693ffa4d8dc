package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/** {@code compare} black-box: three replicas written with different flush timing, one damaged. */
class CompareCommandTest {
    @TempDir
    Path root;

    private List<PartitionWriter.SegmentLayout> replica(String name, int flushEvery) {
        return PartitionWriter.fill(root.resolve(name).resolve("streams/1/topics/1/partitions/1"),
                PartitionWriter.Config.of(1).segmentSize(4096).messagesRequiredToSave(flushEvery), 300, 3, 40, 7);
    }

    @Test
    void agree_thenDamaged_namesTheDonorAndTheRange() throws Exception {
        List<PartitionWriter.SegmentLayout> layout = replica("a", 1);
        replica("b", 5);
        replica("c", 1000);
        Cli.Result same = Cli.run("compare", root.resolve("a"), root.resolve("b"), root.resolve("c"));
        assertEquals(0, same.exit(), same.toString());
        assertTrue(same.out().contains("1 partitions on 3 replicas: 1 agree"), same.out());

        PartitionWriter.SegmentLayout seg = layout.get(1);
        PartitionWriter.BatchInfo hit = seg.batch(3);
        Damage.flipByte(root.resolve("b/streams/1/topics/1/partitions/1").resolve(seg.log().getFileName()),
                hit.position() + 290);
        Cli.Result text = Cli.run("compare", root.resolve("a"), root.resolve("b"), root.resolve("c"));
        assertEquals(1, text.exit(), text.toString());
        String b = root.resolve("b").toString();
        assertTrue(text.out().contains("first divergence: " + b + ", segment " + seg.startOffset() + " byte "
                + hit.position() + " offset " + hit.baseOffset() + ": record checksum: donor verifies, replica does "
                + "not verify"), text.out());
        assertTrue(text.out().contains(b + " takes segment " + seg.startOffset() + " bytes [" + hit.position() + ", "
                + seg.length() + ") from " + root.resolve("a")), text.out());

        Cli.Result json = Cli.run("compare", "--json", root.resolve("a"), root.resolve("b"), root.resolve("c"));
        assertEquals(1, json.exit());
        JsonNode j = new ObjectMapper().readTree(json.out());
        assertEquals("segtool.compare/2", j.get("schema").asText());
        JsonNode p = j.get("partitions").get(0);
        assertEquals(root.resolve("a").toString(), p.get("donor").asText());
        assertEquals(hit.position(), p.get("first_divergence").get("position").asLong());
        JsonNode t = p.get("replicas").get(1).get("transfers").get(0);
        assertEquals(List.of(seg.startOffset(), hit.position(), seg.length()),
                List.of(t.get("segment").asLong(), t.get("from").asLong(), t.get("to").asLong()));
    }

    @Test
    void onePath_isAUsageError() {
        Cli.Result r = Cli.run("compare", root);
        assertEquals(64, r.exit(), r.toString());
    }
}
