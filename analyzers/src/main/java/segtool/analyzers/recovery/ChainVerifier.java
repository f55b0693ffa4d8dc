package segtool.analyzers.recovery;

import java.io.Closeable;
import java.io.IOException;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.Defect;

/**
 * Verify(p, n) (F 2.5) for a reader outside the engine that walks a log's header chain from a position, record after
 * record, as R() does (salvage's forward pass): the engine's own walk verifier, which verifies records ahead of the
 * walk on {@code threads} cores through its ring of windows ({@link ParallelWalkVerifier}), or on the calling thread
 * for one thread or a log of one window. Every answer equals what a sequential check of the same bytes gives, in any
 * order of asking; asking in walk order is what makes it fast. Memory: about 2 x threads windows.
 */
public final class ChainVerifier implements Closeable {
    private final WalkVerifier verifier;

    private ChainVerifier(WalkVerifier verifier) {
        this.verifier = verifier;
    }

    /**
     * A verifier of {@code log}'s records with the engine's defaults ({@link RecoveryOptions#defaultThreads()},
     * {@link RecoveryOptions#defaultWindow()}) and {@code maxBatchBytes} as {@code MAXB}.
     */
    public static ChainVerifier open(SegmentChannel log, long maxBatchBytes) throws IOException {
        int window = RecoveryOptions.defaultWindow();
        int threads = log.size() <= window ? 1 : RecoveryOptions.defaultThreads();
        return new ChainVerifier(WalkVerifier.create(log, threads, window, maxBatchBytes, false));
    }

    /** The record at {@code position}, {@code length} bytes long, asked for in walk order: null or its defect. */
    public Defect verify(long position, long length) throws IOException {
        return verifier.verify(position, length);
    }

    @Override
    public void close() throws IOException {
        verifier.close();
    }
}
