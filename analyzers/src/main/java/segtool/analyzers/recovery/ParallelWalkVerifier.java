package segtool.analyzers.recovery;

import java.io.IOException;
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

    /** The verification of one record: a defect (null if it verifies), or the read error met while checking it. */
    private record Answer(long length, Defect defect, IOException error) {
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
        if (a == null || a.length() != length || a.error() != null) {
            // not verified ahead, or a read ahead failed: check it now, when the walk asks, as a sequential walk would
            answers.clear();
            verifyAhead(position, length);
            a = answers.remove(position);
        }
        if (a.error() != null) {
            throw a.error();
        }
        return a.defect();
    }

    @Override
    Defect verifyAside(long position, long length) throws IOException {
        return aside.verify(log, position, length);
    }

    /**
     * Follows the header chain from {@code position} and verifies what it finds, in parallel. Only the record asked
     * for is an answer the walk needs now; the others are hints. A read error while looking ahead (the header chain
     * or another record) ends the look-ahead there and fails nothing: the walk may stop before it gets that far, and
     * if it does get there the record is read again and the error, if it persists, is raised then.
     */
    private void verifyAhead(long position, long length) throws IOException {
        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job(position, length));
        long bytes = length;
        long next = position + length;
        long size = log.size();
        while (bytes < AHEAD_BYTES && jobs.size() < AHEAD_RECORDS
                && U64.le(U64.addSat(next, BatchHeader.LENGTH), size)) {
            int i;
            try {
                i = headers.at(next, BatchHeader.LENGTH);
            } catch (IOException ahead) {
                break;
            }
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
            put(jobs, run(workers[0], jobs));
        } else {
            List<List<Job>> slices = slice(jobs, bytes, runs);
            List<Future<List<Answer>>> futures = new ArrayList<>(slices.size());
            for (int r = 0; r < slices.size(); r++) {
                Worker w = workers[r];
                List<Job> slice = slices.get(r);
                futures.add(pool().submit(() -> run(w, slice)));
            }
            // Every task is waited for, whatever happens: closing this verifier hands the workers' windows back to
            // the shared pool of direct buffers, which a task still reading into them would corrupt.
            boolean interrupted = false;
            Throwable failure = null;
            for (int r = 0; r < futures.size(); r++) {
                while (true) {
                    try {
                        put(slices.get(r), futures.get(r).get());
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        failure = failure == null ? e.getCause() : failure;
                        break;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
                throw new IOException(log.path() + ": interrupted while verifying");
            }
            if (failure != null) {
                throw new IOException(log.path() + ": verification failed: " + failure, failure);
            }
        }
        Answer asked = answers.get(position);
        if (asked != null && asked.error() != null) {
            throw asked.error();
        }
    }

    /** Verifies a run of records through one worker; a read error is the answer for its record and ends the run. */
    private static List<Answer> run(Worker w, List<Job> jobs) {
        List<Answer> out = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            try {
                out.add(new Answer(j.length(), w.verifier.verify(w.channel, j.position(), j.length()), null));
            } catch (IOException e) {
                out.add(new Answer(j.length(), null, e));
                break;
            }
        }
        return out;
    }

    private void put(List<Job> jobs, List<Answer> got) {
        for (int k = 0; k < got.size(); k++) {
            answers.put(jobs.get(k).position(), got.get(k));
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
