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
 * counters at the end of the load; when asked for, the verdict under the other mode; and {@code walOpen}, the
 * directory the prepare WAL's open leaves before segment recovery reads it (METADATA 6.7; {@link DirectoryView#AS_IS}
 * when the open changes nothing recovery sees, or there is none).
 */
public record PartitionReport(PartitionPath partition, boolean durable, Outcome outcome, Refusal refusal,
                              String ioError, IoFailure ioFailure, List<PlannedOp.Delete> swept, List<SegmentReport> segments,
                              List<String> warnings, long recoverableBytes, Budget.Counters budget,
                              PartitionReport otherMode, DirectoryView walOpen) {
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
        walOpen = walOpen == null ? DirectoryView.AS_IS : walOpen;
    }

    /** A verdict on the directory as it is (no WAL open in front of segment recovery). */
    public PartitionReport(PartitionPath partition, boolean durable, Outcome outcome, Refusal refusal,
                           String ioError, IoFailure ioFailure, List<PlannedOp.Delete> swept, List<SegmentReport> segments,
                           List<String> warnings, long recoverableBytes, Budget.Counters budget,
                           PartitionReport otherMode) {
        this(partition, durable, outcome, refusal, ioError, ioFailure, swept, segments, warnings, recoverableBytes,
                budget, otherMode, DirectoryView.AS_IS);
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
                warnings, recoverableBytes, budget, other, walOpen);
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

    /**
     * True when the prepare WAL's open, which the server runs at boot before segment recovery (METADATA 6.7 steps
     * 1-3), removes, re-links or cuts a name segment recovery lists or reads: boot changes files even when recovery
     * itself changes none. segtool never does these steps (they are the WAL's).
     */
    public boolean walOpenChangesFiles() {
        return outcome != Outcome.IO_ERROR && !walOpen.asIs();
    }

    /** True when boot changes a file: the WAL's open ({@link #walOpenChangesFiles}) or recovery ({@link #changesFiles}). */
    public boolean bootChangesFiles() {
        return walOpenChangesFiles() || changesFiles();
    }

    /** Exit-code class: 0 clean, 1 boot would change files, 2 refused, 3 I/O error ({@link ExitCode#of}). */
    public int severity() {
        return ExitCode.of(this);
    }
}
