package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;

/**
 * The regions of each log of a judged partition ({@link LogRegions}), drawn from the report's evidence and, where
 * the report cannot say, a few bounded reads: how far a damaged record claims to reach, the length of the record a
 * refusal names, and the run of records that verify after an InteriorDamage survivor. Never changes a verdict: a
 * read error here leaves a region unexamined.
 */
final class Regions {
    private final RecoveryOptions options;

    Regions(RecoveryOptions options) {
        this.options = options.withThreads(1);
    }

    List<LogRegions> of(PartitionReport r) {
        List<LogRegions> out = new ArrayList<>();
        for (SegmentReport s : r.segments()) {
            RecoveryEngine.checkCancelled();
            out.add(segment(r, s));
        }
        return out;
    }

    private LogRegions segment(PartitionReport r, SegmentReport s) {
        if (s.result() == SegmentReport.Result.NOT_EXAMINED) {
            long log = sizeOnDisk(s.log(), options.view());
            return new LogRegions(s.start(), log, sizeOnDisk(s.index(), options.view()),
                    new RegionCanvas(log, Region.Kind.UNEXAMINED).regions(), null);
        }
        long len = s.logLength();
        RegionCanvas c = new RegionCanvas(len, Region.Kind.UNEXAMINED);
        Refusal here = r.refusal() != null && r.refusal().segmentStart() == s.start()
                && s.result() == SegmentReport.Result.REFUSED ? r.refusal() : null;
        Survivors survivors = null;
        switch (s.result()) {
            case KEEP:
            case REBUILT:
                c.paint(0, s.size(), Region.Kind.VERIFIED);
                for (Region g : s.unread()) {
                    c.paint(g.from(), g.to(), Region.Kind.UNREAD);
                }
                c.paint(s.size(), len, s.logCut() != null || s.step() != DecisionStep.CHECKPOINT
                        ? Region.Kind.TORN_TAIL : Region.Kind.PAST_CHECKPOINT);
                break;
            case EMPTY:
                // pass C moves the bytes aside (6.2); a refused partition keeps them as they are, unproved
                c.paint(0, len, r.outcome() == PartitionReport.Outcome.ACCEPTED ? Region.Kind.FENCED
                        : Region.Kind.RESIDUE);
                break;
            case REFUSED:
                if (here != null) {
                    try (SegmentLog log = SegmentLog.open(options.view().file(s.log()), s.start(), r.partition().partitionId(), len,
                            options)) {
                        survivors = refused(c, s, r, here, log);
                    } catch (IOException unreadable) {
                        // evidence only: what could not be read stays as painted so far
                    }
                } else if (s.rebuild() != null) {
                    c.paint(0, s.rebuild().position(), Region.Kind.VERIFIED);
                }
                break;
            default:
                break;
        }
        return new LogRegions(s.start(), len, s.indexLength(), c.regions(), survivors);
    }

    /** Paints the segment a pass-A refusal is about; returns the survivors of an InteriorDamage. */
    private Survivors refused(RegionCanvas c, SegmentReport s, PartitionReport r, Refusal here, SegmentLog log)
            throws IOException {
        long len = s.logLength();
        if (here instanceof Refusal.InteriorDamage) {
            Refusal.InteriorDamage x = (Refusal.InteriorDamage) here;
            long dmg = x.damagePosition();
            Walk w = walkEndingAt(s, dmg);
            if (w != null) {
                c.paint(w.from(), dmg, Region.Kind.VERIFIED);
                if (r.durable() && w.from() > 0) {
                    c.paint(0, w.from(), Region.Kind.UNREAD);
                }
            }
            Survivors survivors = survivors(log, x.survivorPosition());
            c.paint(dmg, x.survivorPosition(), Region.Kind.RESIDUE);
            c.paint(dmg, damagedEnd(log, dmg, x.survivorPosition()), Region.Kind.DAMAGED);
            c.paint(x.survivorPosition(), survivors.to(), Region.Kind.SURVIVOR);
            return survivors;
        }
        if (here instanceof Refusal.UnverifiedResidue) {
            long dmg = ((Refusal.UnverifiedResidue) here).damagePosition();
            Walk w = walkEndingAt(s, dmg);
            if (w != null) {
                c.paint(w.from(), dmg, Region.Kind.VERIFIED);
            }
            c.paint(dmg, len, Region.Kind.RESIDUE);
            return null;
        }
        if (here instanceof Refusal.ForeignBatch || here instanceof Refusal.OffsetDiscontinuity) {
            boolean foreign = here instanceof Refusal.ForeignBatch;
            long pos = foreign ? ((Refusal.ForeignBatch) here).position()
                    : ((Refusal.OffsetDiscontinuity) here).position();
            Walk w = s.refusedWalk();
            if (w != null && w.records() > 0) {
                c.paint(w.from(), pos, Region.Kind.VERIFIED);
            }
            // the record verified, so its header is there and its length is known
            BatchHeader h = log.headerAt(pos).header();
            c.paint(pos, h != null ? U64.addSat(pos, h.batchLength()) : U64.addSat(pos, BatchHeader.LENGTH),
                    foreign ? Region.Kind.FOREIGN_BATCH : Region.Kind.STALE_BATCH);
            return null;
        }
        if (here instanceof Refusal.FsyncedRebuildShortfall) {
            long walked = ((Refusal.FsyncedRebuildShortfall) here).walkedPosition();
            c.paint(0, walked, Region.Kind.VERIFIED).paint(walked, len, Region.Kind.TORN_TAIL);
            return null;
        }
        if (here instanceof Refusal.FsyncedLogLoss) {
            Refusal.FsyncedLogLoss x = (Refusal.FsyncedLogLoss) here;
            if (x.provableEntries() > 0) {
                BatchHeader h = log.headerAt(x.provablePosition()).header();
                if (h != null) {
                    c.paint(x.provablePosition(), U64.addSat(x.provablePosition(), h.batchLength()),
                            Region.Kind.VERIFIED);
                }
            }
            return null;
        }
        if (s.rebuild() != null) {
            c.paint(0, s.rebuild().position(), Region.Kind.VERIFIED);
        }
        return null;
    }

    private static Walk walkEndingAt(SegmentReport s, long pos) {
        for (Walk w : new Walk[]{s.rebuild(), s.fromFirst(), s.fromLast()}) {
            if (w != null && w.position() == pos && !w.stop().atEnd()) {
                return w;
            }
        }
        return null;
    }

    /** Where the damaged record ends: its claimed end when its header decodes, else one header's worth. */
    private static long damagedEnd(SegmentLog log, long dmg, long limit) throws IOException {
        BatchHeader h = log.decodedAt(dmg);
        long claimedEnd = h == null ? dmg : U64.addSat(dmg, h.batchLength());
        long end = U64.gt(claimedEnd, dmg) ? claimedEnd : U64.addSat(dmg, BatchHeader.LENGTH);
        return U64.min(end, limit);
    }

    /**
     * Follows records that frame and verify from {@code from} as far as they go, with no offset or partition check.
     * Records longer than one buffer can address (2^31-1 bytes) end the run.
     */
    private Survivors survivors(SegmentLog log, long from) throws IOException {
        long len = log.length();
        long ceiling = Math.max(BatchHeader.LENGTH, U64.min(options.maxBatchBytes(), Integer.MAX_VALUE));
        long pos = from;
        long records = 0;
        long first = -1;
        long last = -1;
        String stop;
        while (true) {
            RecoveryEngine.checkCancelled();
            if (U64.ge(pos, len)) {
                stop = "the end of the log";
                break;
            }
            long left = len - pos;
            if (left < BatchHeader.LENGTH) {
                stop = "only " + left + " bytes left at " + U64.str(pos) + ", too few for a 256-byte header";
                break;
            }
            HeaderAt at = log.headerAt(pos);
            BatchHeader h = at.found() ? at.header() : log.decodedAt(pos);
            if (h == null) {
                stop = at.none().defect().describe();
                break;
            }
            if (U64.gt(h.batchLength(), ceiling)) {
                stop = "batch_length " + U64.str(h.batchLength()) + " at " + U64.str(pos)
                        + " exceeds MAX_RECOVERABLE_BATCH_BYTES (" + U64.str(ceiling) + ")";
                break;
            }
            if (h.batchLength() > left) {
                stop = Defect.of(Defect.Code.RUNS_PAST_EOF, pos, 0, left, h.batchLength()).describe();
                break;
            }
            Defect d = log.verify(pos, h.batchLength());
            if (d != null) {
                stop = d.describe();
                break;
            }
            if (h.messageCount() > 0) {
                if (first == -1) {
                    first = h.baseOffset();
                }
                last = h.endOffset();
            }
            records++;
            pos += h.batchLength();
        }
        return new Survivors(from, pos, records, first, last, stop);
    }

    /** A file's length (in the WAL open's view) for a segment the load never reached; missing or unreadable: 0. */
    private static long sizeOnDisk(Path p, DirectoryView view) {
        try {
            return view.removes(p) ? 0 : view.length(p, Files.size(view.file(p)));
        } catch (IOException e) {
            return 0;
        }
    }
}
