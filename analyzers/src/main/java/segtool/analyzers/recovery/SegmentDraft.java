package segtool.analyzers.recovery;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.index.IndexEntry;

/**
 * The passes' working copy of one segment's report, filled in in the order recovery runs; fields a run did not reach
 * stay null. {@link #freeze()} turns it into the immutable {@link SegmentReport} the engine returns.
 */
final class SegmentDraft {
    final long start;
    final Path log;
    final Path index;
    long logLength;
    long indexLength;
    long entries;
    IndexEntry first;
    IndexEntry last;
    /** The decision step of RECOVERY 4.3 that decided the result; null when A3 refused. */
    DecisionStep step;
    IndexScan scan;
    Walk fromLast;
    Walk fromFirst;
    Walk rebuild;
    /** The walk a ForeignBatch or OffsetDiscontinuity ended, as far as it got; null otherwise. */
    Walk refusedWalk;
    final List<ProbeResult> probes = new ArrayList<>();
    AnchorSearch anchorSearch;
    SegmentReport.Result result = SegmentReport.Result.NOT_EXAMINED;
    SegmentReport.Status status = SegmentReport.Status.NOT_EXAMINED;
    Refusal refusal;
    // bounds after recovery
    long startTimestamp;
    long endTimestamp;
    long endOffset;
    long size;
    long indexSize;
    boolean recoveredEmpty;
    List<IndexEntry> rebuiltEntries;
    final List<PlannedOp> operations = new ArrayList<>();
    /** True when the planned index install writes exactly the bytes already in {@code <S>.index} (RECOVERY 7.2). */
    boolean indexUnchanged;
    /** The checkpointed segment only (RECOVERY 9): why its index could not be stat'ed; not the verdict. */
    IoFailure indexUnreadable;
    /** Regions of the log boot accepts without re-reading them (RECOVERY 11.1). */
    List<Region> unread = List.of();
    /** The anchor that admitted a gap before this segment (pass B), if any. */
    segtool.formats.anchor.AnchorRecord anchoredGap;

    SegmentDraft(long start, Path log, Path index) {
        this.start = start;
        this.log = log;
        this.index = index;
        this.endOffset = start;
    }

    SegmentReport freeze() {
        return new SegmentReport(start, log, index, logLength, indexLength, entries, first, last, step,
                new SegmentReport.Evidence(scan, fromLast, fromFirst, rebuild, refusedWalk, probes, anchorSearch,
                        unread),
                result, status, refusal,
                new SegmentReport.Bounds(startTimestamp, endTimestamp, endOffset, size, indexSize, recoveredEmpty,
                        rebuiltEntries),
                operations, indexUnchanged, indexUnreadable, anchoredGap);
    }
}
