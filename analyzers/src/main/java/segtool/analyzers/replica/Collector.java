package segtool.analyzers.replica;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import segtool.analyzers.archive.FileXxh3;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.LogCursor;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Builds the {@link PartitionManifest} of each partition of one node: the engine's verdict (never re-derived here),
 * then per segment the log's XXH3-64 and one header walk from byte 0 that frames and verifies every record, then the
 * anchors. Partitions are collected {@code concurrency} at a time and every read is charged to one
 * {@link Throttle}, the engine's included. Memory per partition is the windows plus one {@link Batches} per segment.
 */
public final class Collector {
    /** How durability was decided for a run: the value and where it came from. */
    public record Durability(boolean durable, String source) {
    }

    /** Receives each partition's manifest, in the order asked for. */
    public interface Sink {
        void accept(PartitionManifest m) throws IOException;
    }

    private final RecoveryOptions options;
    private final int concurrency;
    private final Throttle throttle;

    public Collector(RecoveryOptions options, int concurrency, Throttle throttle) {
        this.options = options;
        this.concurrency = Math.max(1, concurrency);
        this.throttle = throttle;
    }

    /** All partitions, in order, handed to {@code sink} as each is done. */
    public void collect(String node, List<PartitionPath> partitions, Durability durability, Sink sink)
            throws IOException, InterruptedException {
        if (concurrency == 1 || partitions.size() <= 1) {
            for (PartitionPath p : partitions) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                sink.accept(collect(node, p, durability, concurrency));
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(concurrency, partitions.size()), r -> {
            Thread t = new Thread(r, "segtool-collect");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<PartitionManifest>> futures = new ArrayList<>();
            for (PartitionPath p : partitions) {
                futures.add(pool.submit(() -> collect(node, p, durability, 1)));
            }
            for (Future<PartitionManifest> f : futures) {
                try {
                    sink.accept(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) {
                        throw io;
                    }
                    throw new IllegalStateException("collecting failed: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** All partitions in memory (compare on directories). */
    public List<PartitionManifest> collect(String node, List<PartitionPath> partitions, Durability durability)
            throws IOException, InterruptedException {
        List<PartitionManifest> out = new ArrayList<>();
        collect(node, partitions, durability, out::add);
        return out;
    }

    private PartitionManifest collect(String node, PartitionPath p, Durability durability, int verifyThreads)
            throws IOException {
        RecoveryEngine engine = new RecoveryEngine(options.withThreads(verifyThreads).withProgress(throttle::take));
        PartitionReport report = engine.judge(p, durability.durable());
        PartitionManifest.Verdict verdict = EngineView.verdict(report);
        List<PartitionManifest.Segment> segments = new ArrayList<>();
        for (SegmentReport s : report.segments()) {
            segments.add(segment(s.start(), SegmentFiles.log(p.directory(), s.start()),
                    SegmentFiles.index(p.directory(), s.start())));
        }
        var cp = options.checkpoint();
        return new PartitionManifest(node, PartitionKey.ofPath(p.streamId(), p.topicId(), p.partitionId()),
                p.directory().toAbsolutePath().normalize().toString(), durability.durable(), durability.source(),
                verdict, List.copyOf(segments),
                cp == null ? null : new PartitionManifest.Checkpoint(cp.startOffset(), cp.length(), cp.nextOffset()),
                anchors(p.directory()), List.copyOf(report.warnings()));
    }

    private PartitionManifest.Segment segment(long start, Path log, Path index) throws IOException {
        long indexLength = Files.isRegularFile(index) ? size(index) : 0;
        if (!Files.isRegularFile(log)) {
            return new PartitionManifest.Segment(start, 0, FileXxh3Empty.HASH, indexLength, new Batches(), 0, null);
        }
        long digest;
        try {
            digest = FileXxh3.hash(log, throttle::take);
        } catch (IOException e) {
            throw new IOException(log + ": cannot read file: " + reason(e), e);
        }
        Batches batches = new Batches();
        long walkEnd;
        String stop;
        long length;
        try (SegmentChannel ch = SegmentChannel.open(log); LogCursor cursor = new LogCursor(ch, 0,
                Math.min(options.maxBatchBytes(), Integer.MAX_VALUE))) {
            length = ch.size();
            long pending = 0;
            for (LogCursor.Batch b; (b = cursor.next()) != null; ) {
                batches.add(b.position(), b.header().baseOffset(), b.length(), b.header().batchChecksum(),
                        b.header().messageCount(), b.verified());
                pending += b.length();
                if (pending >= 1 << 20) {
                    throttle.take(pending);
                    pending = 0;
                }
            }
            throttle.take(pending);
            walkEnd = cursor.position();
            stop = cursor.stopReason() == null ? null : cursor.stopReason().code().name().toLowerCase();
        } catch (IOException e) {
            throw new IOException(log + ": cannot read file: " + reason(e), e);
        }
        return new PartitionManifest.Segment(start, length, digest, indexLength, batches, walkEnd, stop);
    }

    private static List<PartitionManifest.Anchor> anchors(Path dir) throws IOException {
        List<PartitionManifest.Anchor> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SegmentFiles.ANCHOR)) {
            for (Path a : s) {
                Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(a.getFileName().toString()));
                if (start != null && Files.isRegularFile(a)) {
                    out.add(new PartitionManifest.Anchor(start, size(a), FileXxh3.hash(a)));
                }
            }
        } catch (java.nio.file.NoSuchFileException missing) {
            return List.of();
        }
        out.sort((x, y) -> Long.compareUnsigned(x.start(), y.start()));
        return List.copyOf(out);
    }

    private static long size(Path p) throws IOException {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new IOException(p + ": cannot read file metadata: " + reason(e), e);
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** XXH3-64 of no bytes. */
    private static final class FileXxh3Empty {
        static final long HASH = segtool.formats.hash.Xxh3.hash(new byte[0], 0, 0);
    }
}
