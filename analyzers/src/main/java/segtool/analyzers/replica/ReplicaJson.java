package segtool.analyzers.replica;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;

/**
 * The {@code segtool.compare/2} report and the {@code segtool.plan/2} plan (docs/compare-json.md): one tree for
 * both, the plan adding the manifests it was made from. Keys in a fixed order, snake_case, the exit code last (in
 * {@code /1} it came after {@code replicas}); every u64 an unsigned JSON integer; digests {@code 0x}-hex strings.
 */
public final class ReplicaJson {
    public static final String COMPARE_SCHEMA = "segtool.compare/2";
    public static final String PLAN_SCHEMA = "segtool.plan/2";
    /** The plan schema before the exit code moved to the end; {@code apply} still reads it (nothing else differs). */
    public static final String PLAN_SCHEMA_1 = "segtool.plan/1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ReplicaJson() {
    }

    /** The report of {@code compare} ({@code sources} null) or the plan of {@code plan} (the manifests read). */
    public static ObjectNode report(String schema, String version, ReplicaComparison.Result result,
                                    List<String> sources) {
        ObjectNode root = F.objectNode();
        root.put("schema", schema);
        root.put("segtool_version", version);
        ArrayNode names = root.putArray("replicas");
        result.replicas().forEach(names::add);
        if (sources != null) {
            ArrayNode s = root.putArray("manifests");
            sources.forEach(s::add);
        }
        strings(root.putArray("warnings"), result.warnings());
        ArrayNode parts = root.putArray("partitions");
        for (ReplicaComparison.PartitionResult p : result.partitions()) {
            parts.add(partition(p));
        }
        root.put("exit_code", result.exitCode());
        return root;
    }

    private static ObjectNode partition(ReplicaComparison.PartitionResult p) {
        ObjectNode o = F.objectNode();
        key(o, p.key());
        o.put("joined_by", p.joinedBy());
        o.put("exit_code", p.exitCode());
        o.put("agree", p.agree());
        o.put("donor", p.donor());
        if (p.firstDivergence() == null) {
            o.putNull("first_divergence");
        } else {
            ObjectNode d = divergence(p.firstDivergence());
            d.put("replica", p.firstDivergent());
            o.set("first_divergence", d);
        }
        ArrayNode prefixes = o.putArray("prefixes");
        for (ReplicaComparison.Prefix x : p.prefixes()) {
            prefixes.addObject().put("replica", x.replica()).put("of", x.of());
        }
        ArrayNode uncovered = o.putArray("uncovered");
        for (ReplicaComparison.Range r : p.uncovered()) {
            ObjectNode u = uncovered.addObject();
            u64(u, "first_offset", r.first());
            u64(u, "last_offset", r.last());
        }
        strings(o.putArray("warnings"), p.warnings());
        ArrayNode rs = o.putArray("replicas");
        for (ReplicaComparison.ReplicaResult r : p.replicas()) {
            rs.add(replica(r));
        }
        return o;
    }

    static void key(ObjectNode o, PartitionKey k) {
        id(o, "stream", k.stream());
        id(o, "topic", k.topic());
        id(o, "partition", k.partition());
        if (k.createdRevision() == null) {
            o.putNull("created_revision");
        } else {
            u64(o, "created_revision", k.createdRevision());
        }
        if (k.purgeGeneration() == null) {
            o.putNull("purge_generation");
        } else {
            u64(o, "purge_generation", k.purgeGeneration());
        }
    }

    private static void id(ObjectNode o, String name, long v) {
        if (v == -1) {
            o.putNull(name);
        } else {
            u64(o, name, v);
        }
    }

    private static ObjectNode replica(ReplicaComparison.ReplicaResult r) {
        ObjectNode o = F.objectNode();
        o.put("replica", r.replica());
        o.put("path", r.path());
        o.put("present", r.present());
        o.put("action", r.action());
        if (r.verdict() == null) {
            o.putNull("verdict");
        } else {
            o.set("verdict", verdict(r.verdict()));
        }
        if (r.divergence() == null) {
            o.putNull("divergence");
        } else {
            o.set("divergence", divergence(r.divergence()));
        }
        ArrayNode segs = o.putArray("segments");
        for (ReplicaComparison.SegmentDigest s : r.segments()) {
            ObjectNode x = segs.addObject();
            u64(x, "start_offset", s.start());
            u64(x, "log_length", s.length());
            x.put("log_xxh3", hex(s.xxh3()));
            x.put("sealed", s.sealed());
        }
        ArrayNode ts = o.putArray("transfers");
        for (ReplicaComparison.Transfer t : r.transfers()) {
            ObjectNode x = ts.addObject();
            u64(x, "segment", t.segment());
            u64(x, "from", t.from());
            u64(x, "to", t.to());
            x.put("reason", t.reason());
            x.put("local_present", t.localPresent());
            u64(x, "local_length", t.localLength());
            x.put("local_xxh3", hex(t.localXxh3()));
            u64(x, "donor_length", t.donorLength());
            x.put("donor_xxh3", hex(t.donorXxh3()));
            u64(x, "donor_index_length", t.donorIndexLength());
        }
        return o;
    }

    static ObjectNode verdict(PartitionManifest.Verdict v) {
        ObjectNode o = F.objectNode();
        o.put("outcome", v.outcome());
        o.put("exit_code", v.exitCode());
        o.put("refusal", v.refusal());
        o.put("refusal_variant", v.refusalVariant());
        if (v.refusalSegment() == null) {
            o.putNull("refusal_segment");
        } else {
            u64(o, "refusal_segment", v.refusalSegment());
        }
        o.put("io_error", v.ioError());
        ObjectNode c = o.putObject("chain");
        PartitionManifest.Chain ch = v.chain();
        u64(c, "first_offset", ch.firstOffset());
        u64(c, "last_offset", ch.lastOffset());
        u64(c, "offsets", ch.offsets());
        u64(c, "bytes", ch.bytes());
        ArrayNode parts = c.putArray("segments");
        for (PartitionManifest.ChainPart p : ch.parts()) {
            ObjectNode x = parts.addObject();
            u64(x, "start_offset", p.start());
            u64(x, "end_offset", p.endOffset());
            u64(x, "offsets", p.offsets());
            u64(x, "bytes", p.bytes());
        }
        return o;
    }

    private static ObjectNode divergence(ReplicaComparison.Divergence d) {
        ObjectNode o = F.objectNode();
        u64(o, "segment", d.segment());
        u64(o, "position", d.position());
        u64(o, "offset", d.offset());
        o.put("field", d.field());
        o.put("donor_value", d.donor());
        o.put("replica_value", d.replica());
        return o;
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }

    static void u64(ObjectNode o, String name, long v) {
        if (v >= 0) {
            o.put(name, v);
        } else {
            o.put(name, new BigInteger(Long.toUnsignedString(v)));
        }
    }

    static String hex(long v) {
        return segtool.formats.io.Hex.u64(v);
    }
}
