package segtool.formats.log;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Predicate;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;

/**
 * A forward walk over the batch records of one {@code .log} (F 2.1), for display tools.
 *
 * <p>Each call to {@link #next()} frames the record at the current position the way recovery's {@code HeaderAt}
 * does (R 2.3): 256 header bytes present, {@code batch_length >= 256}, reserved bytes zero,
 * {@code batch_length <= maxBatchLength}, and the record inside the log. A framed record is verified (F 2.5) and
 * returned with its defect, if any, and the walk moves on by {@code batch_length} whether or not it verified. The
 * first record that cannot be framed ends the walk; {@link #stopReason()} then says why, and {@link #position()}
 * where. Nothing else is judged: partition ids, offset continuity and timestamps are the caller's business.
 *
 * <pre>{@code
 * try (LogCursor cursor = new LogCursor(log)) {
 *     for (LogCursor.Batch b; (b = cursor.next()) != null; ) { ... }
 *     Defect why = cursor.stopReason();   // null: the walk consumed the log exactly
 * }
 * }</pre>
 *
 * <p>Listings that look at headers walk with {@link #nextUnverified()} and {@link #verify} only the records they
 * show; {@link #seek} moves the walk (to an index entry's position, or to look at one record); {@link #messages} and
 * {@link #frames} walk the frames of any batch the cursor returned.
 *
 * <p>Memory does not grow with the log or with lengths read from it: headers and records up to the channel's
 * window are read through that window, larger records are mapped for the duration of one call and unmapped. The
 * cursor does not own the channel; it shares the channel's window, so do not interleave other reads of the same
 * channel with a walk if you rely on {@link SegmentChannel#buffer()} contents. One cursor per thread.
 */
public final class LogCursor implements Closeable {

    /**
     * One framed record: where it starts, its header, whether it was verified, and if so its first verification
     * defect (null when it verifies). {@link #next()} returns verified batches; {@link #nextUnverified()} returns
     * batches with {@code checked} false, whose {@code defect} is null and says nothing until {@link #verify}.
     */
    public record Batch(long position, BatchHeader header, Defect defect, boolean checked) {
        /** A verified batch: {@code defect} is null when the record verifies. */
        public Batch(long position, BatchHeader header, Defect defect) {
            this(position, header, defect, true);
        }

        /** The record length, {@code batch_length}. */
        public long length() {
            return header.batchLength();
        }

        /** Where the next record starts. */
        public long end() {
            return position + header.batchLength();
        }

        /** True when the record was verified and verifies. */
        public boolean verified() {
            return checked && defect == null;
        }
    }

    /**
     * One frame of a record as the F 2.4 walk meets it: its index in the batch, where it starts in the log, and its
     * header. The sections are not read; their positions follow from the header.
     */
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

    private final SegmentChannel log;
    private final long maxBatchLength;
    private final RecordVerifier verifier = new RecordVerifier();
    private long position;
    private boolean stopped;
    private Defect stopReason;
    private BatchHeader stopHeader;

    /** Walks {@code log} from byte 0 with {@link BatchHeader#MAX_RECOVERABLE_BATCH_BYTES} as the length ceiling. */
    public LogCursor(SegmentChannel log) {
        this(log, 0, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
    }

    /**
     * Walks {@code log} from {@code from}, which may come from disk (an index entry): a position at or past the end
     * of the log simply ends the walk, with {@code HEADER_TRUNCATED} unless it is exactly the end.
     *
     * @param log            the log; its window must hold at least a header (256 bytes)
     * @param maxBatchLength records claiming more bytes stop the walk with {@code LENGTH_OVER_MAX}; at least 256
     *                       and at most {@link Integer#MAX_VALUE}, the most one buffer can address
     */
    public LogCursor(SegmentChannel log, long from, long maxBatchLength) {
        if (maxBatchLength < BatchHeader.LENGTH || maxBatchLength > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxBatchLength " + maxBatchLength + " outside [256, 2^31-1]");
        }
        if (log.capacity() < BatchHeader.LENGTH) {
            throw new IllegalArgumentException(log.path() + ": a " + log.capacity() + "-byte window cannot hold a "
                    + "batch header");
        }
        this.log = log;
        this.maxBatchLength = maxBatchLength;
        this.position = from;
    }

    /** Where the next record starts; after the walk ended, where it ended (the log size after a clean end). */
    public long position() {
        return position;
    }

    /** Why the walk ended, or null while it runs and when it ended exactly at the end of the log. */
    public Defect stopReason() {
        return stopReason;
    }

    /** True once {@link #next()} has returned null. */
    public boolean stopped() {
        return stopped;
    }

    /**
     * The header at the place the walk ended when it decoded but the record could not be framed
     * ({@code LENGTH_OVER_MAX}, {@code RUNS_PAST_EOF}): what the would-be record claims. Null otherwise.
     */
    public BatchHeader stopHeader() {
        return stopHeader;
    }

    /**
     * Moves the walk to {@code position} and resumes it if it had ended, as if the cursor had been made there (a
     * position from disk is fine, see the constructor). The verifier's buffers are kept, so one cursor can serve a
     * whole command that looks at records here and there.
     */
    public void seek(long position) {
        this.position = position;
        stopped = false;
        stopReason = null;
        stopHeader = null;
    }

    /** The next framed record, verified, or null when the walk has ended (see {@link #stopReason()}). */
    public Batch next() throws IOException {
        Batch framed = nextUnverified();
        return framed == null ? null : verify(framed);
    }

    /**
     * The next framed record without verifying it, or null when the walk has ended: the same walk as {@link #next()}
     * at the cost of one header read per record, for listings that look at headers and verify only the records
     * they show.
     */
    public Batch nextUnverified() throws IOException {
        if (stopped) {
            return null;
        }
        long size = log.size();
        if (U64.ge(position, size)) {
            return stop(position == size ? null
                    : Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, 0), null);
        }
        long left = size - position;
        if (left < BatchHeader.LENGTH) {
            return stop(Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, left), null);
        }
        int at = log.at(position, BatchHeader.LENGTH);
        Defect undecodable = BatchHeader.check(log.buffer(), at, position);
        if (undecodable != null) {
            return stop(undecodable, null);
        }
        BatchHeader header = BatchHeader.read(log.buffer(), at);
        long length = header.batchLength();
        if (U64.gt(length, maxBatchLength)) {
            return stop(Defect.of(Defect.Code.LENGTH_OVER_MAX, position, 0, maxBatchLength, length), header);
        }
        if (length > left) {
            return stop(Defect.of(Defect.Code.RUNS_PAST_EOF, position, 0, left, length), header);
        }
        Batch batch = new Batch(position, header, null, false);
        position += length;
        return batch;
    }

    private Batch stop(Defect reason, BatchHeader header) {
        stopped = true;
        stopReason = reason;
        stopHeader = header;
        return null;
    }

    /**
     * {@code batch} verified (F 2.5): itself when it already was, otherwise a copy with {@code checked} set and its
     * defect. Works for any batch this cursor returned, at any time; it moves the channel's window.
     */
    public Batch verify(Batch batch) throws IOException {
        if (batch.checked()) {
            return batch;
        }
        return new Batch(batch.position(), batch.header(), verifier.verify(log, batch.position(), batch.length()));
    }

    /**
     * Decodes the frames of {@code batch}, verified or not, handing each to {@code sink} as
     * {@link MessageView#decode} does, with sections cut to {@code maxCopy} bytes. Works for any batch this cursor
     * returned, at any time; it moves the channel's window.
     *
     * @return null when the frames tile the blob with exactly {@code message_count} frames or the sink stopped,
     *         otherwise why the frame walk failed
     */
    public Defect messages(Batch batch, int maxCopy, Predicate<MessageView> sink) throws IOException {
        return log.withRange(batch.position(), batch.length(),
                (buf, at) -> MessageView.decode(buf, at, (int) batch.length(), batch.position(), maxCopy, sink));
    }

    /**
     * Walks the frames of {@code batch} (F 2.4), verified or not, handing each frame's index, log position and header
     * to {@code sink} until the blob is used up, a frame cannot be framed, or the sink returns false. Nothing is
     * hashed or copied: this is the walk for annotating and locating frames. The record is read as
     * {@link #messages} reads it (the window, or a mapping for a record wider than the window).
     *
     * @return as {@link #messages}: null when the frames tile the blob or the sink stopped, otherwise why the frame
     *         walk failed ({@code FRAME_TRUNCATED}, {@code FRAME_RESERVED_NOT_ZERO}, {@code FRAME_OVERRUNS_BLOB},
     *         {@code FRAME_COUNT_MISMATCH})
     */
    public Defect frames(Batch batch, Predicate<Frame> sink) throws IOException {
        long position = batch.position();
        return log.withRange(position, batch.length(), (buf, at) -> FrameWalk.walk(buf, at, batch.length(), position,
                (index, f, length) -> sink.test(new Frame(index, position + (f - at), FrameHeader.read(buf, f)))));
    }

    /** Releases the verifier's scratch; the channel stays open. */
    @Override
    public void close() throws IOException {
        verifier.close();
    }
}
