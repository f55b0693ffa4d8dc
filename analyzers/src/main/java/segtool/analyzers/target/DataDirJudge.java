package segtool.analyzers.target;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.formats.naming.PartitionPath;

/**
 * Judges many partitions, in parallel across the machine's cores: one partition per worker, each verifying on its
 * own thread, so memory stays at threads x window. A single partition instead gets every core for verification.
 */
public final class DataDirJudge {
    /** Progress: partitions done of total, and log bytes judged so far of the total. */
    public interface Progress {
        void update(int done, int total, long bytes, long totalBytes);

        Progress NONE = (d, t, b, tb) -> { };
    }

    private final RecoveryEngine.Options options;
    private final int threads;

    public DataDirJudge(RecoveryEngine.Options options, int threads) {
        this.options = options;
        this.threads = Math.max(1, threads);
    }

    /** Reports in the order of {@code partitions}; each carries the other mode's verdict when {@code both}. */
    public List<PartitionReport> judge(List<PartitionPath> partitions, boolean durable, boolean both,
                                       Progress progress) throws InterruptedException {
        long totalBytes = 0;
        for (PartitionPath p : partitions) {
            totalBytes += Sizes.logBytes(p.directory());
        }
        final long total = totalBytes;
        if (partitions.size() <= 1 || threads == 1) {
            RecoveryEngine engine = new RecoveryEngine(partitions.size() <= 1 ? options : options.withThreads(1));
            List<PartitionReport> out = new ArrayList<>();
            long bytes = 0;
            progress.update(0, partitions.size(), 0, total);
            for (PartitionPath p : partitions) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                out.add(both ? engine.judgeBothModes(p, durable) : engine.judge(p, durable));
                bytes += Sizes.logBytes(p.directory());
                progress.update(out.size(), partitions.size(), bytes, total);
            }
            return out;
        }
        RecoveryEngine engine = new RecoveryEngine(options.withThreads(1));
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, partitions.size()), r -> {
            Thread t = new Thread(r, "segtool-partition");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger done = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        try {
            List<Future<PartitionReport>> futures = new ArrayList<>();
            for (PartitionPath p : partitions) {
                futures.add(pool.submit(() -> {
                    PartitionReport r = both ? engine.judgeBothModes(p, durable) : engine.judge(p, durable);
                    long b = bytes.addAndGet(Sizes.logBytes(p.directory()));
                    progress.update(done.incrementAndGet(), partitions.size(), b, total);
                    return r;
                }));
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
