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
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.Identity;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.io.RegularFile;
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

    /**
     * All partitions, in order, handed to {@code sink} as each is done; each judged with its own inputs (durability,
     * checkpoint and identity, from {@link segtool.analyzers.inputs.InputsResolver}).
     */
    public void collect(String node, List<PartitionInputs> partitions, Sink sink)
            throws IOException, InterruptedException {
        if (concurrency == 1 || partitions.size() <= 1) {
            for (PartitionInputs p : partitions) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                sink.accept(collect(node, p, concurrency));
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
            // fewer partitions than threads share the spare cores for verification
            int verifyThreads = Math.max(1, concurrency / Math.min(concurrency, partitions.size()));
            for (PartitionInputs p : partitions) {
                futures.add(pool.submit(() -> collect(node, p, verifyThreads)));
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
    public List<PartitionManifest> collect(String node, List<PartitionInputs> partitions)
            throws IOException, InterruptedException {
        List<PartitionManifest> out = new ArrayList<>();
        collect(node, partitions, out::add);
        return out;
    }

    /**
     * One partition. When its inputs give no verdict (the server refuses the node or the partition, or segtool cannot
     * decide them), the manifest says so as outcome {@code not_judged} with the reason and the exit code scan gives,
     * and still lists the segments' digests and batches: the bytes are there to compare.
     */
    private PartitionManifest collect(String node, PartitionInputs in, int verifyThreads) throws IOException {
        PartitionPath p = in.partition();
        Identity id = in.identity() == null ? Identity.UNKNOWN : in.identity();
        PartitionKey key = new PartitionKey(p.streamId(), p.topicId(), p.partitionId(), id.createdRevision(),
                id.purgeGeneration());
        String path = p.directory().toAbsolutePath().normalize().toString();
        List<Long> starts = new ArrayList<>();
        PartitionManifest.Verdict verdict;
        List<String> warnings;
        Checkpoint cp = null;
        if (in.judgeable()) {
            cp = in.wal().checkpoint();
            RecoveryEngine engine = new RecoveryEngine(options.withThreads(verifyThreads).withCheckpoint(cp)
                    .withProgress(throttle::take));
            PartitionReport report = engine.judge(p, in.durability().durable());
            verdict = EngineView.verdict(report);
            report.segments().forEach(s -> starts.add(s.start()));
            warnings = new ArrayList<>(report.warnings());
            if (in.wal().openChangesDirectory()) {
                warnings.add("the verdict is on the directory the server's WAL open leaves (METADATA 6.7), which "
                        + "first will " + String.join("; ", in.wal().openSteps().stream().filter(x -> x.changes())
                        .map(x -> x.text()).toList()) + "; the digests are of the files as they are now");
            }
        } else {
            verdict = new PartitionManifest.Verdict(PartitionManifest.NOT_JUDGED, ExitCode.of(in.refusal()), null,
                    null, null, in.refusalLine(), PartitionManifest.Chain.EMPTY);
            starts.addAll(PartitionFiles.starts(p.directory()));
            warnings = new ArrayList<>();
        }
        in.notes().forEach(n -> warnings.add("note: " + n));
        List<PartitionManifest.Segment> segments = new ArrayList<>();
        for (long start : starts) {
            segments.add(segment(start, SegmentFiles.log(p.directory(), start),
                    SegmentFiles.index(p.directory(), start)));
        }
        boolean durable = in.judgeable() && in.durability().durable();
        String source = in.judgeable() ? in.durability().source().json() : null;
        return new PartitionManifest(node, key, path, durable, source, verdict, List.copyOf(segments),
                cp == null ? null : new PartitionManifest.Checkpoint(cp.startOffset(), cp.length(), cp.nextOffset()),
                anchors(p.directory()), List.copyOf(warnings));
    }

    private PartitionManifest.Segment segment(long start, Path log, Path index) throws IOException {
        long indexLength = present(index, false) ? size(index) : 0;
        if (!present(log, true)) {
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
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.ANCHOR))) {
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

    /**
     * Whether {@code f} is a regular file (or, unless it is {@code hashed}, a symlink to one) to record; false when
     * nothing is there or a symlink dangles. A FIFO, device, socket or directory under a segment's name, or a symlink
     * loop, cannot be read: one line naming it, never a length of 0 in the manifest. A file that is hashed is opened
     * without following a symlink, so a symlinked .log is refused in those words (the OS's own, "Too many levels of
     * symbolic links", would name a loop that is not there).
     */
    private static boolean present(Path f, boolean hashed) throws IOException {
        if (!Files.exists(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try {
            RegularFile.require(f);
        } catch (java.nio.file.NoSuchFileException dangling) {
            return false;
        } catch (RegularFile.NotRegular special) {
            throw special;
        } catch (IOException e) {
            throw new IOException(f + ": cannot read file metadata: " + reason(e), e);
        }
        if (hashed && Files.isSymbolicLink(f)) {
            throw new IOException(f + ": is a symbolic link; collect and compare hash a segment's .log only as a "
                    + "regular file, never through a symlink");
        }
        return true;
    }

    private static long size(Path p) throws IOException {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new IOException(p + ": cannot read file metadata: " + reason(e), e);
        }
    }

    private static String reason(IOException e) {
        return segtool.analyzers.recovery.IoFailure.reasonOf(e);
    }

    /** XXH3-64 of no bytes. */
    private static final class FileXxh3Empty {
        static final long HASH = segtool.formats.hash.Xxh3.hash(new byte[0], 0, 0);
    }
}
