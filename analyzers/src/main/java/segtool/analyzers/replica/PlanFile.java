package segtool.analyzers.replica;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code apply} reads from a {@code segtool.plan/2} (or {@code /1}) file: per partition, the donor and, for every node, its
 * partition directory, action and transfers with the lengths and digests recorded when the manifests were
 * collected.
 */
public record PlanFile(Path file, List<Entry> entries) {
    /** One node's share of one partition of the plan. */
    public record Entry(PartitionKey key, String donor, String donorPath, String node, String path, String action,
                        List<ReplicaComparison.SegmentDigest> segments, List<ReplicaComparison.Transfer> transfers) {
    }

    /** Reads a plan; anything else is refused with one line naming the file. */
    public static PlanFile read(Path file) throws IOException {
        JsonNode root;
        ManifestJson.requireFile(file);
        try (java.io.InputStream in = Files.newInputStream(file)) {
            root = new ObjectMapper().readTree(in);
        } catch (JsonProcessingException e) {
            throw new ManifestJson.BadManifest(file + ": line " + e.getLocation().getLineNr() + ": not JSON: "
                    + e.getOriginalMessage());
        }
        String schema = root == null ? null : root.path("schema").asText(null);
        if (!ReplicaJson.PLAN_SCHEMA.equals(schema) && !ReplicaJson.PLAN_SCHEMA_1.equals(schema)) {
            throw new ManifestJson.BadManifest(file + ": not a " + ReplicaJson.PLAN_SCHEMA + " plan (schema "
                    + (root == null ? "missing" : root.path("schema").asText("missing")) + ")");
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode p : root.path("partitions")) {
            PartitionKey key = new PartitionKey(id(p, "stream"), id(p, "topic"), id(p, "partition"),
                    nullable(p, "created_revision"), nullable(p, "purge_generation"));
            String donor = p.path("donor").asText(null);
            String donorPath = null;
            for (JsonNode r : p.path("replicas")) {
                if (r.path("replica").asText("").equals(donor)) {
                    donorPath = r.path("path").asText(null);
                }
            }
            for (JsonNode r : p.path("replicas")) {
                List<ReplicaComparison.Transfer> ts = new ArrayList<>();
                for (JsonNode t : r.path("transfers")) {
                    ts.add(new ReplicaComparison.Transfer(u64(file, t, "segment"), u64(file, t, "from"),
                            u64(file, t, "to"), t.path("reason").asText(""), t.path("local_present").asBoolean(),
                            u64(file, t, "local_length"), hex(file, t, "local_xxh3"), u64(file, t, "donor_length"),
                            hex(file, t, "donor_xxh3"), u64(file, t, "donor_index_length")));
                }
                List<ReplicaComparison.SegmentDigest> segs = new ArrayList<>();
                for (JsonNode s : r.path("segments")) {
                    segs.add(new ReplicaComparison.SegmentDigest(u64(file, s, "start_offset"),
                            u64(file, s, "log_length"), hex(file, s, "log_xxh3"), s.path("sealed").asBoolean()));
                }
                out.add(new Entry(key, donor, donorPath, r.path("replica").asText(null), r.path("path").asText(null),
                        r.path("action").asText("none"), List.copyOf(segs), List.copyOf(ts)));
            }
        }
        return new PlanFile(file, List.copyOf(out));
    }

    /** The entries of {@code node}. */
    public List<Entry> of(String node) {
        return entries.stream().filter(e -> node.equals(e.node())).toList();
    }

    private static long id(JsonNode p, String name) {
        JsonNode v = p.path(name);
        return v.isNull() || v.isMissingNode() ? -1 : Long.parseUnsignedLong(v.asText());
    }

    private static Long nullable(JsonNode p, String name) {
        JsonNode v = p.path(name);
        return v.isNull() || v.isMissingNode() ? null : Long.parseUnsignedLong(v.asText());
    }

    private static long u64(Path file, JsonNode o, String name) throws IOException {
        JsonNode v = o.path(name);
        if (!v.isIntegralNumber()) {
            throw new ManifestJson.BadManifest(file + ": " + name + " is not an unsigned integer");
        }
        return Long.parseUnsignedLong(v.asText());
    }

    private static long hex(Path file, JsonNode o, String name) throws IOException {
        String s = o.path(name).asText("");
        try {
            return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
        } catch (NumberFormatException e) {
            throw new ManifestJson.BadManifest(file + ": " + name + " '" + s + "' is not hex");
        }
    }
}
