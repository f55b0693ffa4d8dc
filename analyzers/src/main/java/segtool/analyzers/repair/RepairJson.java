package segtool.analyzers.repair;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.report.ScanJson;

/**
 * The {@code segtool.repair/2} report of {@code repair} and {@code rebuild-index} (plan in a dry run, plan and
 * result with {@code --apply}) and the {@code segtool.restore/1} report of {@code restore}. Keys in fixed order, the
 * process exit code last ({@code summary.exit_code} repeats it in repair/2, deprecated); operations are rendered as
 * in the scan report.
 */
public final class RepairJson {
    public static final String SCHEMA = "segtool.repair/2";
    public static final String RESTORE_SCHEMA = "segtool.restore/1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private RepairJson() {
    }

    public static ObjectNode report(String command, String path, String version, boolean durable, boolean apply,
                                    List<Repairer.Outcome> outcomes, int exitCode) {
        ObjectNode root = F.objectNode();
        root.put("schema", SCHEMA);
        root.put("segtool_version", version);
        root.put("command", command);
        root.put("path", path);
        root.put("enforce_fsync", durable);
        root.put("apply", apply);
        ArrayNode parts = root.putArray("partitions");
        for (Repairer.Outcome o : outcomes) {
            parts.add(partition(o));
        }
        ObjectNode summary = root.putObject("summary");
        summary.put("partitions", outcomes.size());
        for (Repairer.Status s : Repairer.Status.values()) {
            summary.put(s.json(), outcomes.stream().filter(o -> o.status() == s).count());
        }
        summary.put("exit_code", exitCode);
        root.put("exit_code", exitCode);
        return root;
    }

    public static ObjectNode partition(Repairer.Outcome o) {
        ObjectNode n = F.objectNode();
        n.put("path", o.partition().directory().toString());
        if (o.partition().hasPartitionId()) {
            ScanJson.u64(n, "partition_id", o.partition().partitionId());
        } else {
            n.putNull("partition_id");
        }
        n.put("status", o.status().json());
        n.put("durability", o.durable() ? "persisted" : "replicated");
        n.put("exit_code", o.exitCode());
        PartitionReport before = o.before();
        n.put("verdict", before == null ? null : before.outcome().json());
        if (before != null && before.refusal() != null) {
            n.set("refusal", ScanJson.refusal(before.refusal()));
            n.put("explanation", Refusals.explain(before.refusal()));
            ArrayNode next = n.putArray("next_steps");
            Refusals.nextSteps(before.refusal(), before).forEach(next::add);
        } else {
            n.putNull("refusal");
            n.putNull("explanation");
            n.putArray("next_steps");
        }
        if (o.error() != null || (before != null && before.ioError() != null)) {
            n.put("error", o.error() != null ? o.error() : before.ioError());
        } else {
            n.putNull("error");
        }
        n.set("server", server(o.server()));
        ArrayNode pending = n.putArray("unfinished");
        for (Quarantine q : o.pending()) {
            ObjectNode x = pending.addObject();
            x.put("quarantine", q.directory().toString());
            ArrayNode left = x.putArray("remaining");
            for (RepairOp op : q.manifest().operations()) {
                if (!q.isDone(op.seq())) {
                    left.add(op.kind() + " " + op.file());
                }
            }
        }
        paths(n.putArray("resumed"), o.resumed());
        paths(n.putArray("discarded"), o.discarded());
        ArrayNode plan = n.putArray("plan");
        if (o.plan() != null) {
            for (PlannedOp op : o.plan().engineOps()) {
                plan.add(ScanJson.op(op));
            }
        }
        if (o.quarantine() != null) {
            ObjectNode q = n.putObject("quarantine");
            q.put("directory", o.quarantine().toString());
            q.put("entries", o.plan().leaving().size());
            q.put("bytes", o.plan().quarantineBytes());
        } else if (o.plan() != null) {
            ObjectNode q = n.putObject("quarantine");
            q.putNull("directory");
            q.put("entries", o.plan().leaving().size());
            q.put("bytes", o.plan().quarantineBytes());
        } else {
            n.putNull("quarantine");
        }
        if (o.after() != null) {
            ObjectNode a = n.putObject("after");
            a.put("verdict", o.after().outcome().json());
            a.put("exit_code", ExitCode.of(o.after()));
            a.put("pending_operations", o.after().operations().size());
            ArrayNode segs = a.putArray("segments");
            for (SegmentReport s : o.after().segments()) {
                ObjectNode x = segs.addObject();
                ScanJson.u64(x, "start_offset", s.start());
                x.put("status", s.status().json());
                ScanJson.u64(x, "size", s.size());
                ScanJson.u64(x, "index_entries", s.indexSize() / 24);
            }
        } else {
            n.putNull("after");
        }
        if (o.loss() != null) {
            n.set("accept_loss", loss(o.loss()));
        } else {
            n.putNull("accept_loss");
        }
        ArrayNode notes = n.putArray("notes");
        o.notes().forEach(notes::add);
        return n;
    }

    /**
     * {@code accept_loss} of a {@code repair --accept-loss} partition: the salvage archive, each cut with the
     * refusal it answers, the offsets and bytes that leave the live partition (the archive keeps the records, the
     * quarantine the bytes), the offsets no record holds, and the quarantine; {@code unsafe} when no safe cut exists.
     */
    static ObjectNode loss(Repairer.Loss l) {
        ObjectNode x = F.objectNode();
        if (l.survey() != null) {
            ObjectNode a = x.putObject("salvage");
            a.put("archive", l.archive() == null ? null : l.archive().toString());
            a.put("reused", l.archiveReused());
            a.put("batches", l.survey().batches());
            a.put("messages", l.survey().messages());
            ranges(a.putArray("offsets"), l.survey().archived().list());
        } else {
            x.putNull("salvage");
        }
        ArrayNode cuts = x.putArray("cuts");
        for (Repairer.Cut c : l.cuts()) {
            ObjectNode y = cuts.addObject();
            y.put("kind", c.stake() == null ? "repair" : c.stake().cut().plan().name().toLowerCase());
            if (c.refusal() != null) {
                y.set("refusal", ScanJson.refusal(c.refusal()));
            } else {
                y.putNull("refusal");
            }
            if (c.stake() != null) {
                ScanJson.u64(y, "segment", c.stake().cut().segment());
                ScanJson.u64(y, "position", c.stake().cut().position());
                ranges(y.putArray("offsets_leaving"), c.stake().cut().offsetsLeaving());
                ScanJson.u64(y, "bytes_leaving", c.stake().cut().bytesLeaving());
                ArrayNode missing = y.putArray("offsets_missing");
                c.stake().missing().forEach(m -> missing.add(m.offsets().toString()));
                y.put("offsets_were_promised", true);
            }
            ArrayNode plan = y.putArray("plan");
            c.plan().engineOps().forEach(op -> plan.add(ScanJson.op(op)));
            ScanJson.u64(y, "log_bytes_removed", c.plan().leaving().stream()
                    .filter(r -> r.file().endsWith(".log")).mapToLong(RepairPlan.Leaving::length).sum());
            ScanJson.u64(y, "quarantine_bytes", c.plan().quarantineBytes());
            y.put("quarantine", c.quarantine() == null ? null : c.quarantine().toString());
        }
        ArrayNode undo = x.putArray("restore_newest_first");
        l.quarantinesNewestFirst().forEach(q -> undo.add(q.toString()));
        x.put("unsafe", l.unsafe());
        return x;
    }

    private static void ranges(ArrayNode out, List<segtool.analyzers.salvage.OffsetRanges.Range> ranges) {
        ranges.forEach(r -> out.add(r.toString()));
    }

    public static ObjectNode server(ServerGuard.Report r) {
        ObjectNode s = F.objectNode();
        if (r == null) {
            s.putNull("scope");
            s.put("checked", false);
            return s;
        }
        s.put("scope", r.scope().toString());
        s.put("checked", r.procAvailable());
        s.put("busy", r.busy());
        ArrayNode holders = s.putArray("holders");
        for (ServerGuard.Holder h : r.holders()) {
            ObjectNode x = holders.addObject();
            x.put("pid", h.pid());
            x.put("command", h.command());
            x.put("file", h.file());
            x.put("how", h.how());
        }
        ArrayNode pids = s.putArray("pid_files");
        r.pidFiles().forEach(pids::add);
        s.put("uninspectable_processes", r.uninspectable());
        ArrayNode notes = s.putArray("notes");
        r.notes().forEach(notes::add);
        return s;
    }

    public static ObjectNode restore(String version, Repairer.RestoreOutcome o) {
        ObjectNode n = F.objectNode();
        n.put("schema", RESTORE_SCHEMA);
        n.put("segtool_version", version);
        n.put("quarantine", o.quarantine().toString());
        n.put("partition", o.partition() == null ? null : o.partition().toString());
        n.put("state_before", o.stateBefore());
        n.put("applied", o.result() != null && o.result().applied());
        ArrayNode actions = n.putArray("actions");
        ArrayNode conflicts = n.putArray("conflicts");
        if (o.result() != null) {
            o.result().actions().forEach(actions::add);
            o.result().conflicts().forEach(conflicts::add);
        }
        n.set("server", server(o.server()));
        n.put("error", o.error());
        n.put("exit_code", o.exitCode());
        return n;
    }

    private static void paths(ArrayNode out, List<Path> paths) {
        paths.forEach(p -> out.add(p.toString()));
    }
}
