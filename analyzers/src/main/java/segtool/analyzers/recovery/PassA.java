package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;

/**
 * Pass A of RECOVERY 4: bound one segment without touching it. {@link #judge} runs 4.1 (sizes and entries) and
 * the decision steps A1-A7 of 4.3; {@link #judgeCheckpointSegment} the WAL-checkpoint variant of section 9. The
 * checks (the scan, the walks, the probe, the anchor search) return values; this pass writes what they found and
 * the result into the segment's report. A refusal is thrown and ends the partition load.
 */
final class PassA {
    private final RecoveryOptions options;
    private final long partitionId;
    private final boolean durable;
    private final Budget budget;
    private final Sweep sweep;
    private boolean keptEntries;

    PassA(RecoveryOptions options, long partitionId, boolean durable, Budget budget, Sweep sweep) {
        this.options = options;
        this.partitionId = partitionId;
        this.durable = durable;
        this.budget = budget;
        this.sweep = sweep;
    }

    /**
     * From now on, a segment kept at step A6 because W(first) walked from byte 0 to the end of the log also carries,
     * as its rebuilt entries, the index R() would write: R() from byte 0 takes exactly the records that walk took
     * (the same start, expected offset and checks, RECOVERY 4.5-4.6) and its probe starts at the end of the log,
     * where there is nothing to probe. {@code rebuild-index} then needs no second walk. The verdict is unchanged.
     */
    PassA withKeptEntries() {
        keptEntries = true;
        return this;
    }

    /** One segment of the partition, 4.1 to 4.10. */
    void judge(SegmentDraft seg) throws IOException, Refusal.Raised {
        stat(seg);
        decideStatted(seg);
    }

    /**
     * 4.1 to 4.10 for one segment as the next boot runs them once its log is cut to {@code length} bytes and its
     * index to its first {@code entries} whole entries (neither grows): what a cut that only truncates leaves.
     */
    void judgeCut(SegmentDraft seg, long length, long entries) throws IOException, Refusal.Raised {
        stat(seg);
        if (U64.lt(length, seg.logLength)) {
            seg.logLength = length;
        }
        if (entries < seg.entries) {
            seg.entries = entries;
            seg.indexLength = entries * IndexEntry.LENGTH;
        }
        decideStatted(seg);
    }

    private void decideStatted(SegmentDraft seg) throws IOException, Refusal.Raised {
        try (SegmentLog log = open(seg, seg.logLength)) {
            if (seg.entries == 0) {
                seg.step = DecisionStep.NO_ENTRIES;
                if (seg.indexLength > 0) {
                    // RECOVERY 4.1 step 2: a nonzero index is opened even when it holds no whole entry
                    openIndex(seg).close();
                }
                if (seg.logLength > 0) {
                    useRebuild(seg, rebuild(seg, log));
                } else {
                    empty(seg);
                }
                return;
            }
            try (IndexFile index = openIndex(seg)) {
                if (index.entries() < seg.entries) {
                    throw IoFailure.raise(seg.index, IoFailure.READ, "shrank while being read");
                }
                decide(seg, log, index);
            }
        }
    }

    /** The decision procedure of RECOVERY 4.3, steps A1-A7, for a segment with {@code n >= 1} entries. */
    private void decide(SegmentDraft seg, SegmentLog log, IndexFile index) throws IOException, Refusal.Raised {
        long n = seg.entries;
        seg.first = index.entry(0);
        seg.last = index.entry(n - 1);
        // A1
        seg.scan = IndexScan.of(index, n, log);
        if (!seg.scan.structural()) {
            seg.step = DecisionStep.A2;
            useRebuild(seg, rebuild(seg, log));
            return;
        }
        // A3
        Walks walks = new Walks(log, options.walked());
        Walk w = walks.anchored("W(last)", seg.last);
        seg.fromLast = w;
        if (!w.provedMessages()) {
            seg.step = DecisionStep.A4;
            if (durable) {
                seg.anchorSearch = AnchorSearch.search(log, index, n, budget, true);
                if (n - seg.anchorSearch.provableEntries() > RecoveryEngine.MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES) {
                    AnchorSearch as = seg.anchorSearch;
                    throw new Refusal.Raised(new Refusal.FsyncedLogLoss(seg.start, n, as.provableEntries(),
                            as.provablePosition(), as.searchedEntries()));
                }
            } else {
                // evidence only: the server does not search in lenient mode (RECOVERY 4.8, 8), so nothing this
                // search reads may decide the outcome, a read error included
                try {
                    seg.anchorSearch = AnchorSearch.search(log, index, n, budget, false);
                } catch (IOException notReadByTheServer) {
                    seg.anchorSearch = null;
                }
            }
            Walk r = rebuild(seg, log);
            if (durable) {
                shortfall(seg, r);
            }
            useRebuild(seg, r);
            return;
        }
        seg.anchorSearch = new AnchorSearch(n, seg.last.position(), 0, false, false);
        if (!seg.scan.mappings()) {
            seg.step = DecisionStep.A5;
            Walk r = rebuild(seg, log);
            if (durable) {
                shortfall(seg, r);
            }
            useRebuild(seg, r);
            return;
        }
        if (!durable) {
            seg.step = DecisionStep.A6;
            List<IndexEntry> entries = keptEntries && seg.first.position() == 0 ? new ArrayList<>() : null;
            Walk f = walks.anchored("W(first)", seg.first, entries);
            seg.fromFirst = f;
            if (f.position() == seg.logLength && f.provedMessages()) {
                keep(seg, f.startTimestamp(), f.endTimestamp(), f.endOffset(), seg.logLength);
                if (entries != null) {
                    seg.rebuiltEntries = List.copyOf(entries);
                }
            } else {
                useRebuild(seg, rebuild(seg, log));
            }
            return;
        }
        seg.step = DecisionStep.A7;
        new Probe(log, budget, seg.probes).run(w.position(), true, w.endOffset());
        keep(seg, seg.first.timestamp(), w.endTimestamp(), w.endOffset(), w.position());
        if (seg.last.position() > 0) {
            seg.unread = List.of(Region.unread(0, seg.last.position(), "durable mode: only the 256-byte header at "
                    + "each index entry is checked below the last entry; no checksum is computed (RECOVERY 11.1)"));
        }
    }

    /** R() of RECOVERY 4.6 including its probe; records the walk and the rebuilt entries in the report. */
    private Walk rebuild(SegmentDraft seg, SegmentLog log) throws IOException, Refusal.Raised {
        List<IndexEntry> entries = new ArrayList<>();
        Walk r = new Walks(log, options.walked()).rebuild(entries);
        seg.rebuild = r;
        seg.rebuiltEntries = r.provedMessages() ? List.copyOf(entries) : null;
        new Probe(log, budget, seg.probes).run(r.position(), r.provedMessages(), r.endOffset());
        return r;
    }

    /** Shortfall(r, last.position) of RECOVERY 4.9. */
    private void shortfall(SegmentDraft seg, Walk r) throws Refusal.Raised {
        long walked = r.provedMessages() ? r.position() : 0;
        long durablePosition = seg.last.position();
        if (U64.lt(walked, durablePosition)) {
            throw new Refusal.Raised(new Refusal.FsyncedRebuildShortfall(seg.start, seg.entries, walked,
                    durablePosition));
        }
    }

    /** R() alone, probe included, for {@code rebuild-index}: REBUILT, EMPTY, or the probe's refusal thrown. */
    void rebuildOnly(SegmentDraft seg, long length) throws IOException, Refusal.Raised {
        stat(seg);
        seg.step = DecisionStep.REBUILD_ONLY;
        if (U64.lt(length, seg.logLength)) {
            seg.logLength = length;
        }
        try (SegmentLog log = open(seg, seg.logLength)) {
            useRebuild(seg, rebuild(seg, log));
        }
    }

    /** RECOVERY 9, item 2: the checkpointed segment is rebuilt from its first {@code Lc} bytes. */
    void judgeCheckpointSegment(SegmentDraft seg, Checkpoint cp) throws IOException, Refusal.Raised {
        seg.step = DecisionStep.CHECKPOINT;
        // 9.2: the log's length alone decides the first refusal; the index is ignored by this pass
        seg.logLength = length(seg.log);
        long raw = seg.logLength;
        if (U64.lt(raw, cp.length())) {
            throw new Refusal.Raised(new Refusal.StorageSizeMismatch(seg.start, raw, cp.length()));
        }
        try (SegmentLog log = open(seg, cp.length())) {
            Walk r = rebuild(seg, log);
            long validated = r.provedMessages() ? r.position() : 0;
            if (validated != cp.length()) {
                throw new Refusal.Raised(new Refusal.CheckpointSizeMismatch(seg.start, validated, cp.length()));
            }
            if (r.provedMessages()) {
                rebuilt(seg, r);
            } else {
                seg.result = SegmentReport.Result.KEEP;
                seg.endOffset = seg.start;
                seg.size = 0;
                seg.indexSize = 0;
            }
        }
        // the index's length, for the plan and the status only: pass C renames the rebuilt index over it without
        // a stat, or (Lc = 0) truncates it, and that truncation's stat is where an unreadable index fails the boot
        try {
            seg.indexLength = length(seg.index);
            seg.entries = seg.indexLength / IndexEntry.LENGTH;
        } catch (IoFailure.Raised unreadable) {
            seg.indexUnreadable = unreadable.failure();
        }
    }

    private SegmentLog open(SegmentDraft seg, long length) throws IOException {
        return SegmentLog.open(options.view().file(seg.log), seg.start, partitionId, length, options);
    }

    /** Opens the index (RECOVERY 4.1 step 2): a failure is transient. */
    private static IndexFile openIndex(SegmentDraft seg) throws IOException {
        try {
            return IndexFile.open(seg.index);
        } catch (IOException e) {
            throw IoFailure.raise(seg.index, IoFailure.OPEN, e);
        }
    }

    /** The lengths boot stats (RECOVERY 4.1): log, index, and whole index entries. */
    private void stat(SegmentDraft seg) throws IOException {
        seg.logLength = length(seg.log);
        seg.indexLength = length(seg.index);
        seg.entries = seg.indexLength / IndexEntry.LENGTH;
    }

    /**
     * Length of a file as the server stats it; swept or missing files read as 0. A FIFO, device or socket under a
     * segment's name is refused (an I/O error), never opened.
     */
    private long length(Path p) throws IOException {
        DirectoryView view = options.view();
        if (sweep.deletes(p) || view.removes(p)) {
            return 0;
        }
        Path file = view.file(p);
        try {
            segtool.formats.io.RegularFile.require(file);
            return view.length(p, Files.size(file));
        } catch (NoSuchFileException missing) {
            return 0;
        } catch (segtool.formats.io.RegularFile.NotRegular special) {
            throw special;
        } catch (IOException e) {
            throw IoFailure.raise(file, IoFailure.STAT, e);
        }
    }

    private static void keep(SegmentDraft seg, long startTs, long endTs, long endOffset, long size) {
        seg.result = SegmentReport.Result.KEEP;
        seg.startTimestamp = startTs;
        seg.endTimestamp = endTs;
        seg.endOffset = endOffset;
        seg.size = size;
        seg.indexSize = seg.entries * IndexEntry.LENGTH;
    }

    private static void useRebuild(SegmentDraft seg, Walk r) {
        seg.rebuild = r;
        if (!r.provedMessages()) {
            empty(seg);
            return;
        }
        rebuilt(seg, r);
    }

    /** The bounds of a REBUILT result: what R() proved, and the rebuilt index. */
    private static void rebuilt(SegmentDraft seg, Walk r) {
        seg.result = SegmentReport.Result.REBUILT;
        seg.startTimestamp = r.startTimestamp();
        seg.endTimestamp = r.endTimestamp();
        seg.endOffset = r.endOffset();
        seg.size = r.position();
        seg.indexSize = (long) seg.rebuiltEntries.size() * IndexEntry.LENGTH;
    }

    /** The bounds of an EMPTY result (RECOVERY 4.10), flagged recovered empty. */
    private static void empty(SegmentDraft seg) {
        seg.result = SegmentReport.Result.EMPTY;
        seg.recoveredEmpty = true;
        seg.startTimestamp = 0;
        seg.endTimestamp = 0;
        seg.endOffset = seg.start;
        seg.size = 0;
        seg.indexSize = 0;
        seg.rebuiltEntries = null;
    }
}
