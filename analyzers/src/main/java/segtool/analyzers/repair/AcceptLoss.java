package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.salvage.AtStake;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * {@code repair --accept-loss}: for one refusal, the cut that removes it, keeping the oldest verified prefix and
 * dropping what follows (docs/repair.md, "repair --accept-loss"; not always the fewest offsets, RECOVERY 5), as a
 * {@link RepairPlan} the {@link Applier} carries out like any other, quarantine first. The kind of cut is
 * {@link AtStake}'s, per RECOVERY 7.1 variant:
 * <ul>
 *   <li>a log cut (InteriorDamage, UnverifiedResidue, OffsetDiscontinuity, ForeignBatch): the segment's log is
 *       truncated at the refusal's position, every later segment is moved aside (its files go into the quarantine),
 *       and in durable mode the segment's index is truncated to the entries below the cut when the next boot's pass A
 *       keeps them over the cut log (RECOVERY 4.3 A7: the writer's index stays); otherwise the segment's index
 *       becomes the one the next boot's R() proves over the kept bytes, or, when R() over
 *       them proves less than the walk that refused (durable mode reads below the last entry only by headers), the
 *       entries below the cut are kept;</li>
 *   <li>moving segments aside (Hole, EmptyNonTailSegment): their files go into the quarantine;</li>
 *   <li>a rebuilt index (FsyncedLogLoss, FsyncedRebuildShortfall): the index is replaced by the one R() proves,
 *       the log cut where R() ends; where R() itself refuses or proves nothing, the index is emptied so that the
 *       next judgement takes R()'s path, and the next cut answers whatever it finds.</li>
 * </ul>
 * The sizes refusals (StorageSizeMismatch, CheckpointSizeMismatch) and any partition judged with a WAL checkpoint
 * (the WAL owns the bytes past it, METADATA 6.7; U2, U9 leave its contract unsettled) have no safe cut:
 * {@link Unsafe}. Reads only.
 */
public final class AcceptLoss {
    /** The command name stamped into the quarantine manifest of a cut. */
    public static final String COMMAND = "repair --accept-loss";

    /** There is no least-loss action segtool can take safely for this refusal; the message is one line. */
    public static final class Unsafe extends Exception {
        public Unsafe(String line) {
            super(line, null, false, false);
        }
    }

    private AcceptLoss() {
    }

    /** One line when accept-loss cannot act on a partition judged with a WAL checkpoint, else null. */
    public static String checkpointed(RecoveryEngine engine) {
        if (engine.options().checkpoint() == null) {
            return null;
        }
        return "the partition's WAL frontier holds a checkpoint, so the WAL owns the bytes past it (METADATA 6.7) "
                + "and how the server reconciles a cut log with it is unsettled (METADATA 8 U2, U9); segtool will "
                + "not cut it: restore from a replica or a backup, or salvage it";
    }

    /** The plan of the least-loss cut for the refusal of {@code refused}, as {@code stake} describes it. */
    public static RepairPlan plan(RecoveryEngine engine, PartitionReport refused, AtStake stake)
            throws IOException, Unsafe {
        Refusal r = refused.refusal();
        if (r == null || refused.outcome() != PartitionReport.Outcome.REFUSED) {
            throw new IllegalArgumentException("not refused: " + refused.partition().directory());
        }
        String checkpoint = checkpointed(engine);
        if (checkpoint != null) {
            throw new Unsafe(checkpoint);
        }
        Path dir = refused.partition().directory();
        String stray = strayNames(dir, refused);
        if (stray != null) {
            throw new Unsafe(stray);
        }
        AtStake.Cut cut = stake.cut();
        List<PlannedOp> ops = new ArrayList<>();
        switch (cut.plan()) {
            case CUT_LOG -> {
                cutLog(engine, refused, cut.segment(), cut.position(), ops);
                moveAside(dir, starts(refused, s -> U64.gt(s, cut.segment())), ops);
            }
            case MOVE_SEGMENTS_ASIDE -> moveAside(dir, starts(refused, s -> U64.ge(s, cut.segment())), ops);
            case MOVE_EMPTY_ASIDE -> moveAside(dir, Set.of(cut.segment()), ops);
            case REBUILD_INDEX -> rebuildIndex(engine, refused, cut.segment(), ops);
            default -> throw new Unsafe(r.variant() + " is about sizes, not offsets: no cut of the files removes it;"
                    + " restore from a replica or a backup, or re-run the boot that made them");
        }
        if (ops.isEmpty()) {
            throw new Unsafe("no change to the files removes " + r + "; segtool will not guess further");
        }
        return Planner.acceptLoss(refused, ops, "accept-loss cut for " + r.variant());
    }

    /**
     * One line when the refused load holds duplicate or non-canonical start offsets (a stray {@code 0.log} beside
     * {@code 00000000000000000000.log}, say), else null. RECOVERY 3 and 13.4 leave the server's behaviour with such
     * names unsettled: they are reported, not emulated, so no cut is planned around them (a Hole they make would
     * otherwise move every real segment aside).
     */
    static String strayNames(Path dir, PartitionReport refused) throws IOException {
        Set<String> stray = new TreeSet<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.LOG))) {
            for (Path p : all) {
                String name = p.getFileName().toString();
                String stem = SegmentFiles.stemOf(name);
                if (SegmentFiles.startOffsetOf(stem) != null && !SegmentFiles.isCanonical(stem)) {
                    stray.add(name);
                }
            }
        }
        Set<Long> seen = new TreeSet<>(Long::compareUnsigned);
        Set<Long> twice = new TreeSet<>(Long::compareUnsigned);
        for (SegmentReport s : refused.segments()) {
            if (!seen.add(s.start())) {
                twice.add(s.start());
            }
        }
        if (stray.isEmpty() && twice.isEmpty()) {
            return null;
        }
        StringBuilder what = new StringBuilder();
        if (!stray.isEmpty()) {
            what.append("non-canonical segment name(s) ").append(String.join(", ", stray));
        }
        if (!twice.isEmpty()) {
            what.append(what.length() > 0 ? "; " : "").append("start offset(s) loaded more than once: ")
                    .append(String.join(", ", twice.stream().map(U64::str).toList()));
        }
        return what + ": the server's reading of such names is unsettled (RECOVERY 3, 13.4), so segtool reports "
                + "them and will not cut around them; move the stray files aside by hand (plain `repair` reports "
                + "them), then run --accept-loss again";
    }

    private interface StartFilter {
        boolean test(long start);
    }

    /** The distinct start offsets of the refused load's segment list, filtered. */
    private static Set<Long> starts(PartitionReport refused, StartFilter keep) {
        Set<Long> out = new TreeSet<>(Long::compareUnsigned);
        for (SegmentReport s : refused.segments()) {
            if (keep.test(s.start())) {
                out.add(s.start());
            }
        }
        return out;
    }

    /** Log cut at {@code position} of segment {@code start}, and the index the next boot accepts over the rest. */
    private static void cutLog(RecoveryEngine engine, PartitionReport refused, long start, long position,
                               List<PlannedOp> ops) throws IOException {
        Path dir = refused.partition().directory();
        Path log = SegmentFiles.log(dir, start);
        Path index = SegmentFiles.index(dir, start);
        long logLength = Planner.size(log);
        long indexLength = Planner.size(index);
        long cutAt = U64.lt(position, logLength) ? position : logLength;
        if (cutAt < logLength) {
            ops.add(new PlannedOp.TruncateLog(log, start, logLength, cutAt));
        }
        long below = entriesBelow(index, indexLength, cutAt);
        if (refused.durable() && below > 0) {
            // RECOVERY 4.3 A7, 8: a durable boot keeps the writer's index (24·n) over a log it verifies from the last
            // entry on; when it would keep the entries below the cut over the cut log, truncating is all it needs
            SegmentReport kept = engine.judgeCut(refused.partition(), start, true, cutAt, below);
            if (kept.result() == SegmentReport.Result.KEEP && kept.size() == cutAt) {
                if (below * IndexEntry.LENGTH != indexLength) {
                    ops.add(new PlannedOp.TruncateIndex(index, start, indexLength, below * IndexEntry.LENGTH));
                }
                return;
            }
        }
        SegmentReport r = engine.rebuildWalk(refused.partition(), start, refused.durable(), cutAt);
        if (r.result() == SegmentReport.Result.REBUILT && r.size() == cutAt) {
            install(dir, start, index, indexLength, r.rebuiltEntries(), ops);
            return;
        }
        if (r.result() == SegmentReport.Result.EMPTY || cutAt == 0) {
            if (indexLength > 0) {
                ops.add(new PlannedOp.TruncateIndex(index, start, indexLength, 0));
            }
            return;
        }
        // R() over the kept bytes proves less than the walk that refused: keep the entries below the cut, so the
        // next boot walks from the last of them as this one did
        if (below * IndexEntry.LENGTH != indexLength) {
            ops.add(new PlannedOp.TruncateIndex(index, start, indexLength, below * IndexEntry.LENGTH));
        }
    }

    /** How many of the index's first whole entries point below {@code cutAt}. */
    private static long entriesBelow(Path index, long indexLength, long cutAt) throws IOException {
        long keep = 0;
        if (indexLength >= IndexEntry.LENGTH) {
            try (IndexFile file = IndexFile.open(index)) {
                long n = indexLength / IndexEntry.LENGTH;
                while (keep < n && U64.lt(file.entry(keep).position(), cutAt)) {
                    keep++;
                }
            }
        }
        return keep;
    }

    /** R() over the whole log: its index installed and its end cut; else the index emptied (R() at next boot). */
    private static void rebuildIndex(RecoveryEngine engine, PartitionReport refused, long start, List<PlannedOp> ops)
            throws IOException {
        Path dir = refused.partition().directory();
        Path log = SegmentFiles.log(dir, start);
        Path index = SegmentFiles.index(dir, start);
        long logLength = Planner.size(log);
        long indexLength = Planner.size(index);
        SegmentReport r = engine.rebuildWalk(refused.partition(), start, refused.durable());
        if (r.result() == SegmentReport.Result.REBUILT) {
            if (U64.lt(r.size(), logLength)) {
                ops.add(new PlannedOp.TruncateLog(log, start, logLength, r.size()));
            }
            install(dir, start, index, indexLength, r.rebuiltEntries(), ops);
        } else if (indexLength > 0) {
            ops.add(new PlannedOp.TruncateIndex(index, start, indexLength, 0));
        }
    }

    private static void install(Path dir, long start, Path index, long indexLength, List<IndexEntry> entries,
                                List<PlannedOp> ops) {
        Path staging = SegmentFiles.indexStaging(dir, start);
        if (Files.exists(staging, LinkOption.NOFOLLOW_LINKS)) {
            ops.add(0, new PlannedOp.Delete(staging, "stale scratch file; accept-loss writes this name"));
        }
        ops.add(new PlannedOp.StageIndex(staging, start, entries));
        ops.add(new PlannedOp.InstallIndex(index, start, staging, entries, indexLength));
    }

    /**
     * Every file of the segments {@code starts} moved into the quarantine: the canonical log, index and anchor, and
     * any non-canonical {@code .log} whose stem parses to the same start (boot reads it as that segment, RECOVERY 3).
     */
    private static void moveAside(Path dir, Set<Long> starts, List<PlannedOp> ops) throws IOException {
        List<Path> files = new ArrayList<>();
        for (long s : starts) {
            files.add(SegmentFiles.log(dir, s));
            files.add(SegmentFiles.index(dir, s));
            files.add(SegmentFiles.anchor(dir, s));
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.LOG))) {
            for (Path p : all) {
                String stem = SegmentFiles.stemOf(p.getFileName().toString());
                Long s = SegmentFiles.startOffsetOf(stem);
                if (s != null && starts.contains(s) && !SegmentFiles.isCanonical(stem)) {
                    files.add(p);
                }
            }
        }
        for (Path f : files) {
            if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                ops.add(new PlannedOp.Delete(f, "moved aside by the accept-loss cut (the quarantine keeps it)"));
            }
        }
    }
}
