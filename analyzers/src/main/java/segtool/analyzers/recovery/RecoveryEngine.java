package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Reproduces the server's boot recovery of one partition (RECOVERY.md) without changing a byte: the sweep plan,
 * pass A over every segment in ascending order with one shared budget, pass B's chain guard, and pass C's plan as
 * an ordered list of file operations. Files are opened read-only; files the sweep would delete are treated as
 * already gone, as they are by the time the server reads segments.
 *
 * <p>Beyond the verdict it records evidence for explanations: every walk and where it stopped, every probe, the
 * anchor search (also measured in lenient mode, without charging the budget), and the regions boot leaves unread.
 */
public final class RecoveryEngine {
    public static final long MAX_MESSAGE_SIZE_UPPER_BYTES = 268_435_456L;
    public static final long REBUILT_INDEX_STRIDE_BYTES = 65_536;
    public static final long MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES = 1;
    public static final long MAX_INDEX_ANCHOR_PROBE_ENTRIES = 4_096;
    public static final int FENCED_DIR_PROBE_LIMIT = 1_000;

    /**
     * Tool parameters. {@code maxMessageSizeUpperBytes} is the server build's {@code MAX_MESSAGE_SIZE_UPPER_BYTES}
     * (RECOVERY 13.1); {@code window} the read window per open log; {@code threads} how many cores verify records
     * ahead of the walk; {@code checkpoint} the WAL checkpoint for section 9, usually null.
     */
    public record Options(long maxMessageSizeUpperBytes, int window, int threads, Checkpoint checkpoint,
                          LongConsumer walked) {
        public static Options defaults() {
            return new Options(MAX_MESSAGE_SIZE_UPPER_BYTES, SegmentChannel.DEFAULT_WINDOW,
                    Integer.getInteger("segtool.threads", Runtime.getRuntime().availableProcessors()), null,
                    bytes -> { });
        }

        public Options withCheckpoint(Checkpoint c) {
            return new Options(maxMessageSizeUpperBytes, window, threads, c, walked);
        }

        public Options withThreads(int n) {
            return new Options(maxMessageSizeUpperBytes, window, n, checkpoint, walked);
        }

        public Options withMaxMessageSizeUpper(long bytes) {
            return new Options(bytes, window, threads, checkpoint, walked);
        }

        public Options withWindow(int bytes) {
            return new Options(maxMessageSizeUpperBytes, bytes, threads, checkpoint, walked);
        }

        /** Told the length of every record a walk accepts, for progress bars; called on the judging thread. */
        public Options withProgress(LongConsumer bytesWalked) {
            return new Options(maxMessageSizeUpperBytes, window, threads, checkpoint, bytesWalked);
        }

        public long maxBatchBytes() {
            return maxMessageSizeUpperBytes + BatchHeader.LENGTH;
        }
    }

    private final Options options;

    public RecoveryEngine() {
        this(Options.defaults());
    }

    public RecoveryEngine(Options options) {
        this.options = options;
    }

    public Options options() {
        return options;
    }

    /** The verdict under {@code durable}, with the verdict under the other mode attached as {@code otherMode}. */
    public PartitionReport judgeBothModes(PartitionPath partition, boolean durable) {
        PartitionReport main = judge(partition, durable);
        main.otherMode = judge(partition, !durable);
        return main;
    }

    /** The verdict boot recovery reaches for this partition directory under {@code enforce_fsync = durable}. */
    public PartitionReport judge(PartitionPath partition, boolean durable) {
        PartitionReport report = new PartitionReport(partition, durable);
        try {
            new Load(partition, durable, report).run();
        } catch (Refusal.Raised raised) {
            report.outcome = PartitionReport.Outcome.REFUSED;
            report.refusal = raised.refusal;
        } catch (IOException e) {
            report.outcome = PartitionReport.Outcome.IO_ERROR;
            report.ioError = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return report;
    }

    /** Thrown when the judging thread is interrupted (Ctrl-C in the shell): the judgement is abandoned. */
    public static final class Cancelled extends RuntimeException {
        public Cancelled() {
            super("cancelled", null, false, false);
        }
    }

    private static void checkCancelled() {
        if (Thread.currentThread().isInterrupted()) {
            throw new Cancelled();
        }
    }

    /**
     * R() of RECOVERY 4.6 alone, probe included, over segment {@code start} as it is on disk, with a fresh budget
     * and no sweep: the index {@code rebuild-index} writes. The result is REBUILT (with {@code rebuiltEntries} and
     * the walk in {@code rebuild}), EMPTY, or REFUSED with the probe's refusal. Reads only.
     */
    public SegmentReport rebuildWalk(PartitionPath partition, long start, boolean durable) throws IOException {
        return new Load(partition, durable, new PartitionReport(partition, durable)).rebuildOnly(start);
    }

    /** One partition load: the state the server keeps between segments. */
    private final class Load {
        private final PartitionPath partition;
        private final Path dir;
        private final long partitionId;
        private final boolean durable;
        private final PartitionReport report;
        private final Budget budget = new Budget();
        private final Set<Path> swept = new HashSet<>();
        private final Set<Path> plannedFences = new HashSet<>();
        /** The transient failure pass C would meet (RECOVERY 6.2, 7.3), raised only if passes A and B accept. */
        private String passCFailure;

        Load(PartitionPath partition, boolean durable, PartitionReport report) {
            this.partition = partition;
            this.dir = partition.directory();
            this.partitionId = partition.partitionId();
            this.durable = durable;
            this.report = report;
            report.budget = budget;
        }

        void run() throws IOException, Refusal.Raised {
            List<Long> starts = sweep();
            Checkpoint cp = options.checkpoint();
            if (cp != null) {
                starts.removeIf(s -> !(U64.lt(s, cp.nextOffset()) || s == cp.startOffset()));
            }
            for (long s : starts) {
                report.segments.add(new SegmentReport(s, SegmentFiles.log(dir, s), SegmentFiles.index(dir, s)));
            }
            for (int i = 0; i < report.segments.size(); i++) {
                SegmentReport seg = report.segments.get(i);
                try {
                    if (cp != null && seg.start == cp.startOffset()) {
                        judgeCheckpointSegment(seg, cp);
                    } else {
                        judgeSegment(seg);
                    }
                } catch (Refusal.Raised raised) {
                    seg.result = SegmentReport.Result.REFUSED;
                    seg.status = SegmentReport.Status.REFUSED;
                    seg.refusal = raised.refusal;
                    throw raised;
                }
                if (seg.result == SegmentReport.Result.REBUILT) {
                    seg.operations.add(new PlannedOp.StageIndex(SegmentFiles.indexStaging(dir, seg.start),
                            seg.start, seg.rebuiltEntries));
                }
                // pass C is planned now so that a later refusal still shows what pass A decided for this segment;
                // PartitionReport.operations() leaves pass C out unless the partition is accepted
                planPassC(seg, cp != null && seg.start == cp.startOffset());
            }
            chainGuard();
            if (passCFailure != null) {
                throw new IOException(passCFailure);
            }
        }

        SegmentReport rebuildOnly(long start) throws IOException {
            SegmentReport seg = new SegmentReport(start, SegmentFiles.log(dir, start), SegmentFiles.index(dir, start));
            stat(seg);
            seg.step = "R()";
            try (Segment g = new Segment(seg, seg.logLength)) {
                useRebuild(seg, g.rebuild());
            } catch (Refusal.Raised raised) {
                seg.result = SegmentReport.Result.REFUSED;
                seg.status = SegmentReport.Status.REFUSED;
                seg.refusal = raised.refusal;
            }
            return seg;
        }

        // ---- step 0: sweep -------------------------------------------------------------------------------

        private List<Long> sweep() throws IOException {
            Set<String> logStems = new HashSet<>();
            List<Long> starts = new ArrayList<>();
            List<Path> orphanCandidates = new ArrayList<>();
            TreeSet<Path> names = new TreeSet<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path p : entries) {
                    names.add(p);
                }
            } catch (NoSuchFileException missing) {
                return starts;
            } catch (NotDirectoryException notDir) {
                throw new IOException(dir + ": not a directory");
            } catch (IOException e) {
                throw new IOException(dir + ": cannot list the partition directory: " + e.getMessage(), e);
            }
            for (Path p : names) {
                String name = p.getFileName().toString();
                String ext = SegmentFiles.extensionOf(name);
                if (name.endsWith(SegmentFiles.STAGING)) {
                    // the server's remove_file unlinks a symlink (to a directory too) and fails on a directory
                    if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        swept.add(p);
                        report.swept.add(new PlannedOp.Delete(p, "scratch file (.staging)"));
                    }
                } else if (ext.equals("log")) {
                    String stem = SegmentFiles.stemOf(name);
                    logStems.add(stem);
                    Long start = SegmentFiles.startOffsetOf(stem);
                    if (start != null) {
                        starts.add(start);
                        if (!SegmentFiles.isCanonical(stem)) {
                            report.warnings.add(name + ": non-canonical segment name; the server reads "
                                    + SegmentFiles.stem(start) + ".log instead"
                                    + (Files.exists(SegmentFiles.log(dir, start)) ? "" : ", which does not exist"));
                        }
                    } else {
                        report.warnings.add(name + ": log name is not a start offset; the server ignores it");
                    }
                } else if (ext.equals("index") || ext.equals("anchor")) {
                    orphanCandidates.add(p);
                }
            }
            for (Path p : orphanCandidates) {
                String stem = SegmentFiles.stemOf(p.getFileName().toString());
                if (!logStems.contains(stem) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    swept.add(p);
                    report.swept.add(new PlannedOp.Delete(p, "orphan: no " + stem + ".log beside it"));
                }
            }
            starts.sort(Long::compareUnsigned);
            for (int i = 1; i < starts.size(); i++) {
                if (starts.get(i).equals(starts.get(i - 1))) {
                    report.warnings.add("start offset " + U64.str(starts.get(i))
                            + " is named by more than one .log file; the server judges the canonical file twice");
                }
            }
            return starts;
        }

        /** Length of a file as the server stats it; swept or missing files read as 0. */
        private long length(Path p) throws IOException {
            if (swept.contains(p)) {
                return 0;
            }
            try {
                return Files.size(p);
            } catch (NoSuchFileException missing) {
                return 0;
            } catch (IOException e) {
                throw new IOException(p + ": cannot read file metadata: " + e.getMessage(), e);
            }
        }

        // ---- pass A ----------------------------------------------------------------------------------------

        private void judgeSegment(SegmentReport seg) throws IOException, Refusal.Raised {
            stat(seg);
            try (Segment g = new Segment(seg, seg.logLength)) {
                if (seg.entries == 0) {
                    seg.step = "no-entries";
                    if (seg.indexLength > 0) {
                        // RECOVERY 4.1 step 2: a nonzero index is opened even when it holds no whole entry
                        openIndex(seg).close();
                    }
                    if (seg.logLength > 0) {
                        useRebuild(seg, g.rebuild());
                    } else {
                        empty(seg);
                    }
                    return;
                }
                try (IndexFile index = openIndex(seg)) {
                    if (index.entries() < seg.entries) {
                        throw new IOException(seg.index + ": shrank while being read");
                    }
                    judgeWithEntries(seg, g, index);
                }
            }
        }

        /** Opens the index (RECOVERY 4.1 step 2): a failure is transient. */
        private IndexFile openIndex(SegmentReport seg) throws IOException {
            try {
                return IndexFile.open(seg.index);
            } catch (IOException e) {
                throw new IOException(seg.index + ": cannot read file: " + e.getMessage(), e);
            }
        }

        private void judgeWithEntries(SegmentReport seg, Segment g, IndexFile index)
                throws IOException, Refusal.Raised {
            long n = seg.entries;
            seg.first = index.entry(0);
            seg.last = index.entry(n - 1);
            seg.scan = g.scan(index);
            if (!seg.scan.structural()) {
                seg.step = "A2";
                useRebuild(seg, g.rebuild());
                return;
            }
            Walk w = g.walkFrom("W(last)", seg.last);
            seg.fromLast = w;
            if (!w.provedMessages()) {
                seg.step = "A4";
                if (durable) {
                    seg.anchorSearch = g.anchorSearch(index, true);
                    if (n - seg.anchorSearch.provableEntries() > MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES) {
                        AnchorSearch as = seg.anchorSearch;
                        throw new Refusal.Raised(Refusal.of(Refusal.Variant.FsyncedLogLoss, seg.start,
                                "start_offset", seg.start, "entry_count", n,
                                "provable_entries", as.provableEntries(), "provable_position", as.provablePosition(),
                                "searched_entries", as.searchedEntries()));
                    }
                } else {
                    // evidence only: the server does not search in lenient mode (RECOVERY 4.8, 8), so nothing this
                    // search reads may decide the outcome, a read error included
                    try {
                        seg.anchorSearch = g.anchorSearch(index, false);
                    } catch (IOException notReadByTheServer) {
                        seg.anchorSearch = null;
                    }
                }
                Walk r = g.rebuild();
                if (durable) {
                    shortfall(seg, r);
                }
                useRebuild(seg, r);
                return;
            }
            seg.anchorSearch = new AnchorSearch(n, seg.last.position(), 0, false, false);
            if (!seg.scan.mappings()) {
                seg.step = "A5";
                Walk r = g.rebuild();
                if (durable) {
                    shortfall(seg, r);
                }
                useRebuild(seg, r);
                return;
            }
            if (!durable) {
                seg.step = "A6";
                Walk f = g.walkFrom("W(first)", seg.first);
                seg.fromFirst = f;
                if (f.position() == seg.logLength && f.provedMessages()) {
                    keep(seg, f.startTimestamp(), f.endTimestamp(), f.endOffset(), seg.logLength);
                } else {
                    useRebuild(seg, g.rebuild());
                }
                return;
            }
            seg.step = "A7";
            g.probe(w.position(), true, w.endOffset());
            keep(seg, seg.first.timestamp(), w.endTimestamp(), w.endOffset(), w.position());
            if (seg.last.position() > 0) {
                seg.unread = List.of(new Region(0, seg.last.position(), "durable mode: only the 256-byte header at "
                        + "each index entry is checked below the last entry; no checksum is computed (RECOVERY 11.1)"));
            }
        }

        private void shortfall(SegmentReport seg, Walk r) throws Refusal.Raised {
            long walked = r.provedMessages() ? r.position() : 0;
            long durablePosition = seg.last.position();
            if (U64.lt(walked, durablePosition)) {
                throw new Refusal.Raised(Refusal.of(Refusal.Variant.FsyncedRebuildShortfall, seg.start,
                        "start_offset", seg.start, "entry_count", seg.entries, "walked_position", walked,
                        "durable_position", durablePosition));
            }
        }

        private void keep(SegmentReport seg, long startTs, long endTs, long endOffset, long size) {
            seg.result = SegmentReport.Result.KEEP;
            seg.startTimestamp = startTs;
            seg.endTimestamp = endTs;
            seg.endOffset = endOffset;
            seg.size = size;
            seg.indexSize = seg.entries * IndexEntry.LENGTH;
        }

        private void useRebuild(SegmentReport seg, Walk r) {
            seg.rebuild = r;
            if (!r.provedMessages()) {
                empty(seg);
                return;
            }
            rebuilt(seg, r);
        }

        /** The bounds of a REBUILT result: what R() proved, and the rebuilt index. */
        private void rebuilt(SegmentReport seg, Walk r) {
            seg.result = SegmentReport.Result.REBUILT;
            seg.startTimestamp = r.startTimestamp();
            seg.endTimestamp = r.endTimestamp();
            seg.endOffset = r.endOffset();
            seg.size = r.position();
            seg.indexSize = (long) seg.rebuiltEntries.size() * IndexEntry.LENGTH;
        }

        /** The lengths boot stats (RECOVERY 4.1): log, index, and whole index entries. */
        private void stat(SegmentReport seg) throws IOException {
            seg.logLength = length(seg.log);
            seg.indexLength = length(seg.index);
            seg.entries = seg.indexLength / IndexEntry.LENGTH;
        }

        private void empty(SegmentReport seg) {
            seg.result = SegmentReport.Result.EMPTY;
            seg.recoveredEmpty = true;
            seg.startTimestamp = 0;
            seg.endTimestamp = 0;
            seg.endOffset = seg.start;
            seg.size = 0;
            seg.indexSize = 0;
            seg.rebuiltEntries = null;
        }

        /** RECOVERY 9, item 2: the checkpointed segment is rebuilt from its first {@code Lc} bytes. */
        private void judgeCheckpointSegment(SegmentReport seg, Checkpoint cp) throws IOException, Refusal.Raised {
            seg.step = "checkpoint";
            stat(seg);
            long raw = seg.logLength;
            if (U64.lt(raw, cp.length())) {
                throw new Refusal.Raised(Refusal.of(Refusal.Variant.StorageSizeMismatch, seg.start,
                        "start_offset", seg.start, "on_disk_bytes", raw, "expected_bytes", cp.length()));
            }
            try (Segment g = new Segment(seg, cp.length())) {
                Walk r = g.rebuild();
                seg.rebuild = r;
                long validated = r.provedMessages() ? r.position() : 0;
                if (validated != cp.length()) {
                    throw new Refusal.Raised(Refusal.of(Refusal.Variant.CheckpointSizeMismatch, seg.start,
                            "start_offset", seg.start, "validated_bytes", validated, "expected_bytes", cp.length()));
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
        }

        // ---- pass B ----------------------------------------------------------------------------------------

        private void chainGuard() throws IOException, Refusal.Raised {
            long recoverable = 0;
            for (SegmentReport s : report.segments) {
                recoverable = U64.addSat(recoverable, s.size);
            }
            report.recoverableBytes = recoverable;
            for (int i = 1; i < report.segments.size(); i++) {
                SegmentReport prev = report.segments.get(i - 1);
                SegmentReport next = report.segments.get(i);
                if (prev.size == 0) {
                    throw refused(prev, Refusal.of(Refusal.Variant.EmptyNonTailSegment, prev.start,
                            "empty_start", prev.start, "next_start", next.start, "recoverable_bytes", recoverable));
                }
                if (prev.endOffset != U64.MAX && prev.endOffset + 1 == next.start) {
                    continue;
                }
                AnchorRecord anchor = readAnchor(next.start);
                boolean admitted = U64.lt(prev.endOffset, next.start) && anchor != null
                        && anchor.plantedStart() == next.start && anchor.sealedStart() == prev.start
                        && anchor.sealedEnd() == prev.endOffset;
                if (!admitted) {
                    throw refused(next, Refusal.of(Refusal.Variant.Hole, next.start,
                            "previous_start", prev.start, "previous_end", prev.endOffset, "next_start", next.start,
                            "recoverable_bytes", recoverable));
                }
                next.anchoredGap = anchor;
            }
        }

        /**
         * Marks the segment a chain refusal is about: the empty one, or the later one of the pair. By position, not
         * by start offset, which duplicate start offsets (RECOVERY 3) make ambiguous.
         */
        private Refusal.Raised refused(SegmentReport seg, Refusal refusal) {
            seg.status = SegmentReport.Status.REFUSED;
            seg.refusal = refusal;
            return new Refusal.Raised(refusal);
        }

        private AnchorRecord readAnchor(long start) throws IOException {
            Path p = SegmentFiles.anchor(dir, start);
            if (swept.contains(p)) {
                return null;
            }
            try {
                if (Files.size(p) != AnchorRecord.LENGTH) {
                    return null;
                }
                return AnchorRecord.decode(Files.readAllBytes(p));
            } catch (NoSuchFileException missing) {
                return null;
            } catch (IOException e) {
                throw new IOException(p + ": cannot read anchor: " + e.getMessage(), e);
            }
        }

        // ---- pass C plan -----------------------------------------------------------------------------------

        private void planPassC(SegmentReport seg, boolean checkpointSegment) {
            long logNow = seg.logLength;
            long indexNow = seg.indexLength;
            boolean floored = false;
            if (seg.recoveredEmpty && (logNow > 0 || indexNow > 0)) {
                Path fence = nextFence();
                if (fence == null && passCFailure == null) {
                    passCFailure = SegmentFiles.fence(dir, 0) + " .. "
                            + SegmentFiles.fence(dir, FENCED_DIR_PROBE_LIMIT - 1).getFileName() + ": all "
                            + FENCED_DIR_PROBE_LIMIT + " fence directory names are taken; pass C cannot fence segment "
                            + U64.str(seg.start) + " (cannot write to file: the boot fails)";
                }
                seg.operations.add(new PlannedOp.Fence(seg.log, seg.start, fence, logNow, indexNow));
                logNow = 0;
                indexNow = 0;
            }
            if (!checkpointSegment && logNow != seg.size) {
                seg.operations.add(new PlannedOp.TruncateLog(seg.log, seg.start, logNow, seg.size));
            }
            if (seg.result == SegmentReport.Result.REBUILT) {
                seg.operations.add(new PlannedOp.InstallIndex(seg.index, seg.start,
                        SegmentFiles.indexStaging(dir, seg.start), seg.rebuiltEntries, indexNow));
            } else if (indexNow != seg.indexSize) {
                seg.operations.add(new PlannedOp.TruncateIndex(seg.index, seg.start, indexNow, seg.indexSize));
                floored = seg.result == SegmentReport.Result.KEEP;
            }
            if (seg.recoveredEmpty) {
                seg.status = SegmentReport.Status.RECOVERED_EMPTY;
            } else if ((!checkpointSegment && seg.size != seg.logLength) || floored) {
                seg.status = SegmentReport.Status.TRUNCATED;
            } else if (seg.result == SegmentReport.Result.REBUILT) {
                seg.status = SegmentReport.Status.INDEX_REBUILT;
            } else {
                seg.status = SegmentReport.Status.CLEAN;
            }
        }

        private Path nextFence() {
            for (int k = 0; k < FENCED_DIR_PROBE_LIMIT; k++) {
                Path candidate = SegmentFiles.fence(dir, k);
                // create_dir fails with "exists" for any entry of that name, a dangling symlink included
                if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS) && plannedFences.add(candidate)) {
                    return candidate;
                }
            }
            return null;
        }

        // ---- one segment's reads -----------------------------------------------------------------------------

        /** The open log of one segment with its walks, probe and anchor search. */
        private final class Segment implements AutoCloseable {
            private final SegmentReport seg;
            private final long s;
            private final long len;
            private final SegmentChannel log;
            private final SegmentChannel headers;
            private final WalkVerifier verifier;
            private Stop stop;

            Segment(SegmentReport seg, long len) throws IOException {
                this.seg = seg;
                this.s = seg.start;
                this.len = len;
                if (len > 0) {
                    try {
                        this.log = SegmentChannel.open(seg.log, options.window(), len);
                        this.headers = SegmentChannel.open(seg.log, 4096, len);
                    } catch (NoSuchFileException e) {
                        throw new IOException(seg.log + ": vanished while being judged", e);
                    } catch (IOException e) {
                        throw new IOException(seg.log + ": cannot read file: " + e.getMessage(), e);
                    }
                    if (log.size() < len) {
                        throw new IOException(seg.log + ": shrank while being judged (" + log.size() + " < " + len
                                + " bytes)");
                    }
                    this.verifier = WalkVerifier.create(log, options.threads(), options.window(),
                            options.maxBatchBytes());
                } else {
                    this.log = null;
                    this.headers = null;
                    this.verifier = null;
                }
            }

            /** HeaderAt(p) of RECOVERY 2.3, through the given channel; sets {@link #stop} when there is none. */
            private BatchHeader headerAt(SegmentChannel ch, long pos) throws IOException {
                if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), len)) {
                    stop = new Stop(Stop.Kind.HEADER_TRUNCATED, pos, null, U64.str(U64.subSat(len, pos)));
                    return null;
                }
                int i = ch.at(pos, BatchHeader.LENGTH);
                ByteBuffer b = ch.buffer();
                Defect d = BatchHeader.check(b, i, pos);
                if (d != null) {
                    stop = new Stop(Stop.Kind.HEADER_INVALID, pos, d, null);
                    return null;
                }
                BatchHeader h = BatchHeader.read(b, i);
                if (U64.gt(h.batchLength(), options.maxBatchBytes())) {
                    stop = new Stop(Stop.Kind.LENGTH_OVER_MAX, pos,
                            Defect.of(Defect.Code.LENGTH_OVER_MAX, pos, 0, options.maxBatchBytes(), h.batchLength()),
                            U64.str(h.batchLength()));
                    return null;
                }
                return h;
            }

            /** Steps 1-4 shared by W and R: the next verified record at {@code pos}, or null with {@link #stop}. */
            private BatchHeader verifiedAt(long pos) throws IOException, Refusal.Raised {
                checkCancelled();
                BatchHeader h = headerAt(verifier.walkHeaders(), pos);
                if (h == null) {
                    return null;
                }
                long ext = U64.addSat(pos, h.batchLength());
                if (U64.gt(ext, len)) {
                    stop = new Stop(Stop.Kind.RUNS_PAST_EOF, pos, Defect.of(Defect.Code.RUNS_PAST_EOF, pos, 0,
                            len - pos, h.batchLength()), null);
                    return null;
                }
                Defect d = verifier.verify(pos, h.batchLength());
                if (d != null) {
                    stop = new Stop(Stop.Kind.VERIFY_FAILED, pos, d, null);
                    return null;
                }
                if (h.partitionId() != partitionId) {
                    throw new Refusal.Raised(Refusal.of(Refusal.Variant.ForeignBatch, s, "start_offset", s,
                            "batch_partition_id", h.partitionId(), "position", pos));
                }
                return h;
            }

            /** W(anchor) of RECOVERY 4.5. */
            Walk walkFrom(String name, IndexEntry anchor) throws IOException, Refusal.Raised {
                return walk(name, anchor.position(), anchor.offset(), anchor.timestamp(), true, null);
            }

            /** R() of RECOVERY 4.6, including its probe; sets the segment's rebuilt entries. */
            Walk rebuild() throws IOException, Refusal.Raised {
                List<IndexEntry> entries = new ArrayList<>();
                Walk r = walk("R()", 0, s, 0, false, entries);
                seg.rebuild = r;
                seg.rebuiltEntries = r.provedMessages() ? List.copyOf(entries) : null;
                probe(r.position(), r.provedMessages(), r.endOffset());
                return r;
            }

            /**
             * The loop W and R share: from {@code from}, expecting {@code expected}, accept verified records of this
             * partition in offset order. W ({@code anchored}) starts from an index entry, so an offset mismatch at
             * the very first record only means the entry is stale and stops the walk; once a record has been
             * accepted (or in R, from the first record on) a mismatch is a verified discontinuity and refuses. R
             * also collects the rebuilt index entries (F 3.3 stride) into {@code entries}.
             */
            private Walk walk(String name, long from, long expected, long anchorTs, boolean anchored,
                              List<IndexEntry> entries) throws IOException, Refusal.Raised {
                long pos = from;
                boolean proved = false;
                long startTs = 0;
                long endOffset = expected;
                long endTs = anchorTs;
                boolean fromLog = !anchored;
                long lastIndexed = -1;
                long records = 0;
                long empties = 0;
                stop = new Stop(Stop.Kind.END_OF_LOG, pos, null, null);
                if (log != null) {
                    verifier.startWalk(pos);
                }
                while (U64.lt(pos, len)) {
                    BatchHeader h = verifiedAt(pos);
                    if (h == null) {
                        break;
                    }
                    if (h.baseOffset() != expected) {
                        if (!fromLog) {
                            stop = new Stop(Stop.Kind.INDEX_OFFSET_MISMATCH, pos, null, "carries base_offset "
                                    + U64.str(h.baseOffset()) + " but the index entry says " + U64.str(expected));
                            break;
                        }
                        throw new Refusal.Raised(Refusal.of(Refusal.Variant.OffsetDiscontinuity, s,
                                "start_offset", s, "expected_offset", expected, "found_offset", h.baseOffset(),
                                "position", pos));
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
                        if (entries != null && (lastIndexed < 0 || pos - lastIndexed >= REBUILT_INDEX_STRIDE_BYTES)) {
                            entries.add(new IndexEntry(h.baseOffset(), h.baseTimestamp(), pos));
                            lastIndexed = pos;
                        }
                    } else {
                        empties++;
                    }
                    fromLog = true;
                    options.walked().accept(h.batchLength());
                    pos = U64.addSat(pos, h.batchLength());
                    stop = new Stop(Stop.Kind.END_OF_LOG, pos, null, null);
                }
                return new Walk(name, from, proved, startTs, endOffset, endTs, pos, records, empties, stop);
            }

            /** Probe(dmg, chain_end) of RECOVERY 4.7. */
            void probe(long dmg, boolean hasChainEnd, long chainEnd) throws IOException, Refusal.Raised {
                if (U64.ge(dmg, len)) {
                    return;
                }
                long residue = len - dmg;
                budget.grow(residue);
                long candidates = 0;
                long verifications = 0;
                long verified = 0;
                // Candidates are examined one byte apart, in order, every one charged as the spec requires. The
                // loop reads the window directly; where a candidate's batch_length is below 256 (bytes 33..39 of
                // its header zero), every following candidate whose batch_length bytes are still zero is rejected
                // and charged in bulk up to the next nonzero byte, so a zero-filled tail costs a word scan.
                long lastCandidate = len - BatchHeader.LENGTH;
                long c = dmg + 1;
                while (c <= lastCandidate) {
                    int i = log.at(c, BatchHeader.LENGTH);
                    ByteBuffer b = log.buffer();
                    long stop = Math.min(lastCandidate, log.windowEnd() - BatchHeader.LENGTH);
                    boolean moved = false;
                    while (c <= stop && !moved) {
                        candidates++;
                        if ((candidates & 0xFFFF) == 0) {
                            checkCancelled();
                        }
                        if (!budget.chargeCandidate()) {
                            seg.probes.add(new ProbeResult(dmg, residue, candidates, verifications, verified, -1,
                                    true));
                            throw new Refusal.Raised(unverifiedResidue(dmg));
                        }
                        if (U64.lt(LittleEndian.u64(b, i + BatchHeader.BATCH_LENGTH_OFFSET), BatchHeader.LENGTH)) {
                            long skip = zeroRun(b, i, stop - c);
                            if (skip > 0) {
                                long charged = budget.chargeCandidates(skip);
                                candidates += charged;
                                if (charged != skip || U64.gt(budget.spentUnits(), budget.limitUnits())) {
                                    seg.probes.add(new ProbeResult(dmg, residue, candidates, verifications,
                                            verified, -1, true));
                                    throw new Refusal.Raised(unverifiedResidue(dmg));
                                }
                            }
                            c += 1 + skip;
                            i += 1 + (int) skip;
                            continue;
                        }
                        if (BatchHeader.decodes(b, i)) {
                            BatchHeader h = BatchHeader.read(b, i);
                            moved = examine(dmg, residue, c, h, hasChainEnd, chainEnd, candidates, verifications,
                                    verified);
                            if (moved) {
                                verifications++;
                                verified = U64.addSat(verified, h.batchLength());
                            }
                        }
                        c++;
                        i++;
                    }
                }
                seg.probes.add(new ProbeResult(dmg, residue, candidates, verifications, verified, -1, false));
            }

            /**
             * For a candidate at window index {@code i} whose batch_length bytes 33..39 are zero: how many of the
             * next candidates (at most {@code maxSkip}) also have only zero bytes in their batch_length bytes 33..39,
             * and so cannot decode. Candidate {@code i + k} reads bytes {@code i + k + 33 .. i + k + 39}.
             */
            private int zeroRun(ByteBuffer b, int i, long maxSkip) {
                int limit = (int) Math.min(maxSkip, Integer.MAX_VALUE - 64L);
                int j = i + 40;
                int end = i + 40 + limit;
                while (j + Long.BYTES <= end && LittleEndian.u64(b, j) == 0) {
                    j += Long.BYTES;
                }
                while (j < end && b.get(j) == 0) {
                    j++;
                }
                // bytes [i + 40, j) are zero: candidates i + 1 .. i + (j - i - 40) see only zeros in 33..39
                return j - i - 40;
            }

            /**
             * Steps 3.3-3.4 of RECOVERY 4.7 for a candidate whose header decodes: charge and verify it when it
             * advances the chain, fits and holds messages. Returns true when it was verified (and failed), which
             * moves the window; a survivor or an exhausted budget refuses.
             */
            private boolean examine(long dmg, long residue, long c, BatchHeader h, boolean hasChainEnd,
                                    long chainEnd, long candidates, long verifications, long verified)
                    throws IOException, Refusal.Raised {
                boolean advances = hasChainEnd ? U64.gt(h.baseOffset(), chainEnd) : U64.ge(h.baseOffset(), s);
                boolean fits = U64.le(h.batchLength(), options.maxBatchBytes())
                        && U64.le(U64.addSat(c, h.batchLength()), len);
                if (!(advances && fits && h.messageCount() > 0)) {
                    return false;
                }
                long nowVerifications = verifications + 1;
                long nowVerified = U64.addSat(verified, h.batchLength());
                if (!budget.chargeVerify(h.batchLength())) {
                    seg.probes.add(new ProbeResult(dmg, residue, candidates, nowVerifications, nowVerified, -1,
                            true));
                    throw new Refusal.Raised(unverifiedResidue(dmg));
                }
                if (verifier.verifyAside(c, h.batchLength()) == null) {
                    seg.probes.add(new ProbeResult(dmg, residue, candidates, nowVerifications, nowVerified, c,
                            false));
                    throw new Refusal.Raised(Refusal.of(Refusal.Variant.InteriorDamage, s,
                            "start_offset", s, "damage_position", dmg, "survivor_position", c));
                }
                return true;
            }

            private Refusal unverifiedResidue(long dmg) {
                return Refusal.of(Refusal.Variant.UnverifiedResidue, s, "start_offset", s, "damage_position", dmg,
                        "residue_bytes", U64.subSat(len, dmg), "candidates_examined", budget.spentUnits(),
                        "budget_units", budget.limitUnits(), "verified_bytes", budget.spentVerify(),
                        "verify_budget_bytes", budget.limitVerify());
            }

            /** Matches(o, t, p) of RECOVERY 2.3: header-level only, no checksum. Null if it matches, else why. */
            private String mismatch(IndexEntry e) throws IOException {
                long p = e.position();
                if (U64.gt(U64.addSat(p, BatchHeader.LENGTH), len) || p + BatchHeader.LENGTH < p) {
                    return "position " + U64.str(p) + " leaves no room for a header in a log of " + len + " bytes";
                }
                int i = headers.at(p, BatchHeader.LENGTH);
                ByteBuffer b = headers.buffer();
                Defect d = BatchHeader.check(b, i, p);
                if (d != null) {
                    return "no header at " + U64.str(p) + ": " + d.describe();
                }
                BatchHeader h = BatchHeader.read(b, i);
                if (h.partitionId() != partitionId) {
                    return "batch at " + U64.str(p) + " carries partition_id " + U64.str(h.partitionId());
                }
                if (h.baseOffset() != e.offset()) {
                    return "batch at " + U64.str(p) + " has base_offset " + U64.str(h.baseOffset()) + ", entry says "
                            + U64.str(e.offset());
                }
                if (h.baseTimestamp() != e.timestamp()) {
                    return "batch at " + U64.str(p) + " has base_timestamp " + U64.str(h.baseTimestamp())
                            + ", entry says " + U64.str(e.timestamp());
                }
                if (h.messageCount() == 0) {
                    return "batch at " + U64.str(p) + " is empty";
                }
                if (U64.gt(h.batchLength(), options.maxBatchBytes())) {
                    return "batch at " + U64.str(p) + " claims " + U64.str(h.batchLength()) + " bytes (over the max)";
                }
                if (U64.gt(U64.addSat(p, h.batchLength()), len)) {
                    return "batch at " + U64.str(p) + " runs past the end of the log";
                }
                return null;
            }

            /** The consistency scan of RECOVERY 4.2. */
            IndexScan scan(IndexFile index) throws IOException {
                boolean mappings = true;
                long firstUnmatched = -1;
                String mappingReason = null;
                IndexEntry prev = null;
                for (long i = 0; i < seg.entries; i++) {
                    if ((i & 0x3FF) == 0) {
                        checkCancelled();
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
                        String why = mismatch(e);
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

            /**
             * AS() of RECOVERY 4.8. With {@code charged} false it runs on a copy of the budget and never refuses:
             * evidence for lenient mode, where the server does not search.
             */
            AnchorSearch anchorSearch(IndexFile index, boolean charged) throws IOException, Refusal.Raised {
                long n = seg.entries;
                if (n < 2) {
                    return new AnchorSearch(0, 0, 0, charged, false);
                }
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
                        BatchHeader h = headerAt(headers, e.position());
                        if (h != null && h.partitionId() == partitionId && h.baseOffset() == e.offset()
                                && h.messageCount() > 0 && U64.le(U64.addSat(e.position(), h.batchLength()), len)) {
                            if (!b.chargeVerify(h.batchLength())) {
                                if (!charged) {
                                    return new AnchorSearch(0, 0, searched, false, true);
                                }
                                throw new Refusal.Raised(Refusal.of(Refusal.Variant.UnverifiedResidue, s,
                                        "start_offset", s, "damage_position", e.position(),
                                        "residue_bytes", U64.subSat(len, e.position()),
                                        "candidates_examined", b.spentUnits(), "budget_units", b.limitUnits(),
                                        "verified_bytes", b.spentVerify(), "verify_budget_bytes", b.limitVerify()));
                            }
                            if (verifier.verifyAside(e.position(), h.batchLength()) == null) {
                                return new AnchorSearch(i + 1, e.position(), searched, charged, false);
                            }
                        }
                    }
                    if (searched == MAX_INDEX_ANCHOR_PROBE_ENTRIES || i == 0) {
                        break;
                    }
                    i--;
                }
                return new AnchorSearch(0, 0, searched, charged, false);
            }

            @Override
            public void close() throws IOException {
                if (verifier != null) {
                    verifier.close();
                }
                if (headers != null) {
                    headers.close();
                }
                if (log != null) {
                    log.close();
                }
            }
        }
    }
}
