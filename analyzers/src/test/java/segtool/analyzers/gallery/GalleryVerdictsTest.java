package segtool.analyzers.gallery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.report.ScanJson;
import segtool.formats.naming.PartitionPath;

/**
 * The checked-in gallery (samples/gallery): every shape's hand-written expected.json, worked out from the spec
 * without the engine, must equal the engine's verdict in both modes: outcome, refusal with every field, and each
 * segment's status and bounds.
 */
class GalleryVerdictsTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<String> shapes() throws IOException {
        try (Stream<Path> dirs = Files.list(GALLERY)) {
            return dirs.filter(d -> Files.exists(d.resolve("expected.json")))
                    .map(d -> d.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void shape_matchesHandWrittenVerdict(String shape) throws IOException {
        JsonNode expected = JSON.readTree(GALLERY.resolve(shape).resolve("expected.json").toFile());
        List<JsonNode> partitions = new ArrayList<>();
        if (expected.has("partitions")) {
            expected.get("partitions").forEach(partitions::add);
        } else {
            partitions.add(expected);
        }
        assertTrue(!partitions.isEmpty());
        for (JsonNode p : partitions) {
            Path dir = GALLERY.resolve(shape).resolve(p.get("partition").asText());
            for (String mode : new String[]{"lenient", "durable"}) {
                PartitionReport r = new RecoveryEngine().judge(PartitionPath.of(dir), mode.equals("durable"));
                String where = shape + " " + p.get("partition").asText() + " " + mode;
                assertEquals(p.get(mode), JSON.readTree(JSON.writeValueAsString(actual(r))), where);
                List<String> swept = new ArrayList<>();
                r.swept().forEach(d -> swept.add(d.path().getFileName().toString()));
                swept.sort(null);
                List<String> want = new ArrayList<>();
                p.get("deleted_by_sweep").forEach(n -> want.add(n.asText()));
                want.sort(null);
                assertEquals(want, swept, where);
            }
        }
    }

    /** The engine's verdict in the gallery's shape. */
    private static JsonNode actual(PartitionReport r) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("outcome", r.outcome().json());
        if (r.refusal() == null) {
            o.putNull("refusal");
        } else {
            o.set("refusal", ScanJson.refusal(r.refusal()));
        }
        var segs = o.putArray("segments");
        for (SegmentReport s : r.segments()) {
            ObjectNode x = segs.addObject();
            x.put("start_offset", s.start());
            x.put("status", s.status().json());
            boolean bounded = s.status() != SegmentReport.Status.REFUSED
                    && s.status() != SegmentReport.Status.NOT_EXAMINED;
            if (bounded) {
                x.put("end_offset", s.endOffset());
                x.put("size", s.size());
                x.put("index_size", s.indexSize());
            } else {
                x.putNull("end_offset");
                x.putNull("size");
                x.putNull("index_size");
            }
        }
        return o;
    }
}
