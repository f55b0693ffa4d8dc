package segtool.analyzers.recovery;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.naming.PartitionPath;

/**
 * The verdict for one partition under one {@code enforce_fsync} value: accepted, refused (with the refusal), or an
 * I/O error that prevented a verdict; the sweep's deletions; one report per segment in ascending order; and the
 * chain guard's {@code recoverable_bytes}.
 */
public final class PartitionReport {
    public enum Outcome {
        ACCEPTED, REFUSED, IO_ERROR;

        public String json() {
            return name().toLowerCase();
        }
    }

    public final PartitionPath partition;
    public final boolean durable;
    public Outcome outcome = Outcome.ACCEPTED;
    public Refusal refusal;
    public String ioError;
    /** For {@code IO_ERROR}: the path, the operation and the OS reason ({@link #ioError} is its one line). */
    public IoFailure ioFailure;
    public final List<PlannedOp.Delete> swept = new ArrayList<>();
    public final List<SegmentReport> segments = new ArrayList<>();
    public final List<String> warnings = new ArrayList<>();
    public long recoverableBytes;
    public Budget budget;
    /** The verdict under the other {@code enforce_fsync} value, when asked for. */
    public PartitionReport otherMode;

    public PartitionReport(PartitionPath partition, boolean durable) {
        this.partition = partition;
        this.durable = durable;
    }

    /** Every planned operation in execution order: sweep deletions, staging writes, then pass C per segment. */
    public List<PlannedOp> operations() {
        List<PlannedOp> all = new ArrayList<>(swept);
        for (SegmentReport s : segments) {
            for (PlannedOp op : s.operations) {
                if (op instanceof PlannedOp.StageIndex) {
                    all.add(op);
                }
            }
        }
        if (outcome == Outcome.ACCEPTED) {
            for (SegmentReport s : segments) {
                for (PlannedOp op : s.operations) {
                    if (!(op instanceof PlannedOp.StageIndex)) {
                        all.add(op);
                    }
                }
            }
        }
        return all;
    }

    /**
     * True when boot recovery would change a byte on disk: a sweep deletion or a segment's pass C change
     * ({@link SegmentReport#changesFiles}). The plan may still list the server's re-install of an index identical to
     * the one on disk; that changes nothing (RECOVERY 7.2).
     */
    public boolean changesFiles() {
        if (!swept.isEmpty()) {
            return true;
        }
        if (outcome != Outcome.ACCEPTED) {
            return false;
        }
        for (SegmentReport s : segments) {
            if (s.changesFiles()) {
                return true;
            }
        }
        return false;
    }

    /** Exit-code class: 0 clean, 1 recovery would change files, 2 refused, 3 I/O error ({@link ExitCode#of}). */
    public int severity() {
        return ExitCode.of(this);
    }
}
