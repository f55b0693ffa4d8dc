package segtool.analyzers.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.report.ScanJson;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/** Manifests round-trip, and {@code plan} over manifests is {@code compare} over the directories. */
class ManifestTest {
    @TempDir
    Path root;

    private List<ReplicaComparison.Replica> throughManifests(List<ReplicaComparison.Replica> replicas, String ext)
            throws Exception {
        List<ReplicaComparison.Replica> out = new ArrayList<>();
        for (ReplicaComparison.Replica r : replicas) {
            Path file = root.resolve(r.name() + ext);
            try (ManifestJson.Writer w = new ManifestJson.Writer(file, r.name(), "/data/" + r.name(),
                    "2026-12-01T12:00:00Z", "test", null)) {
                for (PartitionManifest m : r.partitions()) {
                    w.write(m);
                }
                w.finish();
            }
            ManifestJson.NodeManifest n = ManifestJson.read(file);
            assertEquals(r.name(), n.node());
            assertEquals("/data/" + r.name(), n.root());
            assertEquals(r.partitions(), n.partitions(), "round trip of " + file);
            out.add(new ReplicaComparison.Replica(n.node(), n.partitions()));
        }
        return out;
    }

    @Test
    void roundTrip_andPlanEqualsCompare_underEveryDamage() throws Exception {
        List<PartitionWriter.SegmentLayout> layout = Replicas.make(root, "a", 1);
        Replicas.make(root, "b", 9);
        Replicas.make(root, "c", 1024);
        Path b = Replicas.partition(root, "b");
        Path c = Replicas.partition(root, "c");
        PartitionWriter.SegmentLayout last = layout.get(layout.size() - 1);
        Damage.truncate(b.resolve(last.log().getFileName()), last.batch(last.batches().size() - 1).position() + 7);
        Damage.flipByte(c.resolve(layout.get(1).log().getFileName()), layout.get(1).batch(1).position() + 260);
        Files.delete(c.resolve(layout.get(2).log().getFileName()));
        List<ReplicaComparison.Replica> direct = Replicas.collect(root, false, "a", "b", "c");
        ReplicaComparison.Result compared = ReplicaComparison.compare(direct);
        assertEquals(1, compared.exitCode());
        for (String ext : new String[]{".ndjson", ".ndjson.gz"}) {
            ReplicaComparison.Result planned = ReplicaComparison.compare(throughManifests(direct, ext));
            assertEquals(compared, planned, ext);
            assertEquals(ScanJson.mapper().writeValueAsString(ReplicaJson.report(ReplicaJson.PLAN_SCHEMA, "t",
                    compared, null)), ScanJson.mapper().writeValueAsString(ReplicaJson.report(
                    ReplicaJson.PLAN_SCHEMA, "t", planned, null)));
        }
        long logs = 0;
        for (PartitionWriter.SegmentLayout s : layout) {
            logs += s.length();
        }
        assertTrue(Files.size(root.resolve("a.ndjson.gz")) < Files.size(root.resolve("a.ndjson")));
        assertTrue(Files.size(root.resolve("a.ndjson")) < logs / 4, "no payloads: " + Files.size(root.resolve(
                "a.ndjson")) + " of " + logs);
    }

    @Test
    void aManifestCutShort_orOfAnotherSchema_isRefusedWithTheLine() throws Exception {
        Replicas.make(root, "a", 1);
        List<ReplicaComparison.Replica> direct = Replicas.collect(root, false, "a");
        throughManifests(direct, ".ndjson");
        Path file = root.resolve("a.ndjson");
        List<String> lines = Files.readAllLines(file);
        assertEquals(3, lines.size());
        Path cut = root.resolve("cut.ndjson");
        Files.write(cut, lines.subList(0, 2));
        ManifestJson.BadManifest e = assertThrows(ManifestJson.BadManifest.class, () -> ManifestJson.read(cut));
        assertEquals(cut + ": line 3: cut short: no trailer line after 1 partitions", e.getMessage());
        Path other = root.resolve("other.ndjson");
        Files.writeString(other, lines.get(0).replace("segtool.manifest/1", "segtool.manifest/9") + "\n");
        e = assertThrows(ManifestJson.BadManifest.class, () -> ManifestJson.read(other));
        assertTrue(e.getMessage().startsWith(other + ": line 1: schema is 'segtool.manifest/9', not segtool"
                + ".manifest/1"), e.getMessage());
        Path garbage = root.resolve("garbage.ndjson");
        Files.writeString(garbage, lines.get(0) + "\n{\"node\": [}\n");
        e = assertThrows(ManifestJson.BadManifest.class, () -> ManifestJson.read(garbage));
        assertTrue(e.getMessage().startsWith(garbage + ": line 2: not JSON"), e.getMessage());
    }
}
