package segtool.analyzers.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.inputs.WalInputs;
import segtool.analyzers.inputs.WalOpenStep;
import segtool.analyzers.recovery.AnchorSearch;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.ProbeResult;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.recovery.Region;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.recovery.Walk;
import segtool.formats.index.IndexEntry;

/**
 * The {@code segtool.scan/4} JSON report (documented in {@code docs/scan-json.md}). Keys come out in a fixed order;
 * every u64 is a JSON integer, written as an unsigned value (never negative). The exit code is the last top-level
 * key, as in every segtool document ({@code docs/json.md}); {@code summary.exit_code} repeats it, deprecated.
 */
public final class ScanJson {
    public static final String SCHEMA = "segtool.scan/4";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScanJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** The whole report for one PATH. */
    public static ObjectNode report(String path, String version, List<PartitionReport> reports, int exitCode) {
        return report(path, version, reports, null, exitCode);
    }

    /**
     * The whole report, each partition with the inputs it was judged with ({@code inputs} parallel to
     * {@code reports}; null: the inputs were the command line's for all).
     */
    public static ObjectNode report(String path, String version, List<PartitionReport> reports,
                                    List<PartitionInputs> inputs, int exitCode) {
        return report(path, version, reports, inputs, null, exitCode);
    }

    /**
     * The whole report, with each partition's latent-damage check ({@code latent}, parallel to {@code reports}, or
     * null when the check did not run; an entry is null for a partition it did not run on): each segment's
     * {@code latent_damage} and the summary's {@code latent_checked} and {@code latent_damage}.
     */
    public static ObjectNode report(String path, String version, List<PartitionReport> reports,
                                    List<PartitionInputs> inputs, List<LatentDamage.Report> latent, int exitCode) {
        ObjectNode root = F.objectNode();
        root.put("schema", SCHEMA);
        root.put("segtool_version", version);
        root.put("path", path);
        ArrayNode parts = root.putArray("partitions");
        int accepted = 0;
        int latentPartitions = 0;
        int refused = 0;
        int io = 0;
        for (int i = 0; i < reports.size(); i++) {
            PartitionReport r = reports.get(i);
            ObjectNode p = partition(r);
            if (inputs != null) {
                inputs(p, inputs.get(i));
            }
            LatentDamage.Report l = latent == null ? null : latent.get(i);
            ArrayNode segs = (ArrayNode) p.get("segments");
            for (int k = 0; k < r.segments().size(); k++) {
                LatentDamage.Segment ls = l == null ? null : l.segment(r.segments().get(k).start());
                ((ObjectNode) segs.get(k)).set("latent_damage", ls == null ? F.nullNode() : latent(ls));
            }
            if (l != null && l.damaged()) {
                latentPartitions++;
            }
            parts.add(p);
            switch (r.outcome()) {
                case ACCEPTED:
                    accepted++;
                    break;
                case REFUSED:
                    refused++;
                    break;
                default:
                    io++;
            }
        }
        ObjectNode summary = root.putObject("summary");
        summary.put("partitions", reports.size());
        summary.put("accepted", accepted);
        summary.put("refused", refused);
        summary.put("io_error", io);
        summary.put("latent_checked", latent != null);
        summary.put("latent_damage", latentPartitions);
        summary.put("exit_code", exitCode);
        root.put("exit_code", exitCode);
        return root;
    }

    /**
     * A segment's {@code latent_damage}: the bytes checked and every stretch readers will fail on, with its byte
     * range, offsets and the check that failed (RECOVERY 11.1); {@code io_error} when it could not be read.
     */
    public static ObjectNode latent(LatentDamage.Segment s) {
        ObjectNode o = F.objectNode();
        u64(o, "checked_bytes", s.checkedBytes());
        ArrayNode f = o.putArray("findings");
        for (LatentDamage.Finding x : s.findings()) {
            ObjectNode n = f.addObject();
            u64(n, "from", x.from());
            u64(n, "to", x.to());
            u64(n, "bytes", x.bytes());
            if (x.hasOffsets()) {
                u64(n, "first_offset", x.firstOffset());
                u64(n, "last_offset", x.lastOffset());
            } else {
                n.putNull("first_offset");
                n.putNull("last_offset");
            }
            n.put("stop", x.kind().name().toLowerCase());
            n.put("check", x.check());
        }
        o.put("io_error", s.ioError());
        return o;
    }

    /**
     * The inputs of one partition, inserted after its {@code partition_id}: {@code durability},
     * {@code durability_source}, {@code durability_from}, {@code durability_override}, {@code checkpoint},
     * {@code checkpoint_source}, {@code wal_open}, {@code wal_open_steps}, {@code judged_after_wal_open},
     * {@code input_notes}, {@code inputs_refusal}.
     */
    static void inputs(ObjectNode o, PartitionInputs in) {
        ObjectNode copy = o.deepCopy();
        o.removeAll();
        copy.fields().forEachRemaining(e -> {
            o.set(e.getKey(), e.getValue());
            if (!e.getKey().equals("partition_id")) {
                return;
            }
            if (in.judgeable()) {
                o.put("durability", in.durability().value());
                o.put("durability_source", in.durability().source().json());
                o.put("durability_from", in.durability().from());
                o.put("durability_override", in.durability().overridden());
                Checkpoint c = in.wal().checkpoint();
                if (c == null) {
                    o.putNull("checkpoint");
                } else {
                    ObjectNode cp = o.putObject("checkpoint");
                    u64(cp, "start_offset", c.startOffset());
                    u64(cp, "length", c.length());
                    u64(cp, "next_offset", c.nextOffset());
                }
                o.put("checkpoint_source", in.wal().source());
                ArrayNode open = o.putArray("wal_open");
                in.wal().openActions().forEach(open::add);
                walOpenSteps(o.putArray("wal_open_steps"), in.wal());
                o.put("judged_after_wal_open", in.wal().openChangesDirectory());
                o.putNull("inputs_refusal");
            } else {
                o.putNull("durability");
                o.putNull("durability_source");
                o.putNull("durability_from");
                o.put("durability_override", false);
                o.putNull("checkpoint");
                o.putNull("checkpoint_source");
                o.putArray("wal_open");
                o.putArray("wal_open_steps");
                o.put("judged_after_wal_open", false);
                ObjectNode refusal = o.putObject("inputs_refusal");
                refusal.put("kind", in.refusalJson());
                refusal.put("reason", in.refusalLine());
            }
            ArrayNode notes = o.putArray("input_notes");
            in.notes().forEach(notes::add);
        });
    }

    /**
     * The WAL open's steps (METADATA 6.7), in order: {@code {action, file, from, from_bytes, to_bytes, changes,
     * text}}; {@code file} and {@code from} are relative to the partition directory.
     */
    public static void walOpenSteps(ArrayNode out, WalInputs wal) {
        for (WalOpenStep s : wal.openSteps()) {
            ObjectNode n = out.addObject();
            n.put("action", s.action().json());
            n.put("file", s.file());
            n.put("from", s.from());
            if (s.fromBytes() == null) {
                n.putNull("from_bytes");
                n.putNull("to_bytes");
            } else {
                u64(n, "from_bytes", s.fromBytes());
                u64(n, "to_bytes", s.toBytes());
            }
            n.put("changes", s.changes());
            n.put("text", s.text());
        }
    }

    public static ObjectNode partition(PartitionReport r) {
        ObjectNode o = F.objectNode();
        o.put("path", r.partition().directory().toString());
        id(o, "stream_id", r.partition().hasStreamId(), r.partition().streamId());
        id(o, "topic_id", r.partition().hasTopicId(), r.partition().topicId());
        id(o, "partition_id", r.partition().hasPartitionId(), r.partition().partitionId());
        o.put("outcome", r.outcome().json());
        if (r.ioError() != null) {
            o.put("io_error", r.ioError());
        } else {
            o.putNull("io_error");
        }
        if (r.ioFailure() != null) {
            ObjectNode f = o.putObject("io_failure");
            f.put("path", r.ioFailure().path().toString());
            f.put("operation", r.ioFailure().operation());
            f.put("kind", r.ioFailure().kind());
            f.put("reason", r.ioFailure().reason());
        } else {
            o.putNull("io_failure");
        }
        if (r.refusal() == null) {
            o.putNull("refusal");
        } else {
            o.set("refusal", refusal(r.refusal()));
        }
        u64(o, "recoverable_bytes", r.recoverableBytes());
        ArrayNode swept = o.putArray("swept");
        for (PlannedOp.Delete d : r.swept()) {
            ObjectNode s = swept.addObject();
            s.put("path", d.path().toString());
            s.put("reason", d.reason());
        }
        ArrayNode warnings = o.putArray("warnings");
        r.warnings().forEach(warnings::add);
        ArrayNode segs = o.putArray("segments");
        for (SegmentReport s : r.segments()) {
            segs.add(segment(s, r));
        }
        ArrayNode ops = o.putArray("operations");
        for (PlannedOp op : r.operations()) {
            ops.add(op(op));
        }
        if (r.budget() == null) {
            o.putNull("budget");
        } else {
            ObjectNode budget = o.putObject("budget");
            u64(budget, "candidates_examined", r.budget().spentUnits());
            u64(budget, "budget_units", r.budget().limitUnits());
            u64(budget, "verified_bytes", r.budget().spentVerify());
            u64(budget, "verify_budget_bytes", r.budget().limitVerify());
        }
        if (r.otherMode() != null) {
            ObjectNode other = o.putObject("other_mode");
            other.put("enforce_fsync", r.otherMode().durable());
            other.put("outcome", r.otherMode().outcome().json());
            if (r.otherMode().refusal() == null) {
                other.putNull("refusal");
            } else {
                other.set("refusal", refusal(r.otherMode().refusal()));
            }
            ArrayNode st = other.putArray("segments");
            for (SegmentReport s : r.otherMode().segments()) {
                ObjectNode x = st.addObject();
                u64(x, "start_offset", s.start());
                x.put("status", s.status().json());
            }
        }
        return o;
    }

    public static ObjectNode refusal(Refusal f) {
        ObjectNode o = F.objectNode();
        o.put("variant", f.variant().name());
        u64(o, "segment_start_offset", f.segmentStart());
        ObjectNode fields = o.putObject("fields");
        for (Map.Entry<String, Long> e : f.fields().entrySet()) {
            u64(fields, e.getKey(), e.getValue());
        }
        return o;
    }

    public static ObjectNode segment(SegmentReport s, PartitionReport r) {
        ObjectNode o = F.objectNode();
        u64(o, "start_offset", s.start());
        o.put("log", s.log().getFileName().toString());
        o.put("status", s.status().json());
        ObjectNode before = o.putObject("before");
        u64(before, "log_size", s.logLength());
        u64(before, "index_size", s.indexLength());
        u64(before, "index_entries", s.entries());
        boolean bounded = s.status() != SegmentReport.Status.REFUSED && s.status() != SegmentReport.Status.IO_ERROR
                && s.hasBounds();
        if (bounded) {
            ObjectNode after = o.putObject("after");
            u64(after, "end_offset", s.endOffset());
            u64(after, "size", s.size());
            u64(after, "index_entries", s.indexSize() / IndexEntry.LENGTH);
            u64(after, "start_timestamp", s.startTimestamp());
            u64(after, "end_timestamp", s.endTimestamp());
        } else {
            o.putNull("after");
        }
        ArrayNode ops = o.putArray("operations");
        for (PlannedOp op : s.operations()) {
            if (op instanceof PlannedOp.StageIndex || r.outcome() == PartitionReport.Outcome.ACCEPTED) {
                ops.add(op(op));
            }
        }
        o.set("evidence", evidence(s));
        return o;
    }

    private static ObjectNode evidence(SegmentReport s) {
        ObjectNode e = F.objectNode();
        e.put("result", s.result().name().toLowerCase());
        if (s.step() != null) {
            e.put("step", s.step().label());
        } else {
            e.putNull("step");
        }
        if (s.scan() != null) {
            ObjectNode scan = e.putObject("index_scan");
            scan.put("structural", s.scan().structural());
            scan.put("mappings", s.scan().mappings());
            if (s.scan().structuralReason() != null) {
                scan.put("structural_problem", s.scan().structuralReason());
            }
            if (s.scan().mappingReason() != null) {
                u64(scan, "first_unmatched_entry", s.scan().firstUnmatched());
                scan.put("mapping_problem", s.scan().mappingReason());
            }
        }
        ArrayNode walks = e.putArray("walks");
        for (Walk w : new Walk[]{s.fromLast(), s.fromFirst(), s.rebuild()}) {
            if (w != null) {
                ObjectNode x = walks.addObject();
                x.put("walk", w.name());
                u64(x, "from", w.from());
                u64(x, "stopped_at", w.position());
                x.put("stop", w.stop().kind().name().toLowerCase());
                x.put("reason", w.stop().describe());
                x.put("proved_messages", w.provedMessages());
                u64(x, "records", w.records());
                if (w.stop().defect() != null) {
                    x.put("check", w.stop().defect().code().name().toLowerCase());
                }
            }
        }
        ArrayNode probes = e.putArray("probes");
        for (ProbeResult p : s.probes()) {
            ObjectNode x = probes.addObject();
            u64(x, "damage_position", p.damagePosition());
            u64(x, "residue_bytes", p.residue());
            u64(x, "candidates", p.candidates());
            u64(x, "verifications", p.verifications());
            u64(x, "verified_bytes", p.verifiedBytes());
            if (p.hasSurvivor()) {
                u64(x, "survivor_position", p.survivor());
            } else {
                x.putNull("survivor_position");
            }
            x.put("budget_exhausted", p.exhausted());
        }
        AnchorSearch as = s.anchorSearch();
        if (as != null) {
            ObjectNode x = e.putObject("step_back");
            u64(x, "index_entries", s.entries());
            u64(x, "provable_entries", as.provableEntries());
            u64(x, "provable_position", as.provablePosition());
            u64(x, "searched_entries", as.searchedEntries());
            u64(x, "depth", s.stepBack());
            x.put("searched_by_server", as.charged());
        }
        ArrayNode unread = e.putArray("unread");
        for (Region g : s.unread()) {
            ObjectNode x = unread.addObject();
            u64(x, "from", g.from());
            u64(x, "to", g.to());
            x.put("note", g.note());
        }
        return e;
    }

    public static ObjectNode op(PlannedOp op) {
        ObjectNode o = F.objectNode();
        o.put("op", op.kind());
        o.put("path", op.path().toString());
        if (op instanceof PlannedOp.Delete) {
            o.put("reason", ((PlannedOp.Delete) op).reason());
        } else if (op instanceof PlannedOp.StageIndex) {
            o.put("entries", ((PlannedOp.StageIndex) op).entries().size());
        } else if (op instanceof PlannedOp.Fence) {
            PlannedOp.Fence f = (PlannedOp.Fence) op;
            o.put("fence_directory", String.valueOf(f.fenceDirectory()));
            u64(o, "log_bytes", f.logBytes());
            u64(o, "index_bytes", f.indexBytes());
        } else if (op instanceof PlannedOp.TruncateLog) {
            PlannedOp.TruncateLog t = (PlannedOp.TruncateLog) op;
            u64(o, "from", t.from());
            u64(o, "to", t.to());
        } else if (op instanceof PlannedOp.InstallIndex) {
            PlannedOp.InstallIndex i = (PlannedOp.InstallIndex) op;
            o.put("staging", i.staging().toString());
            u64(o, "from", i.from());
            u64(o, "to", (long) i.entries().size() * IndexEntry.LENGTH);
            o.put("entries", i.entries().size());
        } else if (op instanceof PlannedOp.TruncateIndex) {
            PlannedOp.TruncateIndex t = (PlannedOp.TruncateIndex) op;
            u64(o, "from", t.from());
            u64(o, "to", t.to());
        }
        return o;
    }

    /** Puts an unsigned 64-bit value. */
    public static void u64(ObjectNode o, String name, long v) {
        if (v >= 0) {
            o.put(name, v);
        } else {
            o.put(name, new BigInteger(Long.toUnsignedString(v)));
        }
    }

    /** A u64 id, or null when it is not known. */
    private static void id(ObjectNode o, String name, boolean known, long v) {
        if (!known) {
            o.putNull(name);
        } else {
            u64(o, name, v);
        }
    }
}
