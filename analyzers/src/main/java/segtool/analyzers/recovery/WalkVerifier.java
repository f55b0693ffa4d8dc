package segtool.analyzers.recovery;

import java.io.Closeable;
import java.io.IOException;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * Verify(p, n) for the walks of one segment. The walks ask for records in log order; an implementation may verify
 * records ahead of the walk on other cores, as long as every answer equals what a sequential check would give.
 */
abstract class WalkVerifier implements Closeable {

    static WalkVerifier create(SegmentChannel log, int threads, int window, long maxBatchBytes) throws IOException {
        if (threads <= 1) {
            return new Sequential(log);
        }
        return new ParallelWalkVerifier(log, threads, window, maxBatchBytes);
    }

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

    /** Verifies on the calling thread through the walk's own channel. */
    static final class Sequential extends WalkVerifier {
        private final SegmentChannel log;
        private final RecordVerifier verifier = new RecordVerifier();

        Sequential(SegmentChannel log) {
            this.log = log;
        }

        @Override
        SegmentChannel walkHeaders() {
            return log;
        }

        @Override
        void startWalk(long position) {
        }

        @Override
        Defect verify(long position, long length) throws IOException {
            return verifier.verify(log, position, length);
        }

        @Override
        Defect verifyAside(long position, long length) throws IOException {
            return verifier.verify(log, position, length);
        }

        @Override
        public void close() throws IOException {
            verifier.close();
        }
    }
}
