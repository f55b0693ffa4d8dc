package segtool.analyzers.inspect;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Predicate;
import segtool.analyzers.recovery.HeaderAt;
import segtool.analyzers.recovery.IndexScan;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentLog;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.FrameHeader;
import segtool.formats.log.LogCursor;
import segtool.formats.log.MessageView;

/**
 * One segment (its {@code .log} and {@code .index}) opened for the inspection commands, which read, walk, verify and
 * match only through here. Judgements are the engine's own: {@link #verify} is Verify(p, n), {@link #check} is
 * Matches(o, t, p) through {@link SegmentLog#mismatch}, {@link #headerAt} is HeaderAt(p), {@link #scanIndex} the
 * index consistency scan (RECOVERY 2.3, 4.2). Walking batch by batch and decoding frames and messages is formats'
 * {@link LogCursor}, the framing every reader shares. A missing file reads as empty, as the server's stat does.
 * Memory is bounded by the read windows, never by the segment's size.
 */
public final class SegmentReader implements Closeable {
    /** Window for inspection reads: big enough for typical batches, small enough to never matter. */
    public static final int WINDOW = 1 << 20;

    /** A batch a walk met: framed (its header decodes and it fits the log) but not verified. */
    public static final class Batch {
        private final LogCursor.Batch raw;

        private Batch(LogCursor.Batch raw) {
            this.raw = raw;
        }

        public long position() {
            return raw.position();
        }

        public BatchHeader header() {
            return raw.header();
        }

        public long length() {
            return raw.length();
        }

        /** Where the next batch starts. */
        public long end() {
            return raw.end();
        }
    }

    /** One frame of a batch as the F 2.4 walk meets it: its index in the batch, its log position and header. */
    public record Frame(long index, long position, FrameHeader header) {
        public long payloadPosition() {
            return position + FrameHeader.LENGTH;
        }

        public long userHeadersPosition() {
            return payloadPosition() + header.payloadLength();
        }

        /** Where the next frame starts. */
        public long end() {
            return position + header.frameLength();
        }
    }

    private final Path logPath;
    private final long start;
    private final long partitionId;
    private final SegmentChannel channel;
    private final LogCursor cursor;
    private final SegmentLog log;
    private final IndexFile index;

    private SegmentReader(Path logPath, long start, long partitionId, SegmentChannel channel, SegmentLog log,
                          IndexFile index, long maxBatchBytes) {
        this.logPath = logPath;
        this.start = start;
        this.partitionId = partitionId;
        this.channel = channel;
        this.log = log;
        this.index = index;
        // The cursor's ceiling lies in [256, 2^31-1], 2^31-1 being the most one buffer addresses: a ceiling above it
        // (a --max-message-size-upper past 2 GiB, or one so large it wrapped) walks with 2^31-1; one below 256 (a
        // negative option value) is raised to 256.
        long ceiling = Math.max(BatchHeader.LENGTH, U64.min(maxBatchBytes, Integer.MAX_VALUE));
        this.cursor = new LogCursor(channel, 0, ceiling);
    }

    /**
     * Opens segment {@code start}: {@code logPath} and {@code indexPath}, batches checked against
     * {@code partitionId}, a {@code batch_length} over {@code maxBatchBytes} (MAXB) being damage.
     */
    public static SegmentReader open(Path logPath, Path indexPath, long start, long partitionId, long maxBatchBytes)
            throws IOException {
        SegmentChannel channel;
        try {
            channel = SegmentChannel.open(logPath, WINDOW);
        } catch (NoSuchFileException missing) {
            channel = SegmentChannel.empty(logPath);
        }
        SegmentLog log = null;
        IndexFile index = null;
        try {
            // listings verify batch after batch: the walk's ring verifies ahead on every core (-Dsegtool.threads)
            RecoveryOptions options = RecoveryOptions.defaults().withWindow(WINDOW)
                    .withMaxMessageSizeUpper(maxBatchBytes - BatchHeader.LENGTH);
            log = SegmentLog.open(logPath, start, partitionId, channel.size(), options);
            index = IndexFile.open(indexPath);
            return new SegmentReader(logPath, start, partitionId, channel, log, index, maxBatchBytes);
        } catch (IOException | RuntimeException e) {
            closeAll(index, log, channel);
            throw e;
        }
    }

    private static void closeAll(AutoCloseable... all) {
        for (AutoCloseable c : all) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // the open failed already; that failure is the one reported
                }
            }
        }
    }

    public Path path() {
        return logPath;
    }

    /** The segment's start offset {@code S}. */
    public long start() {
        return start;
    }

    public long partitionId() {
        return partitionId;
    }

    /** The log length at open. */
    public long length() {
        return channel.size();
    }

    // ---- the index ----------------------------------------------------------------------------------------

    /** The index file's length in bytes (0 when missing). */
    public long indexBytes() {
        return index.length();
    }

    /** Whole 16-byte entries in the index. */
    public long entries() {
        return index.entries();
    }

    /** Bytes after the last whole entry (a torn append). */
    public long indexTrailingBytes() {
        return index.trailingBytes();
    }

    public IndexEntry entry(long i) throws IOException {
        return index.entry(i);
    }

    /** The engine's index consistency scan (RECOVERY 4.2) over every whole entry. */
    public IndexScan scanIndex() throws IOException {
        return IndexScan.of(index, index.entries(), log);
    }

    /**
     * Whether entry {@code e} describes the batch at its position: Matches(o, t, p) exactly as the engine decides
     * and words it, and with {@code verify}, whether a matching batch also verifies (F 2.5), which boot does not
     * check below the last entry in durable mode.
     */
    public IndexMapping check(IndexEntry e, boolean verify) throws IOException {
        String mismatch = log.mismatch(e);
        if (mismatch != null || !verify) {
            return new IndexMapping(mismatch, null, false);
        }
        HeaderAt h = log.headerAt(e.position());
        return new IndexMapping(null, log.verify(e.position(), h.header().batchLength()), true);
    }

    /**
     * The first {@code max} entries of an index file alone, without opening the log (for completion, which must
     * stay instant); a missing index has none.
     */
    public static java.util.List<IndexEntry> indexEntries(Path indexPath, long max) throws IOException {
        java.util.List<IndexEntry> out = new java.util.ArrayList<>();
        try (IndexFile f = IndexFile.open(indexPath)) {
            for (long i = 0; i < f.entries() && i < max; i++) {
                out.add(f.entry(i));
            }
        }
        return out;
    }

    // ---- the log ------------------------------------------------------------------------------------------

    /** HeaderAt(p) of RECOVERY 2.3, as the engine answers it. */
    public HeaderAt headerAt(long p) throws IOException {
        return log.headerAt(p);
    }

    /**
     * Verify(p, n) of RECOVERY 2.3 for {@code b}: null when it verifies, else the first defect. Batches asked for in
     * log order (a listing) are verified ahead on the other cores, through the same ring of windows as the engine's
     * walk ({@link SegmentLog#verifyInOrder}); the answers are the same either way.
     */
    public Defect verify(Batch b) throws IOException {
        return log.verifyInOrder(b.position(), b.length());
    }

    /** Moves the walk to {@code position}. */
    public void seek(long position) {
        cursor.seek(position);
    }

    /** Where the walk stands: the start of the next batch, or where it stopped. */
    public long position() {
        return cursor.position();
    }

    /** The next batch of the walk, framed but not verified, or null at the end or where framing stops. */
    public Batch next() throws IOException {
        LogCursor.Batch b = cursor.nextUnverified();
        return b == null ? null : new Batch(b);
    }

    /** The batch that starts at {@code pos}, or null (then {@link #problem()} says why); moves the walk there. */
    public Batch at(long pos) throws IOException {
        seek(pos);
        return next();
    }

    /** The header where the walk stopped, when it decoded (a batch that claims too much, say). */
    public BatchHeader stopHeader() {
        return cursor.stopHeader();
    }

    /** Why the walk stopped, as the commands print it; null while it runs or when it reached the end. */
    public String problem() {
        Defect stop = cursor.stopReason();
        return stop == null || U64.ge(cursor.position(), length()) ? null : describe(stop);
    }

    /** Decodes the messages of {@code b} (sections cut to {@code maxCopy} bytes); null when the frames tile it. */
    public Defect messages(Batch b, int maxCopy, Predicate<MessageView> sink) throws IOException {
        return cursor.messages(b.raw, maxCopy, sink);
    }

    /** Walks the frames of {@code b} without copying; null when they tile the blob or the sink stopped. */
    public Defect frames(Batch b, Predicate<Frame> sink) throws IOException {
        return cursor.frames(b.raw, f -> sink.test(new Frame(f.index(), f.position(), f.header())));
    }

    /** Reads the 256 bytes at {@code pos} as header fields without judging them (for annotations), or null. */
    public BatchHeader rawHeader(long pos) throws IOException {
        if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), length())) {
            return null;
        }
        int i = channel.at(pos, BatchHeader.LENGTH);
        return BatchHeader.read(channel.buffer(), i);
    }

    /** Up to {@link #WINDOW} bytes at {@code pos}, clipped to the log's end. */
    public byte[] read(long pos, int len) throws IOException {
        if (U64.ge(pos, length())) {
            return new byte[0];
        }
        int n = (int) Math.min(Math.min(len, WINDOW), length() - pos);
        return channel.read(pos, n);
    }

    /**
     * A defect as the inspection commands word it: {@link Defect#describe()}, except where they have always said
     * it their own way (bytes left before a header, the MAX_RECOVERABLE_BATCH_BYTES ceiling by name, the frame walk's
     * shorter lines). Null for null.
     */
    public static String describe(Defect d) {
        if (d == null) {
            return null;
        }
        String at = U64.str(d.position());
        switch (d.code()) {
            case HEADER_TRUNCATED:
                return "only " + d.actual() + " bytes left at " + at + ", too few for a 256-byte header";
            case LENGTH_OVER_MAX:
                return "batch_length " + U64.str(d.actual()) + " at " + at + " exceeds MAX_RECOVERABLE_BATCH_BYTES ("
                        + U64.str(d.expected()) + ")";
            case FRAME_RESERVED_NOT_ZERO:
                return "frame " + d.index() + " reserved bytes not zero at " + at;
            case FRAME_COUNT_MISMATCH:
                return "message_count " + U64.str(d.expected()) + " but the blob holds " + d.actual()
                        + " whole frames";
            default:
                return d.describe();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            cursor.close();
        } finally {
            closeAll(index, log, channel);
        }
    }
}
