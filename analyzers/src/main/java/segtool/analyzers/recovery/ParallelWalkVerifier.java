package segtool.analyzers.recovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * Verifies records ahead of a walk on several cores. When the walk asks for a record that has not been checked
 * yet, the chain of headers from there is followed (header reads only: where the next record starts does not depend
 * on checksums) for up to {@link #AHEAD_BYTES}, the records are split into contiguous runs, and each run is verified
 * by one worker through its own window. The walk then consumes the answers in order and stops at the first failure,
 * exactly as a sequential check would; answers past that point are discarded. Memory: one window per worker.
 */
final class ParallelWalkVerifier extends WalkVerifier {
    private static final long AHEAD_BYTES = 64L << 20;
    private static final int AHEAD_RECORDS = 65_536;
    private static final int HEADER_WINDOW = 64 * 1024;
    private static volatile ExecutorService pool;

    private final SegmentChannel log;
    private final SegmentChannel headers;
    private final SegmentChannel walkHeaders;
    private final long maxBatchBytes;
    private final Worker[] workers;
    private final Map<Long, Answer> answers = new HashMap<>();
    private final RecordVerifier aside = new RecordVerifier();

    private record Answer(long length, Defect defect) {
    }

    private record Job(long position, long length) {
    }

    private static final class Worker {
        final SegmentChannel channel;
        final RecordVerifier verifier = new RecordVerifier();

        Worker(SegmentChannel channel) {
            this.channel = channel;
        }
    }

    ParallelWalkVerifier(SegmentChannel log, int threads, int window, long maxBatchBytes) throws IOException {
        this.log = log;
        this.maxBatchBytes = maxBatchBytes;
        this.headers = SegmentChannel.open(log.path(), HEADER_WINDOW, log.size());
        this.walkHeaders = SegmentChannel.open(log.path(), HEADER_WINDOW, log.size());
        this.workers = new Worker[threads];
        try {
            for (int i = 0; i < threads; i++) {
                workers[i] = new Worker(SegmentChannel.open(log.path(), window, log.size()));
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private static ExecutorService pool() {
        ExecutorService p = pool;
        if (p == null) {
            synchronized (ParallelWalkVerifier.class) {
                p = pool;
                if (p == null) {
                    p = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
                        Thread t = new Thread(r, "segtool-verify");
                        t.setDaemon(true);
                        return t;
                    });
                    pool = p;
                }
            }
        }
        return p;
    }

    @Override
    SegmentChannel walkHeaders() {
        return walkHeaders;
    }

    @Override
    void startWalk(long position) {
        answers.clear();
    }

    @Override
    Defect verify(long position, long length) throws IOException {
        Answer a = answers.remove(position);
        if (a == null || a.length() != length) {
            answers.clear();
            verifyAhead(position, length);
            a = answers.remove(position);
        }
        return a.defect();
    }

    @Override
    Defect verifyAside(long position, long length) throws IOException {
        return aside.verify(log, position, length);
    }

    /** Follows the header chain from {@code position} and verifies what it finds, in parallel. */
    private void verifyAhead(long position, long length) throws IOException {
        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job(position, length));
        long bytes = length;
        long next = position + length;
        long size = log.size();
        while (bytes < AHEAD_BYTES && jobs.size() < AHEAD_RECORDS && U64.le(U64.addSat(next, BatchHeader.LENGTH), size)) {
            int i = headers.at(next, BatchHeader.LENGTH);
            ByteBuffer b = headers.buffer();
            if (!BatchHeader.decodes(b, i)) {
                break;
            }
            long len = LittleEndian.u64(b, i + BatchHeader.BATCH_LENGTH_OFFSET);
            if (U64.gt(len, maxBatchBytes) || U64.gt(U64.addSat(next, len), size)) {
                break;
            }
            jobs.add(new Job(next, len));
            bytes += len;
            next += len;
        }
        int runs = (int) Math.min(workers.length, jobs.size());
        if (runs == 1) {
            Worker w = workers[0];
            for (Job j : jobs) {
                answers.put(j.position(), new Answer(j.length(), w.verifier.verify(w.channel, j.position(), j.length())));
            }
            return;
        }
        List<Future<List<Answer>>> futures = new ArrayList<>(runs);
        List<List<Job>> slices = slice(jobs, bytes, runs);
        for (int r = 0; r < slices.size(); r++) {
            Worker w = workers[r];
            List<Job> slice = slices.get(r);
            futures.add(pool().submit(() -> {
                List<Answer> out = new ArrayList<>(slice.size());
                for (Job j : slice) {
                    try {
                        out.add(new Answer(j.length(), w.verifier.verify(w.channel, j.position(), j.length())));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return out;
            }));
        }
        for (int r = 0; r < slices.size(); r++) {
            List<Answer> got;
            try {
                got = futures.get(r).get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(log.path() + ": interrupted while verifying", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() instanceof UncheckedIOException ? e.getCause().getCause() : e.getCause();
                if (cause instanceof IOException) {
                    throw (IOException) cause;
                }
                throw new IOException(log.path() + ": verification failed: " + cause, cause);
            }
            List<Job> slice = slices.get(r);
            for (int k = 0; k < slice.size(); k++) {
                answers.put(slice.get(k).position(), got.get(k));
            }
        }
    }

    /** Contiguous runs of roughly equal bytes. */
    private static List<List<Job>> slice(List<Job> jobs, long bytes, int runs) {
        List<List<Job>> out = new ArrayList<>(runs);
        long share = (bytes + runs - 1) / runs;
        List<Job> current = new ArrayList<>();
        long inCurrent = 0;
        for (Job j : jobs) {
            current.add(j);
            inCurrent += j.length();
            if (inCurrent >= share && out.size() < runs - 1) {
                out.add(current);
                current = new ArrayList<>();
                inCurrent = 0;
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (Worker w : workers) {
            if (w != null) {
                try {
                    w.verifier.close();
                    w.channel.close();
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
            }
        }
        aside.close();
        if (headers != null) {
            headers.close();
        }
        if (walkHeaders != null) {
            walkHeaders.close();
        }
        if (first != null) {
            throw first;
        }
    }
}
