package segtool.analyzers.recovery;

import java.nio.file.Path;
import java.util.List;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;

/**
 * Everything pass A learned about one segment, as an immutable value: the files as found ({@code logLength},
 * {@code indexLength}, {@code entries}, {@code first}, {@code last}), the decision step, the {@link Evidence} (the
 * index scan, each walk with the exact check it stopped at, the probes, the anchor search and step-back, the unread
 * regions), the result and status, the refusal about this segment, the {@link Bounds} after recovery, and the
 * planned operations. Parts a run did not reach are null (or empty lists). {@code indexUnreadable}, for the
 * checkpointed segment only (RECOVERY 9), says why its index could not be stat'ed: pass A ignores that index, so it
 * is not the verdict; pass C fails on it only if it must truncate it ({@code Lc = 0}).
 */
public record SegmentReport(long start, Path log, Path index, long logLength, long indexLength, long entries,
                            IndexEntry first, IndexEntry last, DecisionStep step, Evidence evidence, Result result,
                            Status status, Refusal refusal, Bounds bounds, List<PlannedOp> operations,
                            boolean indexUnchanged, IoFailure indexUnreadable, AnchorRecord anchoredGap) {
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

    /**
     * What the checks found, in the order they ran: the index scan (4.2); W(last), W(first) and R() with where and
     * on which check each stopped; the walk a refusal ended ({@code refusedWalk}, stop kind REFUSED); every probe
     * (4.7); the anchor search (4.8, also measured in lenient mode); the regions boot accepts unread (11.1).
     */
    public record Evidence(IndexScan scan, Walk fromLast, Walk fromFirst, Walk rebuild, Walk refusedWalk,
                           List<ProbeResult> probes, AnchorSearch anchorSearch, List<Region> unread) {
        public Evidence {
            probes = List.copyOf(probes);
            unread = List.copyOf(unread);
        }
    }

    /**
     * The bounds after recovery (4.3-4.10): timestamps, end offset, log size, index size, the recovered-empty flag
     * and, for REBUILT, the rebuilt index entries (null otherwise).
     */
    public record Bounds(long startTimestamp, long endTimestamp, long endOffset, long size, long indexSize,
                         boolean recoveredEmpty, List<IndexEntry> rebuiltEntries) {
        public Bounds {
            rebuiltEntries = rebuiltEntries == null ? null : List.copyOf(rebuiltEntries);
        }
    }

    public SegmentReport {
        operations = List.copyOf(operations);
    }

    /** A segment of which only the files and a rebuilt index are known: what {@code rebuild-index} installs. */
    public static SegmentReport indexTarget(long start, Path log, Path index, List<IndexEntry> rebuiltEntries) {
        SegmentDraft d = new SegmentDraft(start, log, index);
        d.rebuiltEntries = rebuiltEntries;
        return d.freeze();
    }

    public IndexScan scan() {
        return evidence.scan();
    }

    public Walk fromLast() {
        return evidence.fromLast();
    }

    public Walk fromFirst() {
        return evidence.fromFirst();
    }

    public Walk rebuild() {
        return evidence.rebuild();
    }

    public Walk refusedWalk() {
        return evidence.refusedWalk();
    }

    public List<ProbeResult> probes() {
        return evidence.probes();
    }

    public AnchorSearch anchorSearch() {
        return evidence.anchorSearch();
    }

    /** Regions of the log boot accepts without re-reading them (RECOVERY 11.1). */
    public List<Region> unread() {
        return evidence.unread();
    }

    public long startTimestamp() {
        return bounds.startTimestamp();
    }

    public long endTimestamp() {
        return bounds.endTimestamp();
    }

    public long endOffset() {
        return bounds.endOffset();
    }

    public long size() {
        return bounds.size();
    }

    public long indexSize() {
        return bounds.indexSize();
    }

    /**
     * The log truncation pass C makes on this segment, or null when it leaves the log's length alone: also when the
     * segment is the WAL checkpoint's, which recovery walks over its checkpointed prefix only ({@link #size()}) and
     * never cuts (RECOVERY 9 step 2).
     */
    public PlannedOp.TruncateLog logCut() {
        for (PlannedOp o : operations()) {
            if (o instanceof PlannedOp.TruncateLog) {
                return (PlannedOp.TruncateLog) o;
            }
        }
        return null;
    }

    public boolean recoveredEmpty() {
        return bounds.recoveredEmpty();
    }

    public List<IndexEntry> rebuiltEntries() {
        return bounds.rebuiltEntries();
    }

    /** Index entries the log cannot prove, counted from the top: {@code n - provable_entries}, or -1 if unmeasured. */
    public long stepBack() {
        AnchorSearch as = anchorSearch();
        return as == null ? -1 : entries - as.provableEntries();
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
