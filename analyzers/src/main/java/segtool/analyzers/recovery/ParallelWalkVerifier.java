package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * Verifies records ahead of a walk on several cores, through a ring of window slots.
 *
 * <p>The judging thread is the chain walker: from a record's start it follows the header chain over one window's
 * span of the log, reading the 256-byte headers only (where the next record starts does not depend on checksums),
 * notes the whole records that span holds, and publishes them as a slot. Workers take slots in sequence, read the
 * slot's window (so the copy out of the page cache, the larger half of the work, runs on every core, not on the
 * walker's alone) and verify every record in it; the walk then consumes the answers slot by slot, in log order, and
 * refills each slot as soon as it has been consumed. The walk's own header reads are served from the loaded
 * windows, so only the headers are read twice. A record larger than a window gets a slot of its own and is verified
 * through a mapping.
 *
 * <p>Hand-over: a slot carries the sequence number it was published under and the one it was verified under, both
 * volatile; a worker claims the next sequence number from one counter, and so does the judging thread while it
 * waits for an answer (so {@code threads - 1} workers and the walk keep {@code threads} cores busy). Nothing is allocated and no lock is taken
 * per record or per window; a waiting side spins briefly, then parks until the other side unparks it.
 *
 * <p>Answers equal a sequential check's: the chain stops where a header does not decode, claims more than
 * {@code MAXB} or runs past the end (where the walk stops too), or where a read ahead fails; a record the walk asks
 * for that the ring does not hold, or whose verification met an I/O error, is verified again on the walk's own
 * thread, as a sequential walk would, and only then does its error count. Memory: 2 x threads windows (at least 4).
 * The windows may be mappings ({@link RecoveryOptions#mapped()}): a slot's mapping is moved only by the worker that
 * loads it next, after the walk has consumed it, so the walk never reads an unmapped buffer.
 */
final class ParallelWalkVerifier extends WalkVerifier {
    private static final int HEADER_WINDOW = 64 * 1024;
    private static final int SPINS = 200;
    private static final ExecutorService POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "segtool-verify");
                t.setDaemon(true);
                // a mapped-window fault delivered as the worker ends is counted, not printed
                t.setUncaughtExceptionHandler((thread, e) -> {
                    if (e instanceof InternalError) {
                        SegmentChannel.noteMappedFault();
                    }
                });
                return t;
            });

    private final SegmentChannel log;
    private final SegmentChannel walkHeaders;
    /** The chain walker's header reads: one header per read, never a window's worth of bytes. */
    private final SegmentChannel chain;
    private final long size;
    private final long maxBatchBytes;
    private final Slot[] ring;
    private final Worker[] workers;
    private final RecordVerifier aside = new RecordVerifier();
    private final RecordVerifier helper = new RecordVerifier();
    private final AtomicLong claim = new AtomicLong();
    private final CountDownLatch exited;
    private volatile boolean closed;
    private volatile Thread waiting;
    private boolean started;

    // The walk's side, touched only by the judging thread.
    private boolean primed;
    private long published;   // slots of sequence [consumed, published) are in flight
    private long consumed;
    private int record;       // the next record of slot `consumed`
    private long next;        // where the next window starts
    private boolean chainEnded;

    /** One window of the log and the records it holds whole, with their answers. */
    static final class Slot {
        final SegmentChannel channel;
        final long[] position;
        final long[] length;
        final Defect[] defect;
        ByteBuffer buffer;
        long base;             // the log position of buffer index 0 (once loaded)
        long end;              // the log position just past the bytes the buffer holds (once loaded)
        long from;             // the log position of the first record: where the window is read from
        long span;             // the bytes from `from` that the window read holds, as the walker counted them
        boolean loaded;        // the window was read (false: its read failed, see `error`)
        int count;
        int answered;          // records [0, answered) have an answer; the one at `answered` met `error`
        IOException error;
        volatile long ready = -1;
        volatile long done = -1;

        Slot(SegmentChannel channel, int records) {
            this.channel = channel;
            this.position = new long[records];
            this.length = new long[records];
            this.defect = new Defect[records];
        }
    }

    private final class Worker implements Runnable {
        final RecordVerifier verifier = new RecordVerifier();
        volatile Thread thread;
        volatile boolean parked;

        @Override
        public void run() {
            thread = Thread.currentThread();
            try {
                long s = claim.getAndIncrement();
                while (true) {
                    try {
                        Slot slot = ring[(int) (s % ring.length)];
                        if (!awaitReady(slot, s)) {
                            return;
                        }
                        verifySlot(slot, verifier);
                        slot.done = s;
                        Thread w = waiting;
                        if (w != null) {
                            LockSupport.unpark(w);
                        }
                        s = claim.getAndIncrement();
                    } catch (InternalError late) {
                        // A fault under a mapped window, delivered after the read that met it: an answer given
                        // since may be wrong, so it is counted (the engine then judges again through read windows).
                        // The slot claimed is answered once: again if it has no answer yet, so that the walk never
                        // waits for it in vain, and never again once it has one (the walk may be reading it).
                        SegmentChannel.noteMappedFault();
                        if (ring[(int) (s % ring.length)].done == s) {
                            s = claim.getAndIncrement();
                        }
                    }
                }
            } finally {
                thread = null;
                exited.countDown();
            }
        }

        private boolean awaitReady(Slot slot, long s) {
            for (int i = 0; slot.ready != s; i++) {
                if (closed) {
                    return false;
                }
                if (i < SPINS) {
                    Thread.onSpinWait();
                } else {
                    parked = true;
                    if (slot.ready != s && !closed) {
                        LockSupport.park(this);
                    }
                    parked = false;
                }
            }
            return true;
        }
    }

    /** Reads the slot's window, then verifies every record in it with {@code verifier}; the first I/O error ends it. */
    private static void verifySlot(Slot slot, RecordVerifier verifier) {
        slot.error = null;
        slot.loaded = false;
        int k = 0;
        try {
            int i = slot.channel.at(slot.from, (int) slot.span);
            slot.buffer = slot.channel.buffer();
            slot.base = slot.from - i;
            slot.end = slot.channel.windowEnd();
            slot.loaded = true;
            for (; k < slot.count; k++) {
                long p = slot.position[k];
                long n = slot.length[k];
                // a record larger than the window is the slot's only one, verified through a mapping
                slot.defect[k] = p + n <= slot.end
                        ? verifier.verify(slot.buffer, (int) (p - slot.base), n, p)
                        : verifier.verify(slot.channel, p, n);
            }
        } catch (IOException e) {
            slot.error = e;
        } catch (RuntimeException e) {
            slot.error = new IOException(e);
        } catch (InternalError e) {
            // a fault reading the mapped window: no header is taken from it, and the walk reads again on its own
            slot.error = slot.channel.fault(e);
            slot.loaded = false;
        }
        slot.answered = k;
    }

    ParallelWalkVerifier(SegmentChannel log, int threads, int window, long maxBatchBytes, boolean mapping)
            throws IOException {
        this.log = log;
        this.size = log.size();
        this.maxBatchBytes = maxBatchBytes;
        // the judging thread verifies slots too while it waits, so threads - 1 workers keep `threads` cores busy
        this.workers = new Worker[Math.max(1, threads - 1)];
        this.ring = new Slot[2 * Math.max(2, threads)];
        this.exited = new CountDownLatch(workers.length);
        SegmentChannel headerChannel = null;
        SegmentChannel chainChannel = null;
        try {
            headerChannel = SegmentChannel.open(log.path(), HEADER_WINDOW, size);
            chainChannel = SegmentChannel.open(log.path(), BatchHeader.LENGTH, size);
            for (int i = 0; i < ring.length; i++) {
                SegmentChannel c = SegmentChannel.open(log.path(), window, size, mapping);
                ring[i] = new Slot(c, c.capacity() / BatchHeader.LENGTH + 1);
            }
        } catch (IOException e) {
            this.walkHeaders = headerChannel;
            this.chain = chainChannel;
            close();
            throw e;
        }
        this.walkHeaders = headerChannel;
        this.chain = chainChannel;
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker();
        }
    }

    @Override
    SegmentChannel walkHeaders() {
        return walkHeaders;
    }

    @Override
    SegmentChannel walkHeaderChannel() {
        return ring[(int) (consumed % ring.length)].channel;
    }

    @Override
    void startWalk(long position) {
        primed = false;
    }

    @Override
    ByteBuffer walkHeaderBuffer() {
        return ring[(int) (consumed % ring.length)].buffer;
    }

    @Override
    int walkHeader(long position) throws IOException {
        if (!heads(position)) {
            if (primed && consumed == published && chainEnded && position == next) {
                return -1;   // the chain ended here: the walk reads this header itself
            }
            restart(position);
            if (!heads(position)) {
                return -1;
            }
        }
        long seq = consumed;
        Slot s = ring[(int) (seq % ring.length)];
        awaitDone(s, seq);   // a worker reads the window: its bytes are there once the slot is verified
        if (!s.loaded) {
            return -1;       // the read failed: the walk reads the header itself, and a lasting error counts there
        }
        return (int) (position - s.base);
    }

    /** Whether the ring's next record is the one at {@code position}. */
    private boolean heads(long position) {
        if (!primed || consumed == published) {
            return false;
        }
        Slot s = ring[(int) (consumed % ring.length)];
        return s.position[record] == position;
    }

    @Override
    Defect verify(long position, long length) throws IOException {
        if (!heads(position)) {
            restart(position);
        }
        if (!heads(position) || ring[(int) (consumed % ring.length)].length[record] != length) {
            // The ring does not hold this record: answer as a sequential check would, then resume from past it.
            Defect d = aside.verify(log, position, length);
            primed = false;
            return d;
        }
        long seq = consumed;
        Slot s = ring[(int) (seq % ring.length)];
        awaitDone(s, seq);
        int k = record;
        Defect answer;
        if (k < s.answered) {
            answer = s.defect[k];
        } else {
            // a read error or failure while verifying ahead: read again here, and let a lasting error count now
            answer = aside.verify(log, position, length);
        }
        if (++record == s.count) {
            record = 0;
            consumed++;
            fillAndPublish();
        }
        return answer;
    }

    @Override
    Defect verifyAside(long position, long length) throws IOException {
        return aside.verify(log, position, length);
    }

    /** Forgets the ring (after the answers in flight are in) and follows the chain from {@code position}. */
    private void restart(long position) throws IOException {
        drain();
        consumed = published;
        record = 0;
        next = position;
        chainEnded = false;
        primed = true;
        if (!started) {
            started = true;
            for (Worker w : workers) {
                POOL.execute(w);
            }
        }
        while (published - consumed < ring.length && !chainEnded) {
            fillAndPublish();
        }
    }

    /** Waits until every published slot has been verified, so none is being read by a worker. */
    private void drain() throws IOException {
        for (long s = consumed; s < published; s++) {
            awaitDone(ring[(int) (s % ring.length)], s);
        }
    }

    private void awaitDone(Slot slot, long s) throws IOException {
        for (int i = 0; slot.done != s; i++) {
            if (help()) {
                i = 0;
                continue;
            }
            if (i < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            waiting = Thread.currentThread();
            if (slot.done != s) {
                LockSupport.park(this);
            }
            waiting = null;
            if (Thread.currentThread().isInterrupted() && slot.done != s) {
                // the worker still owns the slot; it finishes one window and stops at close
                throw new IOException(log.path() + ": interrupted while verifying");
            }
        }
    }

    /**
     * Verifies the next published slot no worker has claimed yet, on the judging thread; false when there is none.
     * It takes the sequence number from the same counter the workers claim from, so each slot is verified once.
     */
    private boolean help() {
        long c = claim.get();
        if (c >= published || !claim.compareAndSet(c, c + 1)) {
            return false;
        }
        Slot slot = ring[(int) (c % ring.length)];
        try {
            verifySlot(slot, helper);
        } finally {
            slot.done = c;   // even when a late fault escapes: no one else may claim c, and drain waits for it
        }
        return true;
    }

    /** Fills the slot for sequence {@code published} from {@link #next} and publishes it, unless the chain ended. */
    private void fillAndPublish() throws IOException {
        if (chainEnded || published - consumed >= ring.length) {
            return;
        }
        Slot s = ring[(int) (published % ring.length)];
        if (!fill(s)) {
            chainEnded = true;
            return;
        }
        long seq = published++;
        s.ready = seq;
        for (Worker w : workers) {
            if (w.parked) {
                LockSupport.unpark(w.thread);
            }
        }
    }

    /**
     * Reads one window at {@link #next} and notes the whole records in it along the header chain; false when there
     * is no record to hand over (the chain ends at {@code next}). {@link #chainEnded} is set when the chain ends
     * inside the window.
     */
    private boolean fill(Slot s) {
        long p = next;
        if (U64.gt(U64.addSat(p, BatchHeader.LENGTH), size)) {
            return false;
        }
        // what one window read from p holds (the whole window, or as much as the log has): every record up to a
        // window long fits
        long end = p + Math.min(s.channel.capacity(), size - p);
        s.from = p;
        int n = 0;
        try {
            while (U64.le(p + BatchHeader.LENGTH, end)) {
                int at = chain.at(p, BatchHeader.LENGTH);
                ByteBuffer b = chain.buffer();
                if (!BatchHeader.decodes(b, at)) {
                    chainEnded = true;
                    break;
                }
                long len = LittleEndian.u64(b, at + BatchHeader.BATCH_LENGTH_OFFSET);
                if (U64.gt(len, maxBatchBytes) || U64.gt(U64.addSat(p, len), size)) {
                    chainEnded = true;
                    break;
                }
                if (p + len > end && n > 0) {
                    break;   // the next window starts with this record
                }
                s.position[n] = p;
                s.length[n] = len;
                n++;
                p += len;
                if (p > end || n == s.position.length) {
                    break;   // a record larger than the window, alone in its slot
                }
            }
        } catch (IOException ahead) {
            chainEnded = true;   // raised, if it lasts, when the walk gets here
        }
        // the window read: up to the last record's end, or the whole window for a record larger than it
        s.span = n == 0 ? 0 : Math.min(p, end) - s.from;
        next = p;
        s.count = n;
        s.answered = 0;
        if (p + BatchHeader.LENGTH > size) {
            chainEnded = true;
        }
        return n > 0;
    }

    @Override
    public void close() throws IOException {
        if (ring != null && workers != null && started) {
            try {
                drain();
            } catch (IOException | InternalError interruptedOrLate) {
                // still wait below: a worker may be reading a window that close hands back (a late fault under a
                // mapping was counted where it was caught, or is counted here)
                if (interruptedOrLate instanceof InternalError) {
                    SegmentChannel.noteMappedFault();
                }
            }
        }
        closed = true;
        if (started) {
            for (Worker w : workers) {
                Thread t = w.thread;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
            boolean interrupted = false;
            while (true) {
                try {
                    exited.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        IOException first = null;
        if (workers != null) {
            for (Worker w : workers) {
                if (w != null) {
                    first = closeOne(w.verifier, first);
                }
            }
        }
        for (Slot s : ring) {
            if (s != null) {
                first = closeOne(s.channel, first);
            }
        }
        first = closeOne(aside, first);
        first = closeOne(helper, first);
        if (walkHeaders != null) {
            first = closeOne(walkHeaders, first);
        }
        if (chain != null) {
            first = closeOne(chain, first);
        }
        if (first != null) {
            throw first;
        }
    }

    private static IOException closeOne(java.io.Closeable c, IOException first) {
        try {
            c.close();
        } catch (IOException e) {
            return first == null ? e : first;
        }
        return first;
    }
}
