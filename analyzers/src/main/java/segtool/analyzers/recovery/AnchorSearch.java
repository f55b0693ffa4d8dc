package segtool.analyzers.recovery;

import java.io.IOException;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;

/**
 * The durable-mode anchor search AS() of RECOVERY.md 4.8: how many index entries the log backs. {@code charged} is
 * false when it was run for evidence only (lenient mode), with no effect on the budget or the verdict;
 * {@code exhausted} is set when such an evidence run met a failing charge.
 */
public record AnchorSearch(long provableEntries, long provablePosition, long searchedEntries, boolean charged,
                           boolean exhausted) {

    /**
     * AS() over the first {@code n} entries of {@code index} against {@code log}. With {@code charged} the search
     * grows and charges {@code budget} and a failing charge refuses UnverifiedResidue; without it the search runs
     * on a copy of the budget and never refuses.
     */
    static AnchorSearch search(SegmentLog log, IndexFile index, long n, Budget budget, boolean charged)
            throws IOException, Refusal.Raised {
        if (n < 2) {
            return new AnchorSearch(0, 0, 0, charged, false);
        }
        long len = log.length();
        Budget b = charged ? budget : budget.copy();
        long i = n - 2;
        long down = len;
        long searched = 0;
        while (true) {
            IndexEntry e = index.entry(i);
            searched++;
            if (U64.lt(e.position(), len)) {
                b.grow(U64.subSat(down, e.position()));
                down = e.position();
                BatchHeader h = log.headerAt(e.position()).header();
                if (h != null && h.partitionId() == log.partitionId() && h.baseOffset() == e.offset()
                        && h.messageCount() > 0 && U64.le(U64.addSat(e.position(), h.batchLength()), len)) {
                    if (!b.chargeVerify(h.batchLength())) {
                        if (!charged) {
                            return new AnchorSearch(0, 0, searched, false, true);
                        }
                        throw new Refusal.Raised(Budget.unverifiedResidue(b, log.start(), e.position(), len));
                    }
                    if (log.verifyAside(e.position(), h.batchLength()) == null) {
                        return new AnchorSearch(i + 1, e.position(), searched, charged, false);
                    }
                }
            }
            if (searched == RecoveryEngine.MAX_INDEX_ANCHOR_PROBE_ENTRIES || i == 0) {
                break;
            }
            i--;
        }
        return new AnchorSearch(0, 0, searched, charged, false);
    }
}
