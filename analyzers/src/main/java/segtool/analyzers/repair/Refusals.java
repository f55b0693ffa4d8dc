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
        switch (r.variant()) {
            case InteriorDamage:
                return seg + ": the log stops verifying at byte " + f(r, "damage_position") + ", but an intact "
                        + "record that continues the offsets starts at byte " + f(r, "survivor_position")
                        + ", so the damage is inside the data, not a torn tail.";
            case UnverifiedResidue:
                return seg + ": the " + f(r, "residue_bytes") + " bytes after byte " + f(r, "damage_position")
                        + " could not be classified within the work budget (" + f(r, "candidates_examined") + "/"
                        + f(r, "budget_units") + " candidates, " + f(r, "verified_bytes") + "/"
                        + f(r, "verify_budget_bytes") + " bytes verified), so they might hold intact records.";
            case OffsetDiscontinuity:
                return seg + ": a record that verifies, at byte " + f(r, "position") + ", carries offset "
                        + f(r, "found_offset") + " where " + f(r, "expected_offset") + " was expected (a gap, "
                        + "a duplicate range or a regression inside the segment).";
            case ForeignBatch:
                return seg + ": the record at byte " + f(r, "position") + " verifies but belongs to partition "
                        + f(r, "batch_partition_id") + ", not to this one.";
            case FsyncedLogLoss:
                return seg + ": durable mode; the index has " + f(r, "entry_count") + " entries but the log proves"
                        + " only " + f(r, "provable_entries") + " (up to byte " + f(r, "provable_position")
                        + ", " + f(r, "searched_entries") + " entries searched): the log lost data a completed "
                        + "fsync had made durable.";
            case FsyncedRebuildShortfall:
                return seg + ": durable mode; rebuilding from byte 0 proves only " + f(r, "walked_position")
                        + " bytes, short of byte " + f(r, "durable_position") + " that the index's last of "
                        + f(r, "entry_count") + " entries says was durable.";
            case EmptyNonTailSegment:
                return "segment " + f(r, "empty_start") + " recovers empty but segment " + f(r, "next_start")
                        + " follows it (" + f(r, "recoverable_bytes") + " recoverable bytes in the partition).";
            case Hole:
                return "segment " + f(r, "previous_start") + " ends at offset " + f(r, "previous_end")
                        + " but the next segment starts at " + f(r, "next_start") + ", and no anchor admits the "
                        + "gap (" + f(r, "recoverable_bytes") + " recoverable bytes in the partition).";
            case StorageSizeMismatch:
                return seg + ": the log is " + f(r, "on_disk_bytes") + " bytes where " + f(r, "expected_bytes")
                        + " were expected.";
            case CheckpointSizeMismatch:
                return seg + ": the WAL checkpoint says " + f(r, "expected_bytes") + " bytes, the log proves "
                        + f(r, "validated_bytes") + ".";
            default:
                return r.toString();
        }
    }

    /** What to do next, most useful first. */
    public static List<String> nextSteps(Refusal r, PartitionReport report) {
        List<String> out = new ArrayList<>();
        String mode = "--enforce-fsync=" + report.durable;
        switch (r.variant()) {
            case InteriorDamage:
                out.add("Restore this segment from another replica or a backup; that is the only repair that loses "
                        + "nothing.");
                out.add("Look at the damage: segtool scan --json " + report.partition.directory() + " " + mode
                        + " (evidence.walks / probes give the positions).");
                out.add("Cutting the log at the damage would also drop the intact records from byte "
                        + f(r, "survivor_position") + " on; segtool will not do that.");
                break;
            case UnverifiedResidue:
                out.add("Inspect the residue from byte " + f(r, "damage_position") + " (segtool scan --json); it is "
                        + "packed with header-like bytes.");
                out.add("Restore the segment from another replica or a backup if the residue may hold acknowledged"
                        + " messages.");
                break;
            case OffsetDiscontinuity:
            case ForeignBatch:
                out.add("Check that the files in " + report.partition.directory() + " belong to this partition "
                        + "(id " + report.partition.partitionId() + ") and were not copied or renamed from another "
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
                        + report.partition.directory().getFileName() + ".fenced.<n> directory) and put them back.");
                out.add("recoverable_bytes = " + report.recoverableBytes + (report.recoverableBytes == 0
                        ? ": the chain holds nothing servable; the server's single-replica path may discard it."
                        : ": the chain holds data; restore it from another replica or a backup."));
                break;
            default:
                out.add("Inspect with segtool scan --json; restore from another replica or a backup.");
        }
        out.add("On boot the server will refuse this partition too: it fences the files into "
                + report.partition.directory().getFileName() + ".fenced.<n> or tombstones the partition.");
        return out;
    }

    private static String f(Refusal r, String name) {
        Long v = r.fields().get(name);
        return v == null ? "?" : U64.str(v);
    }
}
