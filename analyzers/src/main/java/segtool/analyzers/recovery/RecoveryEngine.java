package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Reproduces the server's boot recovery of one partition (RECOVERY.md) without changing a byte. The passes run in
 * the order of the spec's section 3 onward:
 * <ol>
 *   <li>step 0, the {@link Sweep}: what is deleted, which start offsets are read;</li>
 *   <li>{@link PassA pass A} over every segment in ascending order with one shared {@link Budget}, staging each
 *       rebuilt index (4.11);</li>
 *   <li>{@link ChainGuard pass B} over the planned segments;</li>
 *   <li>the {@link PassCPlan pass C plan}: an ordered list of file operations, kept unless a refusal ends the
 *       load.</li>
 * </ol>
 * Files are opened read-only; files the sweep would delete are treated as already gone, as they are by the time the
 * server reads segments. Beyond the verdict the report holds evidence for explanations: every walk and where it
 * stopped, every probe, the anchor search (also measured in lenient mode, without charging the budget), and the
 * regions boot leaves unread.
 */
public final class RecoveryEngine {
    public static final long MAX_MESSAGE_SIZE_UPPER_BYTES = 268_435_456L;
    public static final long REBUILT_INDEX_STRIDE_BYTES = 65_536;
    public static final long MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES = 1;
    public static final long MAX_INDEX_ANCHOR_PROBE_ENTRIES = 4_096;
    public static final int FENCED_DIR_PROBE_LIMIT = 1_000;

    private final RecoveryOptions options;

    public RecoveryEngine() {
        this(RecoveryOptions.defaults());
    }

    public RecoveryEngine(RecoveryOptions options) {
        this.options = options;
    }

    public RecoveryOptions options() {
        return options;
    }

    /** The verdict under {@code durable}, with the verdict under the other mode attached as {@code otherMode}. */
    public PartitionReport judgeBothModes(PartitionPath partition, boolean durable) {
        return judge(partition, durable).withOtherMode(judge(partition, !durable));
    }

    /** The verdict boot recovery reaches for this partition directory under {@code enforce_fsync = durable}. */
    public PartitionReport judge(PartitionPath partition, boolean durable) {
        return judge(partition, durable, false);
    }

    /**
     * {@link #judge(PartitionPath, boolean)}, where each segment kept because its byte-0 walk W(first) reached the
     * end of the log (lenient mode, step A6) also carries in {@code rebuiltEntries} the index R() would rebuild from
     * those same records: what {@code rebuild-index} writes, without walking the log a second time. The verdict and
     * every other number are those of {@code judge}.
     */
    public PartitionReport judgeKeepingEntries(PartitionPath partition, boolean durable) {
        return judge(partition, durable, true);
    }

    /**
     * Judges through mapped windows first (with {@link RecoveryOptions#mappingAllowed()}, or options that ask for
     * them), and again through read
     * windows when a fault under a mapping was met meanwhile (the file shrank under it, or the device failed): such
     * a fault surfaces late and inexactly, after reads that went on with wrong bytes, so that first answer is thrown
     * away whatever it was, and the second meets the failure as a read(2) error that names the file and position.
     * A fault in another partition judged at the same time throws this answer away too; it is judged again, no more.
     */
    private PartitionReport judge(PartitionPath partition, boolean durable, boolean keptEntries) {
        if (!options.mapped() && !RecoveryOptions.mappingAllowed()) {
            return judgeOnce(partition, durable, keptEntries);
        }
        long faults = SegmentChannel.mappedFaults();
        try {
            PartitionReport r = new RecoveryEngine(options.withMapping(true)).judgeOnce(partition, durable,
                    keptEntries);
            if (SegmentChannel.mappedFaults() == faults) {
                return r;
            }
        } catch (InternalError late) {
            SegmentChannel.noteMappedFault();
        }
        return new RecoveryEngine(options.withMapping(false)).judgeOnce(partition, durable, keptEntries);
    }

    /** One judgement through read windows, never mapped ones, for tests to compare with. */
    PartitionReport judgeOnceForTest(PartitionPath partition, boolean durable) {
        return new RecoveryEngine(options.withMapping(false)).judgeOnce(partition, durable, false);
    }

    private PartitionReport judgeOnce(PartitionPath partition, boolean durable, boolean keptEntries) {
        Load load = new Load();
        load.keptEntries = keptEntries;
        PartitionReport.Outcome outcome = PartitionReport.Outcome.ACCEPTED;
        Refusal refusal = null;
        String ioError = null;
        IoFailure ioFailure = null;
        try {
            load(partition, durable, load);
        } catch (Refusal.Raised raised) {
            outcome = PartitionReport.Outcome.REFUSED;
            refusal = raised.refusal;
        } catch (IoFailure.Raised e) {
            cancelledIfInterrupted(e);
            outcome = PartitionReport.Outcome.IO_ERROR;
            ioFailure = e.failure();
            ioError = ioFailure.toString();
        } catch (IOException e) {
            cancelledIfInterrupted(e);
            outcome = PartitionReport.Outcome.IO_ERROR;
            ioFailure = new IoFailure(partition.directory(), IoFailure.READ, IoFailure.kindOf(IoFailure.READ),
                    IoFailure.reasonOf(e));
            ioError = ioFailure.toString();
        }
        List<SegmentReport> segments = new ArrayList<>(load.segments.size());
        for (SegmentDraft d : load.segments) {
            segments.add(d.freeze());
        }
        return new PartitionReport(partition, durable, outcome, refusal, ioError, ioFailure, load.swept, segments,
                load.warnings, load.recoverableBytes, load.budget.counters(), null, options.view());
    }

    /** What one partition load has gathered so far; a refusal or an I/O error leaves it as it stood. */
    private static final class Load {
        final Budget budget = new Budget();
        final List<PlannedOp.Delete> swept = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<SegmentDraft> segments = new ArrayList<>();
        long recoverableBytes;
        boolean keptEntries;
    }

    /** One partition load, pass by pass; the first refusal ends it (RECOVERY 2.2). */
    private void load(PartitionPath partition, boolean durable, Load load) throws IOException, Refusal.Raised {
        Path dir = partition.directory();

        Sweep sweep = Sweep.of(dir, options.view());            // step 0 (3), after the WAL's open (9 step 0)
        load.swept.addAll(sweep.deletions());
        load.warnings.addAll(sweep.warnings());
        Checkpoint cp = options.checkpoint();
        for (long s : sweep.startOffsets()) {
            if (cp == null || U64.lt(s, cp.nextOffset()) || s == cp.startOffset()) {     // segments past N (9)
                load.segments.add(new SegmentDraft(s, SegmentFiles.log(dir, s), SegmentFiles.index(dir, s)));
            }
        }

        PassA passA = new PassA(options, partition.partitionId(), durable, load.budget, sweep);
        if (load.keptEntries) {
            passA.withKeptEntries();
        }
        PassCPlan passC = new PassCPlan(dir);
        for (SegmentDraft seg : load.segments) {                                         // pass A (4)
            boolean checkpointSegment = cp != null && seg.start == cp.startOffset();
            try {
                if (checkpointSegment) {
                    passA.judgeCheckpointSegment(seg, cp);
                } else {
                    passA.judge(seg);
                }
            } catch (Refusal.Raised raised) {
                refused(seg, raised);
                throw raised;
            } catch (IOException e) {
                // a transient failure is this segment's (RECOVERY 7.3): typed, never a verdict about its bytes
                seg.status = SegmentReport.Status.IO_ERROR;
                throw e instanceof IoFailure.Raised ? e : IoFailure.raise(seg.log, IoFailure.READ, e);
            }
            if (seg.result == SegmentReport.Result.REBUILT) {                           // staging (4.11)
                seg.operations.add(new PlannedOp.StageIndex(SegmentFiles.indexStaging(dir, seg.start),
                        seg.start, seg.rebuiltEntries));
            }
            // pass C is planned now so that a later refusal still shows what pass A decided for this segment;
            // PartitionReport.operations() leaves pass C out unless the partition is accepted
            passC.plan(seg, checkpointSegment);                                           // pass C plan (6)
        }
        load.recoverableBytes = ChainGuard.recoverableBytes(load.segments);
        ChainGuard.run(load.segments, load.recoverableBytes, dir, sweep);                // pass B (5)
        if (passC.failure() != null) {
            passC.failedSegment().status = SegmentReport.Status.IO_ERROR;
            throw new IoFailure.Raised(passC.failure(), null);
        }
    }

    /**
     * R() of RECOVERY 4.6 alone, probe included, over segment {@code start} as it is on disk, with a fresh budget
     * and no sweep: the index {@code rebuild-index} writes. The result is REBUILT (with {@code rebuiltEntries} and
     * the walk in {@code rebuild}), EMPTY, or REFUSED with the probe's refusal. Reads only.
     */
    public SegmentReport rebuildWalk(PartitionPath partition, long start, boolean durable) throws IOException {
        return rebuildWalk(partition, start, durable, U64.MAX);
    }

    /**
     * {@link #rebuildWalk(PartitionPath, long, boolean)} over the first {@code length} bytes of the log only (all of
     * it when the log is shorter): what the next boot's R() proves once the log is cut to {@code length}, as the
     * checkpoint variant reads its first {@code Lc} bytes (RECOVERY 9). Reads only.
     */
    public SegmentReport rebuildWalk(PartitionPath partition, long start, boolean durable, long length)
            throws IOException {
        Path dir = partition.directory();
        SegmentDraft seg = new SegmentDraft(start, SegmentFiles.log(dir, start), SegmentFiles.index(dir, start));
        Sweep none = Sweep.none();
        try {
            new PassA(options, partition.partitionId(), durable, new Budget(), none).rebuildOnly(seg, length);
        } catch (Refusal.Raised raised) {
            refused(seg, raised);
        }
        return seg.freeze();
    }

    /**
     * Pass A (RECOVERY 4.1-4.10) of segment {@code start} as the next boot judges it once its log is cut to
     * {@code length} bytes and its index to its first {@code entries} entries, with a fresh budget and no sweep: the
     * result (KEEP, REBUILT, EMPTY, or REFUSED with the refusal) a cut that only truncates leaves. Reads only.
     */
    public SegmentReport judgeCut(PartitionPath partition, long start, boolean durable, long length, long entries)
            throws IOException {
        Path dir = partition.directory();
        SegmentDraft seg = new SegmentDraft(start, SegmentFiles.log(dir, start), SegmentFiles.index(dir, start));
        try {
            new PassA(options, partition.partitionId(), durable, new Budget(), Sweep.none())
                    .judgeCut(seg, length, entries);
        } catch (Refusal.Raised raised) {
            refused(seg, raised);
        }
        return seg.freeze();
    }

    /**
     * What recovery makes of each byte of every log of {@code report} (judged by this engine): one
     * {@link LogRegions} per segment, in the report's order. Reads a few bounded ranges of the logs a refusal is
     * about, and stats segments the load never reached; never changes the verdict.
     */
    public List<LogRegions> regions(PartitionReport report) {
        return new Regions(options).of(report);
    }

    private static void refused(SegmentDraft seg, Refusal.Raised raised) {
        seg.result = SegmentReport.Result.REFUSED;
        seg.status = SegmentReport.Status.REFUSED;
        seg.refusal = raised.refusal;
        seg.refusedWalk = raised.walk;
    }

    /**
     * Thrown when the working thread is interrupted (Ctrl-C, SIGTERM): the work is abandoned. {@link #leaves()} is
     * what a writer stopped this way left on disk, when it knows better than its command ("nothing changed", or
     * which quarantine holds a plan to finish); null when it adds nothing.
     */
    public static final class Cancelled extends RuntimeException {
        private final String leaves;

        public Cancelled() {
            this(null, null);
        }

        public Cancelled(String leaves, Throwable cause) {
            super("cancelled", cause, false, false);
            this.leaves = leaves;
        }

        public String leaves() {
            return leaves;
        }

        /** True when {@code e} (or a cause) is an interrupt, or the current thread has been interrupted. */
        public static boolean isInterrupt(Throwable e) {
            if (Thread.currentThread().isInterrupted()) {
                return true;
            }
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof Cancelled || t instanceof InterruptedException
                        || t instanceof java.nio.channels.ClosedByInterruptException) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * An interrupt (Ctrl-C, SIGTERM) met inside a read comes back as an I/O error (a channel closed by the interrupt,
     * a wait for a verifying worker given up): it is a cancellation, never a verdict that the partition is
     * unreadable. Every command that judges meets it here, and exits 130 or 143 saying what it left.
     */
    private static void cancelledIfInterrupted(IOException e) {
        if (Cancelled.isInterrupt(e)) {
            throw new Cancelled(null, e);
        }
    }

    static void checkCancelled() {
        if (Thread.currentThread().isInterrupted()) {
            throw new Cancelled();
        }
    }
}
