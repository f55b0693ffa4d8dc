package segtool.analyzers.recovery;

import java.util.function.LongConsumer;
import segtool.formats.log.BatchHeader;

/**
 * The tool's parameters for one engine (RECOVERY 1, 13.1). {@code maxMessageSizeUpperBytes} is the server build's
 * {@code MAX_MESSAGE_SIZE_UPPER_BYTES}; {@code window} the read window per open log; {@code threads} how many cores
 * verify records ahead of the walk; {@code checkpoint} the WAL checkpoint of section 9, usually null;
 * {@code walked} is told the length of every record a walk accepts; {@code mapped} whether the walks read mapped
 * windows (see {@link #withMapping}). None of them but the first and the checkpoint can change a verdict.
 */
public record RecoveryOptions(long maxMessageSizeUpperBytes, int window, int threads, Checkpoint checkpoint,
                              LongConsumer walked, boolean mapped) {
    /**
     * The default read window, 1 MiB: bench/window-sweep.sh on these machines (2 cores) measured 512 KiB to 1 MiB
     * fastest for both 1 MiB batches and 17-byte messages, 4 MiB slower (the window no longer stays in cache between
     * read(2) and hashing), 32-128 KiB slower again (more reads and hand-overs). Records up to the window are read
     * into it; larger ones are mapped.
     */
    public static final int WINDOW = 1 << 20;

    public static RecoveryOptions defaults() {
        return new RecoveryOptions(RecoveryEngine.MAX_MESSAGE_SIZE_UPPER_BYTES, defaultWindow(),
                defaultThreads(), null, bytes -> { }, false);
    }

    /**
     * The read window per open log and per verifying thread: {@code -Dsegtool.window=BYTES} when given (kept within
     * 4 KiB to 64 MiB; bench/window-sweep.sh uses it), otherwise {@link #WINDOW}.
     */
    public static int defaultWindow() {
        int w = Integer.getInteger("segtool.window", WINDOW);
        return Math.max(4096, Math.min(64 << 20, w));
    }

    /**
     * How many cores judging uses unless told otherwise: {@code -Dsegtool.threads=N} when given (at least 1),
     * otherwise every processor. One partition gets them all for verification; a data directory judges that many
     * partitions at once, one thread each.
     */
    public static int defaultThreads() {
        return Math.max(1, Integer.getInteger("segtool.threads", Runtime.getRuntime().availableProcessors()));
    }

    private static final boolean MAPPING = "true".equals(System.getProperty("segtool.map"));

    /**
     * Whether {@link RecoveryEngine} judges through mapped windows ({@code SegmentChannel}'s mapping mode: the walks
     * read the page cache in place instead of copying it into a window): only with {@code -Dsegtool.map=true}.
     * Measured on these machines (2 cores, a cached 2 GiB data directory, in process, warm): one thread 0.93 s read,
     * 0.68 s mapped; two threads 0.49 s read, 0.35 s mapped; the copy out of the page cache ({@code _copy_to_iter})
     * was a third of the CPU in a perf profile. Not the default: a fault under a mapping (SIGBUS) reaches Java late,
     * after reads that went on with wrong bytes, and on another thread than the one judging. A file cut short is
     * caught for certain (a mapped channel checks its file's length when it closes, and the engine judges again
     * through read windows); a device failing a page-in cannot fault a window read through its mapping, as only a
     * window wholly in the page cache is (the others are read), except for a page evicted between that check and
     * its read. For files known to stay put and readable (a dump unpacked to local disk, a copy), it is worth it.
     */
    public static boolean mappingAllowed() {
        return MAPPING;
    }

    public RecoveryOptions withCheckpoint(Checkpoint c) {
        return new RecoveryOptions(maxMessageSizeUpperBytes, window, threads, c, walked, mapped);
    }

    public RecoveryOptions withThreads(int n) {
        return new RecoveryOptions(maxMessageSizeUpperBytes, window, n, checkpoint, walked, mapped);
    }

    public RecoveryOptions withMaxMessageSizeUpper(long bytes) {
        return new RecoveryOptions(bytes, window, threads, checkpoint, walked, mapped);
    }

    public RecoveryOptions withWindow(int bytes) {
        return new RecoveryOptions(maxMessageSizeUpperBytes, bytes, threads, checkpoint, walked, mapped);
    }

    /** Told the length of every record a walk accepts, for progress bars; called on the judging thread. */
    public RecoveryOptions withProgress(LongConsumer bytesWalked) {
        return new RecoveryOptions(maxMessageSizeUpperBytes, window, threads, checkpoint, bytesWalked, mapped);
    }

    /**
     * Whether the walks of this engine's segment logs verify through mapped windows: {@link RecoveryEngine} sets it
     * (as tests may, to ask for mapping), for a first attempt it can throw away (a fault under a mapping is not an exact I/O error; the engine
     * judges again through read windows when one was met).
     */
    RecoveryOptions withMapping(boolean on) {
        return new RecoveryOptions(maxMessageSizeUpperBytes, window, threads, checkpoint, walked, on);
    }

    /** The directory as the WAL's open leaves it (RECOVERY 9 step 0), or {@link DirectoryView#AS_IS}. */
    public DirectoryView view() {
        return checkpoint == null ? DirectoryView.AS_IS : checkpoint.opened();
    }

    /** {@code MAXB} of RECOVERY 2.1: {@code MAX_MESSAGE_SIZE_UPPER_BYTES + 256}. */
    public long maxBatchBytes() {
        return maxMessageSizeUpperBytes + BatchHeader.LENGTH;
    }
}
