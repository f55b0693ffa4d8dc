package segtool.analyzers.recovery;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.index.IndexEntry;

/**
 * Everything pass A learned about one segment: the files as found, each scan and walk with where it stopped, the
 * probes, the anchor search, the result and its bounds, and the planned operations. Filled in by the engine in the
 * order recovery runs; fields a run did not reach stay null.
 */
public final class SegmentReport {
    /** The per-segment status of the scan report (precedence: recovered_empty > truncated > index_rebuilt > clean). */
    public enum Status {
        CLEAN, TRUNCATED, INDEX_REBUILT, RECOVERED_EMPTY, REFUSED, NOT_EXAMINED,
        /** A file of this segment (or its anchor) could not be read: the partition's outcome is io_error (7.3). */
        IO_ERROR;

        public String json() {
            return name().toLowerCase();
        }
    }

    /** What pass A decided: keep the index, rebuild it, an empty segment, or nothing because of a refusal. */
    public enum Result { KEEP, REBUILT, EMPTY, REFUSED, NOT_EXAMINED }

    public final long start;
    public final Path log;
    public final Path index;
    public String stemWarning;
    public long logLength;
    public long indexLength;
    public long entries;
    public IndexEntry first;
    public IndexEntry last;
    /** The decision step of RECOVERY 4.3 that decided the result; null when A3 refused. */
    public DecisionStep step;
    public IndexScan scan;
    public Walk fromLast;
    public Walk fromFirst;
    public Walk rebuild;
    /** The walk a ForeignBatch or OffsetDiscontinuity ended, as far as it got; null otherwise. */
    public Walk refusedWalk;
    public final List<ProbeResult> probes = new ArrayList<>();
    public AnchorSearch anchorSearch;
    public Result result = Result.NOT_EXAMINED;
    public Status status = Status.NOT_EXAMINED;
    public Refusal refusal;
    // bounds after recovery
    public long startTimestamp;
    public long endTimestamp;
    public long endOffset;
    public long size;
    public long indexSize;
    public boolean recoveredEmpty;
    public List<IndexEntry> rebuiltEntries;
    public final List<PlannedOp> operations = new ArrayList<>();
    /**
     * The checkpointed segment only (RECOVERY 9): why its index could not be stat'ed. Pass A ignores that index, so
     * this is not the verdict; pass C fails on it only if it must truncate it ({@code Lc = 0}).
     */
    public IoFailure indexUnreadable;
    /** True when the planned index install writes exactly the bytes already in {@code <S>.index} (RECOVERY 7.2). */
    public boolean indexUnchanged;
    /** Regions of the log boot accepts without re-reading them (RECOVERY 11.1). */
    public List<Region> unread = List.of();
    /** The anchor that admitted a gap before this segment (pass B), if any. */
    public segtool.formats.anchor.AnchorRecord anchoredGap;

    public SegmentReport(long start, Path log, Path index) {
        this.start = start;
        this.log = log;
        this.index = index;
        this.endOffset = start;
    }

    /** Index entries the log cannot prove, counted from the top: {@code n - provable_entries}, or -1 if unmeasured. */
    public long stepBack() {
        return anchorSearch == null ? -1 : entries - anchorSearch.provableEntries();
    }

    /**
     * True when pass C would change a byte of this segment's files: a fence, a truncation, or an index install whose
     * bytes differ from the index on disk. Staging writes are scratch; the server's re-install of an identical index
     * changes nothing (RECOVERY 7.2).
     */
    public boolean changesFiles() {
        for (PlannedOp op : operations) {
            if (op instanceof PlannedOp.StageIndex) {
                continue;
            }
            if (op instanceof PlannedOp.InstallIndex && indexUnchanged) {
                continue;
            }
            return true;
        }
        return false;
    }

    /** True when pass A gave this segment bounds: KEEP, REBUILT or EMPTY. */
    public boolean hasBounds() {
        return result == Result.KEEP || result == Result.REBUILT || result == Result.EMPTY;
    }
}
