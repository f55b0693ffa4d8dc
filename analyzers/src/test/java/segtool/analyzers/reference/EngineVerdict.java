package segtool.analyzers.reference;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.index.IndexEntry;

/**
 * The engine's report as a {@link Verdict}: the one place that knows the engine's report types, so when they change
 * only this adapter follows.
 */
public final class EngineVerdict {
    private EngineVerdict() {
    }

    public static Verdict of(PartitionReport r) {
        Verdict.Refused refused = null;
        if (r.refusal() != null) {
            Refusal f = r.refusal();
            refused = new Verdict.Refused(f.variant().name(), f.segmentStart(), f.fields());
        }
        List<Verdict.Segment> segments = new ArrayList<>();
        for (SegmentReport s : r.segments()) {
            String status = s.status().json();
            boolean bounded = !(status.equals("refused") || status.equals("not_examined")
                    || status.equals("io_error")) && s.hasBounds();
            segments.add(new Verdict.Segment(s.start(), status, bounded
                    ? List.of(s.startTimestamp(), s.endTimestamp(), s.endOffset(), s.size(), s.indexSize(),
                    s.recoveredEmpty() ? 1L : 0L)
                    : List.of()));
        }
        TreeSet<String> deletes = new TreeSet<>();
        List<String> rest = new ArrayList<>();
        for (PlannedOp op : r.operations()) {
            if (op instanceof PlannedOp.Delete d) {
                deletes.add("delete " + rel(d.path()));
            } else if (op instanceof PlannedOp.StageIndex st) {
                rest.add("stage_index " + rel(st.path()) + " " + entries(st.entries()));
            } else if (op instanceof PlannedOp.Fence f) {
                rest.add("fence " + rel(f.path()) + " -> " + rel(f.fenceDirectory()) + " log=" + f.logBytes()
                        + " index=" + f.indexBytes());
            } else if (op instanceof PlannedOp.TruncateLog t) {
                rest.add("truncate_log " + rel(t.path()) + " " + t.from() + "->" + t.to());
            } else if (op instanceof PlannedOp.InstallIndex i) {
                rest.add("install_index " + rel(i.path()) + " <- " + rel(i.staging()) + " from=" + i.from() + " "
                        + entries(i.entries()));
            } else if (op instanceof PlannedOp.TruncateIndex t) {
                rest.add("truncate_index " + rel(t.path()) + " " + t.from() + "->" + t.to());
            } else {
                rest.add("unknown " + op);
            }
        }
        List<String> plan = new ArrayList<>(deletes);
        plan.addAll(rest);
        String ioFile = r.ioFailure() == null ? null : String.valueOf(r.ioFailure().path().getFileName());
        return new Verdict(r.outcome().json(), refused, ioFile, segments, r.recoverableBytes(),
                List.of(r.budget().spentUnits(), r.budget().limitUnits(), r.budget().spentVerify(),
                        r.budget().limitVerify()),
                plan, r.outcome() == PartitionReport.Outcome.ACCEPTED && r.severity() == 1);
    }

    private static String rel(Path p) {
        Path parent = p.getParent();
        return parent == null ? p.toString() : parent.getFileName() + "/" + p.getFileName();
    }

    private static String entries(List<IndexEntry> entries) {
        List<long[]> raw = new ArrayList<>();
        for (IndexEntry e : entries) {
            raw.add(new long[]{e.offset(), e.timestamp(), e.position()});
        }
        return ReferenceRecovery.entries(raw);
    }
}
