package segtool.analyzers.recovery;

import java.io.Closeable;
import java.io.IOException;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * Verify(p, n) for the walks of one segment. The walks ask for records in log order; an implementation may verify
 * records ahead of the walk on other cores, as long as every answer equals what a sequential check would give.
 */
abstract class WalkVerifier implements Closeable {

    /**
     * The verifier for walks over {@code log}: on {@code threads} cores through a ring of windows, or on the walk's
     * own thread; through mapped windows when {@code mapping} (see {@link RecoveryOptions#mapped()}).
     */
    static WalkVerifier create(SegmentChannel log, int threads, int window, long maxBatchBytes, boolean mapping)
            throws IOException {
        // the window as the log's channel sized it (a small log gets a small one): only large ones are mapped
        boolean mapped = mapping && log.capacity() >= MAPPED_WINDOW_MIN;
        if (threads <= 1) {
            return mapped ? Sequential.mapped(log, window) : new Sequential(log);
        }
        return new ParallelWalkVerifier(log, threads, window, maxBatchBytes, mapped);
    }

    /** Windows below this are read into, not mapped: a mapping per few pages would cost more than the copy. */
    static final int MAPPED_WINDOW_MIN = 256 << 10;

    /** The channel a walk reads its headers through: the verifier's own window, or a small one of its own. */
    abstract SegmentChannel walkHeaders();

    /**
     * Where the header of the record at {@code position}, which a walk asks for next, sits in
     * {@link #walkHeaderBuffer()}: an index, or -1 when the walk should read it through {@link #walkHeaders()}.
     * The walk checks that {@code position + 256} lies inside the log first.
     */
    int walkHeader(long position) throws IOException {
        return -1;
    }

    /** The buffer {@link #walkHeader} indexes; valid until the next call to this verifier. */
    java.nio.ByteBuffer walkHeaderBuffer() {
        return null;
    }

    /** A walk starts at {@code position}: a hint that records will be asked for in order from there. */
    abstract void startWalk(long position);

    /** Verify the record at {@code position} of {@code length} bytes, asked for by a walk in log order. */
    abstract Defect verify(long position, long length) throws IOException;

    /** Verify one record out of walk order (probe survivors, anchor search). */
    abstract Defect verifyAside(long position, long length) throws IOException;

    /**
     * The channel whose window {@link #walkHeaderBuffer()} is: a fault met reading a header out of it is named by its
     * {@link SegmentChannel#fault} (which passes the error on when the channel maps nothing).
     */
    SegmentChannel walkHeaderChannel() {
        return walkHeaders();
    }

    /**
     * Verifies on the calling thread. Read windows: through the walk's own channel, which the walk reads its headers
     * through too. Mapped ({@link #mapped}): through a mapped window of its own that follows the walk; the walk's
     * headers are read from that window where it holds them (the header after a record usually sits in the window
     * the record was verified in), otherwise through a 256-byte read, and records out of walk order through the read
     * window of {@code log}. The mapped window's buffer is touched only here and in SegmentLog's header read, each
     * time right after the call that placed it, so no unmapped buffer is read.
     */
    static final class Sequential extends WalkVerifier {
        private final SegmentChannel log;
        /** Records in walk order: {@code log}, or the mapped window. */
        private final SegmentChannel walk;
        /** The walk's header reads where {@link #walkHeader} says -1: {@code log}, or a 256-byte read channel. */
        private final SegmentChannel headers;
        private final RecordVerifier verifier = new RecordVerifier();
        private final RecordVerifier aside;

        Sequential(SegmentChannel log) {
            this(log, log, log);
        }

        private Sequential(SegmentChannel log, SegmentChannel walk, SegmentChannel headers) {
            this.log = log;
            this.walk = walk;
            this.headers = headers;
            this.aside = walk == log ? verifier : new RecordVerifier();
        }

        /** The verifier through a mapped window of {@code capacity} bytes over {@code log}'s file. */
        static Sequential mapped(SegmentChannel log, int capacity) throws IOException {
            SegmentChannel window = SegmentChannel.open(log.path(), capacity, log.size(), true);
            try {
                return new Sequential(log, window, SegmentChannel.open(log.path(), BatchHeader.LENGTH, log.size()));
            } catch (IOException | RuntimeException e) {
                window.close();
                throw e;
            }
        }

        @Override
        SegmentChannel walkHeaders() {
            return headers;
        }

        @Override
        int walkHeader(long position) {
            return walk == log ? -1 : walk.held(position, BatchHeader.LENGTH);
        }

        @Override
        java.nio.ByteBuffer walkHeaderBuffer() {
            return walk == log ? null : walk.buffer();
        }

        @Override
        SegmentChannel walkHeaderChannel() {
            return walk;
        }

        @Override
        void startWalk(long position) {
        }

        @Override
        Defect verify(long position, long length) throws IOException {
            return verifier.verify(walk, position, length);
        }

        @Override
        Defect verifyAside(long position, long length) throws IOException {
            return aside.verify(log, position, length);
        }

        @Override
        public void close() throws IOException {
            if (walk == log) {
                verifier.close();
                return;
            }
            try (SegmentChannel w = walk; SegmentChannel h = headers; RecordVerifier a = aside) {
                verifier.close();
            }
        }
    }
}
