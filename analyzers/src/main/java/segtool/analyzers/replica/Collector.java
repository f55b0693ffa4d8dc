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
import segtool.analyzers.recovery.IoFailure;
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
 *
 * <p>A file that cannot be read (open, read or stat fails: EACCES, EIO, ELOOP) does not stop the collection: every
 * such file is returned as an {@link Unreadable}, each read file is still recorded, and the partition holding it is
 * recorded with outcome {@code io_error} (the engine's own I/O error when it met one, else the first such file and
 * the OS reason) and one warning per file, so {@code plan} never takes it as a judged replica. A segment whose
 * {@code .log} could not be read is left out of {@code segments}. A FIFO, device or socket under a segment's name
 * and a symlinked {@code .log} are refusals, not read errors: they still stop the collection.
 */
public final class Collector {
    /** Receives each partition's manifest, in the order asked for. */
    public interface Sink {
        void accept(PartitionManifest m) throws IOException;
    }

    /** A file of {@code partition} that could not be read: the path, the operation and the OS reason. */
    public record Unreadable(String partition, IoFailure failure) {
    }

    private record Collected(PartitionManifest manifest, List<Unreadable> unreadable) {
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
     * checkpoint and identity, from {@link segtool.analyzers.inputs.InputsResolver}). Returns the files that could
     * not be read, in partition order (empty when the collection is complete).
     */
    public List<Unreadable> collect(String node, List<PartitionInputs> partitions, Sink sink)
            throws IOException, InterruptedException {
        List<Unreadable> unreadable = new ArrayList<>();
        if (concurrency == 1 || partitions.size() <= 1) {
            for (PartitionInputs p : partitions) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                Collected c = collect(node, p, concurrency);
                sink.accept(c.manifest());
                unreadable.addAll(c.unreadable());
            }
            return unreadable;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(concurrency, partitions.size()), r -> {
            Thread t = new Thread(r, "segtool-collect");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Collected>> futures = new ArrayList<>();
            // fewer partitions than threads share the spare cores for verification
            int verifyThreads = Math.max(1, concurrency / Math.min(concurrency, partitions.size()));
            for (PartitionInputs p : partitions) {
                futures.add(pool.submit(() -> collect(node, p, verifyThreads)));
            }
            for (Future<Collected> f : futures) {
                try {
                    Collected c = f.get();
                    sink.accept(c.manifest());
                    unreadable.addAll(c.unreadable());
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
        return unreadable;
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
    private Collected collect(String node, PartitionInputs in, int verifyThreads) throws IOException {
        PartitionPath p = in.partition();
        Identity id = in.identity() == null ? Identity.UNKNOWN : in.identity();
        PartitionKey key = new PartitionKey(p.streamId(), p.topicId(), p.partitionId(), id.createdRevision(),
                id.purgeGeneration());
        String path = p.directory().toAbsolutePath().normalize().toString();
        List<Long> starts = new ArrayList<>();
        PartitionManifest.Verdict verdict;
        List<String> warnings;
        List<IoFailure> unreadable = new ArrayList<>();
        Checkpoint cp = null;
        if (in.judgeable()) {
            cp = in.wal().checkpoint();
            RecoveryEngine engine = new RecoveryEngine(options.withThreads(verifyThreads).withCheckpoint(cp)
                    .withProgress(throttle::take));
            PartitionReport report = engine.judge(p, in.durability().durable());
            verdict = EngineView.verdict(report);
            report.segments().forEach(s -> starts.add(s.start()));
            warnings = new ArrayList<>(report.warnings());
            if (report.ioFailure() != null) {
                unreadable.add(report.ioFailure());
            }
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
            PartitionManifest.Segment s = segment(start, SegmentFiles.log(p.directory(), start),
                    SegmentFiles.index(p.directory(), start), unreadable);
            if (s != null) {
                segments.add(s);
            }
        }
        List<PartitionManifest.Anchor> anchors = anchors(p.directory(), unreadable);
        List<Unreadable> failures = new ArrayList<>();
        java.util.Set<Path> seen = new java.util.HashSet<>();
        for (IoFailure f : unreadable) {
            if (seen.add(f.path())) {
                failures.add(new Unreadable(path, f));
                warnings.add("not read: " + f);
            }
        }
        if (!failures.isEmpty() && verdict.ioError() == null) {
            // what was collected is not the partition: no verdict to compare, whatever the engine said
            verdict = new PartitionManifest.Verdict(PartitionReport.Outcome.IO_ERROR.json(), ExitCode.IO_ERROR,
                    null, null, null, failures.get(0).failure().toString(), PartitionManifest.Chain.EMPTY);
        }
        boolean durable = in.judgeable() && in.durability().durable();
        String source = in.judgeable() ? in.durability().source().json() : null;
        return new Collected(new PartitionManifest(node, key, path, durable, source, verdict,
                List.copyOf(segments),
                cp == null ? null : new PartitionManifest.Checkpoint(cp.startOffset(), cp.length(), cp.nextOffset()),
                anchors, List.copyOf(warnings)), List.copyOf(failures));
    }

    /** The segment as found; null when its .log could not be read (recorded in {@code unreadable}). */
    private PartitionManifest.Segment segment(long start, Path log, Path index, List<IoFailure> unreadable)
            throws IOException {
        long indexLength = 0;
        if (present(index, false, unreadable)) {
            try {
                indexLength = Files.size(index);
            } catch (IOException e) {
                unreadable.add(failure(index, IoFailure.STAT, e));
            }
            try {
                // the length is all the manifest holds, but a file that cannot be read is not collected
                FileXxh3.hash(index, throttle::take);
            } catch (IOException e) {
                unreadable.add(failure(index, operation(e), e));
            }
        }
        int before = unreadable.size();
        if (!present(log, true, unreadable)) {
            return unreadable.size() > before ? null
                    : new PartitionManifest.Segment(start, 0, FileXxh3Empty.HASH, indexLength, new Batches(), 0, null);
        }
        long digest;
        try {
            digest = FileXxh3.hash(log, throttle::take);
        } catch (IOException e) {
            unreadable.add(failure(log, operation(e), e));
            return null;
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
            unreadable.add(failure(log, operation(e), e));
            return null;
        }
        return new PartitionManifest.Segment(start, length, digest, indexLength, batches, walkEnd, stop);
    }

    private List<PartitionManifest.Anchor> anchors(Path dir, List<IoFailure> unreadable) throws IOException {
        List<PartitionManifest.Anchor> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.ANCHOR))) {
            for (Path a : s) {
                Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(a.getFileName().toString()));
                if (start == null) {
                    continue;
                }
                try {
                    RegularFile.require(a);
                } catch (RegularFile.NotRegular | java.nio.file.NoSuchFileException notAFile) {
                    continue;
                } catch (IOException e) {
                    unreadable.add(failure(a, IoFailure.STAT, e));
                    continue;
                }
                try {
                    out.add(new PartitionManifest.Anchor(start, Files.size(a), FileXxh3.hash(a)));
                } catch (IOException e) {
                    unreadable.add(failure(a, operation(e), e));
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
     * nothing is there or a symlink dangles, and false with the failure added to {@code unreadable} when its metadata
     * cannot be read (a symlink loop: ELOOP). A FIFO, device, socket or directory under a segment's name is refused:
     * one line naming it, never a length of 0 in the manifest. A file that is hashed is opened
     * without following a symlink, so a symlinked .log is refused in those words (the OS's own, "Too many levels of
     * symbolic links", would name a loop that is not there).
     */
    private static boolean present(Path f, boolean hashed, List<IoFailure> unreadable) throws IOException {
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
            unreadable.add(failure(f, IoFailure.STAT, e));
            return false;
        }
        if (hashed && Files.isSymbolicLink(f)) {
            throw new IOException(f + ": is a symbolic link; collect and compare hash a segment's .log only as a "
                    + "regular file, never through a symlink");
        }
        return true;
    }

    /** {@code open} when the file could not be opened (Java names the file then), else {@code read}. */
    private static String operation(IOException e) {
        return e instanceof java.nio.file.FileSystemException ? IoFailure.OPEN : IoFailure.READ;
    }

    private static IoFailure failure(Path f, String operation, IOException e) {
        if (segtool.analyzers.recovery.RecoveryEngine.Cancelled.isInterrupt(e)) {
            // Ctrl-C or SIGTERM closed the read: the run stops, it is not an unreadable file
            throw new segtool.analyzers.recovery.RecoveryEngine.Cancelled(null, e);
        }
        return new IoFailure(f, operation, operation.equals(IoFailure.STAT) ? "cannot read file metadata"
                : "cannot read file", reason(e));
    }

    private static String reason(IOException e) {
        return segtool.analyzers.recovery.IoFailure.reasonOf(e);
    }

    /** XXH3-64 of no bytes. */
    private static final class FileXxh3Empty {
        static final long HASH = segtool.formats.hash.Xxh3.hash(new byte[0], 0, 0);
    }
}
