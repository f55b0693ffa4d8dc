package segtool.analyzers.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * Judges many partitions, in parallel across the machine's cores: one partition per worker, each verifying on its
 * own thread, so memory stays at threads x window. A single partition instead gets every core for verification,
 * and fewer partitions than threads share the spare ones.
 */
public final class DataDirJudge {
    /** Progress: partitions done of total, and log bytes judged so far of the total. */
    public interface Progress {
        void update(int done, int total, long bytes, long totalBytes);

        Progress NONE = (d, t, b, tb) -> { };
    }

    private final RecoveryOptions options;
    private final int threads;

    public DataDirJudge(RecoveryOptions options, int threads) {
        this.options = options;
        this.threads = Math.max(1, threads);
    }

    /** Reports in the order of {@code partitions}; each carries the other mode's verdict when {@code both}. */
    public List<PartitionReport> judge(List<PartitionPath> partitions, boolean durable, boolean both,
                                       Progress progress) throws InterruptedException {
        List<Boolean> modes = new ArrayList<>();
        List<Checkpoint> checkpoints = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            modes.add(durable);
            checkpoints.add(options.checkpoint());
        }
        return judge(partitions, modes, checkpoints, both, progress);
    }

    /**
     * As {@link #judge(List, boolean, boolean, Progress)}, each partition with its own durable mode and WAL checkpoint
     * (null: none), as the data directory's metadata gives them (analyzers.inputs).
     */
    public List<PartitionReport> judge(List<PartitionPath> partitions, List<Boolean> durable,
                                       List<Checkpoint> checkpoints, boolean both, Progress progress)
            throws InterruptedException {
        long[] sizes = new long[partitions.size()];
        long totalBytes = 0;
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = Sizes.logBytes(partitions.get(i).directory());
            totalBytes += sizes[i];
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
        java.util.function.IntFunction<PartitionReport> one = i -> {
            PartitionPath p = partitions.get(i);
            AtomicLong mine = new AtomicLong();
            RecoveryOptions mode = options.withCheckpoint(checkpoints.get(i));
            RecoveryEngine engine = new RecoveryEngine(mode.withThreads(verifyThreads)
                    .withProgress(n -> {
                        long before = mine.get();
                        long after = Math.min(sizes[i], before + n);
                        if (after > before && mine.compareAndSet(before, after)) {
                            long now = bytes.addAndGet(after - before);
                            if ((after >>> 20) != (before >>> 20)) {
                                progress.update(done.get(), partitions.size(), now, total);
                            }
                        }
                    }));
            PartitionReport r = both ? engine.judgeBothModes(p, durable.get(i)) : engine.judge(p, durable.get(i));
            long rest = sizes[i] - mine.getAndSet(sizes[i]);
            progress.update(done.incrementAndGet(), partitions.size(), bytes.addAndGet(Math.max(0, rest)), total);
            return r;
        };
        if (partitions.size() <= 1 || threads == 1) {
            List<PartitionReport> out = new ArrayList<>();
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
            List<Future<PartitionReport>> futures = new ArrayList<>();
            for (int i = 0; i < partitions.size(); i++) {
                int k = i;
                futures.add(pool.submit(() -> one.apply(k)));
            }
            List<PartitionReport> out = new ArrayList<>();
            for (Future<PartitionReport> f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("judging failed: " + e.getCause(), e.getCause());
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
