package segtool.analyzers.salvage;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.salvage.OffsetRanges.Range;
import segtool.formats.io.U64;

/**
 * The offsets a refusal puts at stake, computed from the refusal and a salvage survey of the same partition: which
 * offsets no verifying record holds any more (with where they were), which offsets only records past the break
 * hold, and what the least-loss way to a partition the server boots would take out of the live partition. Words
 * are the renderer's business; this is only the arithmetic.
 *
 * @param refusal      the refusal
 * @param missing      offsets no verifying record holds, each with the segments it falls between
 * @param salvageable  offsets a salvage archive would hold (records that verify, anywhere)
 * @param cut          what a least-loss repair takes out of the live partition
 */
public record AtStake(Refusal refusal, List<Missing> missing, List<Range> salvageable, Cut cut) {

    /** Where a missing range lies relative to the live segments. */
    public enum Where {
        /** Inside segment {@code before}: the segment holds records with higher offsets. */
        INSIDE,
        /** After the last record of segment {@code before} and before segment {@code after} starts. */
        BETWEEN,
        /** After the last record of the last segment {@code before}; an index entry names them. */
        AT_END,
        /** Before the first segment {@code after}. */
        BEFORE
    }

    /**
     * A missing offset range: where it lies, the segments around it, and, when the refusal itself is about it, the
     * damaged bytes {@code [fromByte, toByte)} of segment {@code before} or the byte {@code position} of the record
     * that skips it (else -1).
     */
    public record Missing(Range offsets, Where where, Long before, Long after, long fromByte, long toByte,
                          long position) {
    }

    /** How a least-loss repair gets to a partition the server boots (docs/repair.md, "repair --accept-loss"). */
    public enum Plan {
        /** Cut segment {@code segment}'s log at {@code position}; move every later segment aside. */
        CUT_LOG,
        /** Move the segments from {@code segment} on aside. */
        MOVE_SEGMENTS_ASIDE,
        /** Move the empty segment {@code segment} aside: the chain is whole without it, nothing that verifies moves. */
        MOVE_EMPTY_ASIDE,
        /** Replace the segment's index with the one its log proves (R()); the log keeps what verifies. */
        REBUILD_INDEX,
        /** No offsets are at stake in the files; the refusal is about sizes (checkpoints, storage open). */
        NONE
    }

    /**
     * @param plan           the kind of cut
     * @param segment        the segment where it starts
     * @param position       for CUT_LOG, the byte position of the cut
     * @param offsetsLeaving offsets held by verifying records that would leave the live partition (the salvage
     *                       archive keeps them): for a cut, those of the segment's records at or past the cut
     *                       position and of every later segment
     * @param bytesLeaving   bytes that would leave the live partition (a quarantine keeps them)
     */
    public record Cut(Plan plan, long segment, long position, List<Range> offsetsLeaving, long bytesLeaving) {
    }

    private static long last(OffsetRanges r) {
        List<Range> l = r.list();
        return l.get(l.size() - 1).last();
    }

    /**
     * An empty non-tail segment can go aside alone when nothing precedes it (nothing constrains the first segment's
     * start, RECOVERY 5) or when the segment before it ends exactly where the next begins.
     */
    private static boolean emptyIsRemovable(Salvager.Result survey, Refusal.EmptyNonTailSegment e) {
        Salvager.SourceResult prev = null;
        for (Salvager.SourceResult s : survey.segments()) {
            if (U64.lt(s.source().start(), e.emptyStart())) {
                prev = s;
            }
        }
        if (prev == null) {
            return true;
        }
        return !prev.offsets().isEmpty() && last(prev.offsets()) != U64.MAX
                && last(prev.offsets()) + 1 == e.nextStart();
    }

    /**
     * Surveys the refused partition of {@code report} (a salvage scan that writes nothing) and computes what is at
     * stake. Reads only.
     */
    public static AtStake survey(PartitionReport report, long maxBatchBytes) throws java.io.IOException {
        Salvager.Result survey = new Salvager(surveying(report,
                Salvager.Options.defaults("survey").withMaxBatchBytes(maxBatchBytes)))
                .survey(report.partition(), new ArrayList<>());
        return of(report, survey);
    }

    /**
     * {@code options} for the survey of the refused {@code report}: when its least-loss way is a log cut, the survey
     * also gives the offsets of the records at or past the cut, so that {@link #of} counts exactly those as leaving.
     */
    public static Salvager.Options surveying(PartitionReport report, Salvager.Options options) {
        Refusal r = report.refusal();
        return r == null || !isCut(r) ? options
                : options.withCutAt(new Salvager.CutAt(r.segmentStart(), cutPosition(r)));
    }

    private static boolean isCut(Refusal r) {
        return r instanceof Refusal.InteriorDamage || r instanceof Refusal.UnverifiedResidue
                || r instanceof Refusal.OffsetDiscontinuity || r instanceof Refusal.ForeignBatch;
    }

    /** The byte position of the log cut that removes {@code r} (one of {@link #isCut}'s). */
    private static long cutPosition(Refusal r) {
        if (r instanceof Refusal.InteriorDamage f) {
            return f.damagePosition();
        } else if (r instanceof Refusal.UnverifiedResidue u) {
            return u.damagePosition();
        } else if (r instanceof Refusal.OffsetDiscontinuity d) {
            return d.position();
        } else if (r instanceof Refusal.ForeignBatch f) {
            return f.position();
        }
        return -1;
    }

    /** The offsets at stake for the refused {@code report}, from {@code survey} of the same partition. */
    public static AtStake of(PartitionReport report, Salvager.Result survey) {
        Refusal r = report.refusal();
        if (r == null) {
            throw new IllegalArgumentException("not refused: " + report.partition().directory());
        }
        long dmgFrom = -1;
        long dmgTo = -1;
        long segment = r.segmentStart();
        Plan plan;
        long position = 0;
        switch (r.variant()) {
            case InteriorDamage -> {
                Refusal.InteriorDamage f = (Refusal.InteriorDamage) r;
                dmgFrom = f.damagePosition();
                dmgTo = f.survivorPosition();
                plan = Plan.CUT_LOG;
                position = f.damagePosition();
            }
            case UnverifiedResidue -> {
                plan = Plan.CUT_LOG;
                position = ((Refusal.UnverifiedResidue) r).damagePosition();
                dmgFrom = position;
                dmgTo = U64.addSat(position, ((Refusal.UnverifiedResidue) r).residueBytes());
            }
            case OffsetDiscontinuity -> {
                plan = Plan.CUT_LOG;
                position = ((Refusal.OffsetDiscontinuity) r).position();
            }
            case ForeignBatch -> {
                plan = Plan.CUT_LOG;
                position = ((Refusal.ForeignBatch) r).position();
            }
            case Hole -> {
                plan = Plan.MOVE_SEGMENTS_ASIDE;
                segment = ((Refusal.Hole) r).nextStart();
            }
            case EmptyNonTailSegment -> {
                plan = Plan.MOVE_SEGMENTS_ASIDE;
                segment = ((Refusal.EmptyNonTailSegment) r).nextStart();
            }
            case FsyncedLogLoss, FsyncedRebuildShortfall -> plan = Plan.REBUILD_INDEX;
            default -> plan = Plan.NONE;
        }
        if (r instanceof Refusal.EmptyNonTailSegment e && emptyIsRemovable(survey, e)) {
            plan = Plan.MOVE_EMPTY_ASIDE;
            segment = e.emptyStart();
        }
        List<Missing> missing = new ArrayList<>();
        for (Range m : survey.lost()) {
            Long before = null;
            Long after = null;
            Salvager.SourceResult holder = null;
            for (Salvager.SourceResult s : survey.segments()) {
                long st = s.source().start();
                if (U64.le(st, m.first())) {
                    before = st;
                    holder = s;
                } else if (after == null && U64.gt(st, m.last())) {
                    after = st;
                }
            }
            Where where;
            if (before == null) {
                where = Where.BEFORE;
            } else if (!holder.offsets().isEmpty() && U64.gt(last(holder.offsets()), m.last())) {
                where = Where.INSIDE;
            } else {
                where = after == null ? Where.AT_END : Where.BETWEEN;
            }
            boolean here = where == Where.INSIDE && before == r.segmentStart();
            long pos = here && r instanceof Refusal.OffsetDiscontinuity d ? d.position() : -1;
            missing.add(new Missing(m, where, before, after, here ? dmgFrom : -1, here ? dmgTo : -1, pos));
        }
        OffsetRanges leaving = new OffsetRanges();
        long bytes = 0;
        for (Salvager.SourceResult s : survey.segments()) {
            long start = s.source().start();
            boolean whole = plan == Plan.MOVE_SEGMENTS_ASIDE ? U64.ge(start, segment)
                    : plan == Plan.MOVE_EMPTY_ASIDE ? start == segment
                    : plan == Plan.CUT_LOG && U64.gt(start, segment);
            if (whole) {
                leaving.addAll(s.offsets());
                bytes = U64.addSat(bytes, s.bytes());
            } else if (plan == Plan.CUT_LOG && start == segment) {
                bytes = U64.addSat(bytes, U64.subSat(s.bytes(), position));
            }
        }
        for (Salvager.SourceResult s : survey.segments()) {
            if (plan == Plan.CUT_LOG && s.source().start() == segment) {
                // the records at or past the cut leave; those below it stay, even past the survey's byte-0 break
                // (durable mode reads below the last index entry only by headers, so its cut can lie beyond it).
                // A survey made without the cut gives no positions: then every record past the break is counted
                Salvager.PastCut past = s.pastCut();
                leaving.addAll(past != null && past.position() == position ? past.offsets() : s.pastDamage());
            }
        }
        return new AtStake(r, List.copyOf(missing), survey.archived().list(),
                new Cut(plan, segment, position, leaving.list(), bytes));
    }
}
