package segtool.analyzers.repair;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.Refusal;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * Why segtool will not repair a refused partition, in words, and what a person can do next. segtool never acts on
 * a refusal: the server itself would not start the partition, and every way forward discards or invents data that
 * only a person (or another replica) can vouch for.
 */
public final class Refusals {
    private Refusals() {
    }

    /** One sentence naming what the server found, with the refusal's fields. */
    public static String explain(Refusal r) {
        String seg = SegmentFiles.stem(r.segmentStart()) + ".log";
        if (r instanceof Refusal.InteriorDamage) {
            Refusal.InteriorDamage f = (Refusal.InteriorDamage) r;
            return seg + ": the log stops verifying at byte " + u(f.damagePosition()) + ", but an intact "
                    + "record that continues the offsets starts at byte " + u(f.survivorPosition())
                    + ", so the damage is inside the data, not a torn tail.";
        }
        if (r instanceof Refusal.UnverifiedResidue) {
            Refusal.UnverifiedResidue f = (Refusal.UnverifiedResidue) r;
            return seg + ": the " + u(f.residueBytes()) + " bytes after byte " + u(f.damagePosition())
                    + " could not be classified within the work budget (" + u(f.candidatesExamined()) + "/"
                    + u(f.budgetUnits()) + " candidates, " + u(f.verifiedBytes()) + "/"
                    + u(f.verifyBudgetBytes()) + " bytes verified), so they might hold intact records.";
        }
        if (r instanceof Refusal.OffsetDiscontinuity) {
            Refusal.OffsetDiscontinuity f = (Refusal.OffsetDiscontinuity) r;
            return seg + ": a record that verifies, at byte " + u(f.position()) + ", carries offset "
                    + u(f.foundOffset()) + " where " + u(f.expectedOffset()) + " was expected (a gap, "
                    + "a duplicate range or a regression inside the segment).";
        }
        if (r instanceof Refusal.ForeignBatch) {
            Refusal.ForeignBatch f = (Refusal.ForeignBatch) r;
            return seg + ": the record at byte " + u(f.position()) + " verifies but belongs to partition "
                    + u(f.batchPartitionId()) + ", not to this one.";
        }
        if (r instanceof Refusal.FsyncedLogLoss) {
            Refusal.FsyncedLogLoss f = (Refusal.FsyncedLogLoss) r;
            return seg + ": durable mode; the index has " + u(f.entryCount()) + " entries but the log proves"
                    + " only " + u(f.provableEntries()) + " (up to byte " + u(f.provablePosition())
                    + ", " + u(f.searchedEntries()) + " entries searched): the log lost data a completed "
                    + "fsync had made durable.";
        }
        if (r instanceof Refusal.FsyncedRebuildShortfall) {
            Refusal.FsyncedRebuildShortfall f = (Refusal.FsyncedRebuildShortfall) r;
            return seg + ": durable mode; rebuilding from byte 0 proves only " + u(f.walkedPosition())
                    + " bytes, short of byte " + u(f.durablePosition()) + " that the index's last of "
                    + u(f.entryCount()) + " entries says was durable.";
        }
        if (r instanceof Refusal.EmptyNonTailSegment) {
            Refusal.EmptyNonTailSegment f = (Refusal.EmptyNonTailSegment) r;
            return "segment " + u(f.emptyStart()) + " recovers empty but segment " + u(f.nextStart())
                    + " follows it (" + u(f.recoverableBytes()) + " recoverable bytes in the partition).";
        }
        if (r instanceof Refusal.Hole) {
            Refusal.Hole f = (Refusal.Hole) r;
            return "segment " + u(f.previousStart()) + " ends at offset " + u(f.previousEnd())
                    + " but the next segment starts at " + u(f.nextStart()) + ", and no anchor admits the "
                    + "gap (" + u(f.recoverableBytes()) + " recoverable bytes in the partition).";
        }
        if (r instanceof Refusal.StorageSizeMismatch) {
            Refusal.StorageSizeMismatch f = (Refusal.StorageSizeMismatch) r;
            return seg + ": the log is " + u(f.onDiskBytes()) + " bytes where " + u(f.expectedBytes())
                    + " were expected.";
        }
        Refusal.CheckpointSizeMismatch f = (Refusal.CheckpointSizeMismatch) r;
        return seg + ": the WAL checkpoint says " + u(f.expectedBytes()) + " bytes, the log proves "
                + u(f.validatedBytes()) + ".";
    }

    /** What to do next, most useful first. */
    public static List<String> nextSteps(Refusal r, PartitionReport report) {
        List<String> out = new ArrayList<>();
        String mode = "--enforce-fsync=" + report.durable();
        switch (r.variant()) {
            case InteriorDamage:
                out.add("Restore this segment from another replica or a backup; that is the only repair that loses "
                        + "nothing.");
                out.add("Look at the damage: segtool scan --json " + report.partition().directory() + " " + mode
                        + " (evidence.walks / probes give the positions).");
                out.add("Cutting the log at the damage would also drop the intact records from byte "
                        + u(((Refusal.InteriorDamage) r).survivorPosition()) + " on; segtool will not do that.");
                break;
            case UnverifiedResidue:
                out.add("Inspect the residue from byte " + u(((Refusal.UnverifiedResidue) r).damagePosition())
                        + " (segtool scan --json); it is "
                        + "packed with header-like bytes.");
                out.add("Restore the segment from another replica or a backup if the residue may hold acknowledged"
                        + " messages.");
                break;
            case OffsetDiscontinuity:
            case ForeignBatch:
                out.add("Check that the files in " + report.partition().directory() + " belong to this partition "
                        + "(id " + report.partition().partitionId() + ") and were not copied or renamed from another "
                        + "one; --partition-id changes the id segtool checks against.");
                out.add("Restore the partition from another replica or a backup.");
                break;
            case FsyncedLogLoss:
            case FsyncedRebuildShortfall:
                out.add("Confirm the topic really has enforce_fsync = true; if it does not, re-run with "
                        + "--enforce-fsync=false (the verdict depends on it).");
                out.add("If it does, durable data is missing: restore from another replica or a backup rather than"
                        + " rebuilding, which could re-issue offsets already returned to clients.");
                break;
            case EmptyNonTailSegment:
            case Hole:
                out.add("Look for the missing segment files (moved, deleted or left in a "
                        + report.partition().directory().getFileName() + ".fenced.<n> directory) and put them back.");
                out.add("recoverable_bytes = " + report.recoverableBytes() + (report.recoverableBytes() == 0
                        ? ": the chain holds nothing servable; the server's single-replica path may discard it."
                        : ": the chain holds data; restore it from another replica or a backup."));
                break;
            default:
                out.add("Inspect with segtool scan --json; restore from another replica or a backup.");
        }
        out.add("On boot the server will refuse this partition too: it fences the files into "
                + report.partition().directory().getFileName() + ".fenced.<n> or tombstones the partition.");
        return out;
    }

    private static String u(long v) {
        return U64.str(v);
    }
}
