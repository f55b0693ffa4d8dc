package segtool.analyzers.recovery;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.naming.PartitionPath;

/**
 * The verdict for one partition under one {@code enforce_fsync} value, as an immutable value: accepted, refused
 * (with the refusal), or an I/O error that prevented a verdict ({@link Outcome}; {@code ioFailure} names its path,
 * operation and OS reason, and {@code ioError} is its one line); the sweep's deletions and warnings;
 * one report per segment in ascending order; the chain guard's {@code recoverable_bytes}; the shared budget's
 * counters at the end of the load; and, when asked for, the verdict under the other mode.
 */
public record PartitionReport(PartitionPath partition, boolean durable, Outcome outcome, Refusal refusal,
                              String ioError, IoFailure ioFailure, List<PlannedOp.Delete> swept, List<SegmentReport> segments,
                              List<String> warnings, long recoverableBytes, Budget.Counters budget,
                              PartitionReport otherMode) {
    /** The typed outcome of a partition load; exit codes are derived from it (analyzers' ExitCode). */
    public enum Outcome {
        ACCEPTED, REFUSED, IO_ERROR;

        public String json() {
            return name().toLowerCase();
        }
    }

    public PartitionReport {
        swept = List.copyOf(swept);
        segments = List.copyOf(segments);
        warnings = List.copyOf(warnings);
    }

    /**
     * A partition that could not be judged at all (its inputs refused, e.g. metadata): an {@code IO_ERROR} with
     * {@code line} as its one line, no segments and no budget.
     */
    public static PartitionReport notJudged(PartitionPath partition, boolean durable, String line) {
        return new PartitionReport(partition, durable, Outcome.IO_ERROR, null, line, null, List.of(), List.of(),
                List.of(), 0, null, null);
    }

    /** This verdict with {@code other}, the verdict under the other {@code enforce_fsync}, attached. */
    public PartitionReport withOtherMode(PartitionReport other) {
        return new PartitionReport(partition, durable, outcome, refusal, ioError, ioFailure, swept, segments,
                warnings, recoverableBytes, budget, other);
    }

    /** Every planned operation in execution order: sweep deletions, staging writes, then pass C per segment. */
    public List<PlannedOp> operations() {
        List<PlannedOp> all = new ArrayList<>(swept);
        for (SegmentReport s : segments) {
            for (PlannedOp op : s.operations()) {
                if (op instanceof PlannedOp.StageIndex) {
                    all.add(op);
                }
            }
        }
        if (outcome == Outcome.ACCEPTED) {
            for (SegmentReport s : segments) {
                for (PlannedOp op : s.operations()) {
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
