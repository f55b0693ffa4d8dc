package segtool.analyzers.recovery;

import java.io.IOException;
import java.util.List;
import java.util.function.LongConsumer;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;

/**
 * The two walks over one segment's log: the anchored walk W(anchor) of RECOVERY 4.5 and the byte-0 rebuild walk
 * R() of RECOVERY 4.6, without R's probe (pass A runs it after the walk). They share one loop: accept verified
 * records of this partition in offset order, stop at the first record that is not there, and refuse on a verified
 * foreign batch or a verified offset discontinuity. The walks' own verifications are free (RECOVERY 2.4).
 */
final class Walks {
    private final SegmentLog log;
    private final LongConsumer walked;

    Walks(SegmentLog log, LongConsumer walked) {
        this.log = log;
        this.walked = walked;
    }

    /** W(anchor) of RECOVERY 4.5, named {@code name} in the evidence (W(last), W(first)). */
    Walk anchored(String name, IndexEntry anchor) throws IOException, Refusal.Raised {
        return anchored(name, anchor, null);
    }

    /**
     * W(anchor), also adding to {@code entries} (null: none) the index entries R() adds for the same records: the
     * stride counts from the walk's first record, so they are R()'s only when the anchor sits at byte 0.
     */
    Walk anchored(String name, IndexEntry anchor, List<IndexEntry> entries) throws IOException, Refusal.Raised {
        return walk(name, anchor.position(), anchor.offset(), anchor.timestamp(), true, entries);
    }

    /** The loop of R() of RECOVERY 4.6; the rebuilt index entries (F 3.3 stride) are added to {@code entries}. */
    Walk rebuild(List<IndexEntry> entries) throws IOException, Refusal.Raised {
        return walk("R()", 0, log.start(), 0, false, entries);
    }

    /** The next record of a walk: accepted ({@code header} set) or where the walk stops. */
    private record Step(BatchHeader header, Stop stop) {
    }

    /** Steps 1-4 shared by W and R: the verified record at {@code pos}, why there is none, or a foreign batch. */
    private Step verifiedAt(long pos) throws IOException {
        RecoveryEngine.checkCancelled();
        HeaderAt at = log.walkHeaderAt(pos);
        if (!at.found()) {
            return new Step(null, at.none());
        }
        BatchHeader h = at.header();
        long len = log.length();
        if (U64.gt(U64.addSat(pos, h.batchLength()), len)) {
            return new Step(null, new Stop(Stop.Kind.RUNS_PAST_EOF, pos, Defect.of(Defect.Code.RUNS_PAST_EOF, pos, 0,
                    len - pos, h.batchLength()), null));
        }
        Defect d = log.verifyInWalk(pos, h.batchLength());
        if (d != null) {
            return new Step(null, new Stop(Stop.Kind.VERIFY_FAILED, pos, d, null));
        }
        return new Step(h, null);
    }

    /**
     * From {@code from}, expecting {@code expected}: W ({@code anchored}) starts from an index entry, so an offset
     * mismatch at the very first record only means the entry is stale and stops the walk; once a record has been
     * accepted (or in R, from the first record on) a mismatch is a verified discontinuity and refuses.
     */
    private Walk walk(String name, long from, long expected, long anchorTs, boolean anchored,
                      List<IndexEntry> entries) throws IOException, Refusal.Raised {
        long s = log.start();
        long len = log.length();
        long pos = from;
        boolean proved = false;
        long startTs = 0;
        long endOffset = expected;
        long endTs = anchorTs;
        boolean fromLog = !anchored;
        long lastIndexed = -1;
        long records = 0;
        long empties = 0;
        Stop stop = new Stop(Stop.Kind.END_OF_LOG, pos, null, null);
        log.startWalk(pos);
        while (U64.lt(pos, len)) {
            Step step = verifiedAt(pos);
            if (step.header() == null) {
                stop = step.stop();
                break;
            }
            BatchHeader h = step.header();
            if (h.partitionId() != log.partitionId()) {
                Refusal foreign = new Refusal.ForeignBatch(s, h.partitionId(), pos);
                throw new Refusal.Raised(foreign, new Walk(name, from, proved, startTs, endOffset, endTs, pos,
                        records, empties, new Stop(Stop.Kind.REFUSED, pos, null, foreign.toString())));
            }
            if (h.baseOffset() != expected) {
                if (!fromLog) {
                    stop = new Stop(Stop.Kind.INDEX_OFFSET_MISMATCH, pos, null, "carries base_offset "
                            + U64.str(h.baseOffset()) + " but the index entry says " + U64.str(expected));
                    break;
                }
                Refusal gap = new Refusal.OffsetDiscontinuity(s, expected, h.baseOffset(), pos);
                throw new Refusal.Raised(gap, new Walk(name, from, proved, startTs, endOffset, endTs, pos, records,
                        empties, new Stop(Stop.Kind.REFUSED, pos, null, gap.toString())));
            }
            records++;
            if (h.messageCount() > 0) {
                if (!proved) {
                    proved = true;
                    startTs = h.baseTimestamp();
                }
                endOffset = h.endOffset();
                endTs = h.baseTimestamp();
                expected = U64.addSat(endOffset, 1);
                if (entries != null && (lastIndexed < 0
                        || pos - lastIndexed >= RecoveryEngine.REBUILT_INDEX_STRIDE_BYTES)) {
                    entries.add(new IndexEntry(h.baseOffset(), h.baseTimestamp(), pos));
                    lastIndexed = pos;
                }
            } else {
                empties++;
            }
            fromLog = true;
            walked.accept(h.batchLength());
            pos = U64.addSat(pos, h.batchLength());
            stop = new Stop(Stop.Kind.END_OF_LOG, pos, null, null);
        }
        return new Walk(name, from, proved, startTs, endOffset, endTs, pos, records, empties, stop);
    }
}
