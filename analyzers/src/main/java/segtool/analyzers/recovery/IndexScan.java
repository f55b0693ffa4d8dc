package segtool.analyzers.recovery;

import java.io.IOException;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;

/**
 * The index consistency scan of RECOVERY.md 4.2. {@code firstBadEntry} is the entry that broke the structure (or
 * -1); {@code firstUnmatched} the first entry that did not describe the batch at its position (or -1), with why.
 */
public record IndexScan(boolean structural, boolean mappings, long firstBadEntry, String structuralReason,
                        long firstUnmatched, String mappingReason) {

    /**
     * Scans entries {@code 0 .. n-1} of {@code index} against {@code log} (whose start offset is the segment's
     * {@code S}) in order: the structure rules 1-2 stop the scan, the first entry failing Matches clears
     * {@code mappings} and the scan goes on. Timestamps are not checked for monotonicity; no checksum is computed.
     */
    public static IndexScan of(IndexFile index, long n, SegmentLog log) throws IOException {
        long s = log.start();
        boolean mappings = true;
        long firstUnmatched = -1;
        String mappingReason = null;
        IndexEntry prev = null;
        for (long i = 0; i < n; i++) {
            if ((i & 0x3FF) == 0) {
                RecoveryEngine.checkCancelled();
            }
            IndexEntry e = index.entry(i);
            if (i > 0 && (U64.le(e.offset(), prev.offset()) || U64.le(e.position(), prev.position()))) {
                return new IndexScan(false, false, i, "entry " + i + " does not advance past entry "
                        + (i - 1) + " (offset " + U64.str(prev.offset()) + " -> " + U64.str(e.offset())
                        + ", position " + U64.str(prev.position()) + " -> " + U64.str(e.position()) + ")",
                        firstUnmatched, mappingReason);
            }
            if (i == 0 && (e.offset() != s || e.position() != 0)) {
                return new IndexScan(false, false, 0, "entry 0 is (" + U64.str(e.offset()) + ", "
                        + U64.str(e.position()) + "), not (" + U64.str(s) + ", 0) as the segment start requires",
                        firstUnmatched, mappingReason);
            }
            if (mappings) {
                String why = log.mismatch(e);
                if (why != null) {
                    mappings = false;
                    firstUnmatched = i;
                    mappingReason = why;
                }
            }
            prev = e;
        }
        return new IndexScan(true, mappings, -1, null, firstUnmatched, mappingReason);
    }
}
