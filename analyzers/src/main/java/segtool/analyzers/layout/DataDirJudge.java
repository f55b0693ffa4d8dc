package segtool.analyzers.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * Judges many partitions, in parallel across the machine's cores: one partition per worker, each verifying on its
 * own thread, so memory stays at threads x window. A single partition instead gets every core for verification,
 * and fewer partitions than threads share the spare ones. Everything a partition needs is done on the worker that
 * judges it: reading its inputs, the verdict, and the latent-damage check after it, so that none of it waits for
 * the other partitions.
 */
public final class DataDirJudge {
    /** Progress: partitions done of total, and log bytes judged so far of the total. */
    public interface Progress {
        void update(int done, int total, long bytes, long totalBytes);

        /**
         * Whether anything is shown. When not, the log sizes (the bar's total, one directory listing per partition
         * before any is judged) are not read and walked bytes are not counted; only {@code done} moves.
         */
        default boolean drawn() {
            return true;
        }

        Progress NONE = new Progress() {
            @Override
            public void update(int done, int total, long bytes, long totalBytes) {
            }

            @Override
            public boolean drawn() {
                return false;
            }
        };
    }

    /** How one partition is judged: its durable mode and its WAL checkpoint (null: none). */
    public record Mode(boolean durable, Checkpoint checkpoint) {
    }

    /**
     * One partition judged with its own inputs: the inputs, and the report and latent-damage check (report null when
     * the inputs give no verdict; latent null when the check did not run).
     */
    public record WithInputs(PartitionInputs inputs, PartitionReport report, LatentDamage.Report latent) {
    }

    /**
     * Judges {@code partitions} each with the inputs {@code resolver} reads for it (its topic's durability, its WAL
     * checkpoint and the directory as the WAL's open leaves it), read on the thread that judges it; a partition whose
     * inputs give no verdict is not judged. What scan, explain and doctor judge with, in the order of
     * {@code partitions}.
     */
    public List<WithInputs> judge(List<PartitionPath> partitions, InputsResolver resolver, boolean both,
                                  boolean latent, Progress progress) throws InterruptedException {
        PartitionInputs[] resolved = new PartitionInputs[partitions.size()];
        List<Judgement> judged = judge(partitions, i -> {
            PartitionInputs in = resolver.resolve(partitions.get(i));
            resolved[i] = in;
            return in.judgeable() ? new Mode(in.durability().durable(), in.wal().checkpoint()) : null;
        }, both, latent, progress);
        List<WithInputs> out = new ArrayList<>(judged.size());
        for (int i = 0; i < judged.size(); i++) {
            out.add(new WithInputs(resolved[i], judged.get(i).report(), judged.get(i).latent()));
        }
        return out;
    }

    /** One partition's outcome: the report (null: not judged) and the latent-damage check (null: not run). */
    public record Judgement(PartitionReport report, LatentDamage.Report latent) {
    }

    private final RecoveryOptions options;
    private final int threads;

    public DataDirJudge(RecoveryOptions options, int threads) {
        this.options = options;
        this.threads = Math.max(1, threads);
    }

    /**
     * Reports in the order of {@code partitions}, all judged in one durable mode with the options' checkpoint; each
     * carries the other mode's verdict when {@code both}.
     */
    public List<PartitionReport> judge(List<PartitionPath> partitions, boolean durable, boolean both,
                                       Progress progress) throws InterruptedException {
        Mode mode = new Mode(durable, options.checkpoint());
        List<PartitionReport> out = new ArrayList<>();
        for (Judgement j : judge(partitions, i -> mode, both, false, progress)) {
            out.add(j.report());
        }
        return out;
    }

    /**
     * Judges {@code partitions}, in their order: {@code prepare.apply(i)}, called on the thread that judges
     * partition {@code i}, decides how (null: the partition is not judged, its report is null); with
     * {@code latent}, each verdict that is not an I/O error is followed by {@link LatentDamage}'s check.
     */
    public List<Judgement> judge(List<PartitionPath> partitions, IntFunction<Mode> prepare, boolean both,
                                 boolean latent, Progress progress) throws InterruptedException {
        boolean counted = progress.drawn();
        long[] sizes = new long[partitions.size()];
        long totalBytes = 0;
        if (counted) {
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = Sizes.logBytes(partitions.get(i).directory());
                totalBytes += sizes[i];
            }
        }
        final long total = totalBytes;
        AtomicInteger done = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        progress.update(0, partitions.size(), 0, total);
        // Walked bytes move the bar while a partition is judged; a partition counts at most its log size however
        // many walks it takes (both modes, W then R), and exactly that when it is done.
        // Fewer partitions than threads share the spare cores for verification; otherwise one core each.
        int workers = Math.min(threads, Math.max(1, partitions.size()));
        int verifyThreads = partitions.size() <= 1 ? options.threads() : Math.max(1, threads / workers);
        IntFunction<Judgement> one = i -> {
            Mode how = prepare.apply(i);
            if (how == null) {
                progress.update(done.incrementAndGet(), partitions.size(), bytes.addAndGet(sizes[i]), total);
                return new Judgement(null, null);
            }
            PartitionPath p = partitions.get(i);
            AtomicLong mine = new AtomicLong();
            RecoveryOptions mode = options.withCheckpoint(how.checkpoint()).withThreads(verifyThreads);
            RecoveryOptions walking = !counted ? mode : mode.withProgress(n -> {
                long before = mine.get();
                long after = Math.min(sizes[i], before + n);
                if (after > before && mine.compareAndSet(before, after)) {
                    long now = bytes.addAndGet(after - before);
                    if ((after >>> 20) != (before >>> 20)) {
                        progress.update(done.get(), partitions.size(), now, total);
                    }
                }
            });
            RecoveryEngine engine = new RecoveryEngine(walking);
            PartitionReport r = both ? engine.judgeBothModes(p, how.durable()) : engine.judge(p, how.durable());
            LatentDamage.Report l = latent && r.outcome() != PartitionReport.Outcome.IO_ERROR
                    ? new LatentDamage(mode).check(r) : null;
            long rest = sizes[i] - mine.getAndSet(sizes[i]);
            progress.update(done.incrementAndGet(), partitions.size(), bytes.addAndGet(Math.max(0, rest)), total);
            return new Judgement(r, l);
        };
        if (partitions.size() <= 1 || threads == 1) {
            List<Judgement> out = new ArrayList<>();
            for (int i = 0; i < partitions.size(); i++) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                out.add(one.apply(i));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "segtool-partition");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Judgement>> futures = new ArrayList<>();
            for (int i = 0; i < partitions.size(); i++) {
                int k = i;
                futures.add(pool.submit(() -> one.apply(k)));
            }
            List<Judgement> out = new ArrayList<>();
            for (Future<Judgement> f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RecoveryEngine.Cancelled c) {
                        throw c;   // a worker met the interrupt first
                    }
                    throw new IllegalStateException("judging failed: " + e.getCause(), e.getCause());
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
