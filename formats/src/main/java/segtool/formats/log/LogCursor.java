package segtool.formats.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.util.function.Predicate;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.io.Unmapper;

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
 * <p>Memory does not grow with the log or with lengths read from it: headers and records up to the channel's
 * window are read through that window, larger records are mapped for the duration of one call and unmapped. The
 * cursor does not own the channel; it shares the channel's window, so do not interleave other reads of the same
 * channel with a walk if you rely on {@link SegmentChannel#buffer()} contents. One cursor per thread.
 */
public final class LogCursor implements Closeable {

    /**
     * One framed record: where it starts, its header, and the first verification defect, or null when it verifies.
     */
    public record Batch(long position, BatchHeader header, Defect defect) {
        /** The record length, {@code batch_length}. */
        public long length() {
            return header.batchLength();
        }

        /** Where the next record starts. */
        public long end() {
            return position + header.batchLength();
        }

        public boolean verified() {
            return defect == null;
        }
    }

    private final SegmentChannel log;
    private final long maxBatchLength;
    private final RecordVerifier verifier = new RecordVerifier();
    private long position;
    private boolean stopped;
    private Defect stopReason;

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

    /** The next framed record, or null when the walk has ended (see {@link #stopReason()}). */
    public Batch next() throws IOException {
        if (stopped) {
            return null;
        }
        long size = log.size();
        if (U64.ge(position, size)) {
            return stop(position == size ? null
                    : Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, 0));
        }
        long left = size - position;
        if (left < BatchHeader.LENGTH) {
            return stop(Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, left));
        }
        int at = log.at(position, BatchHeader.LENGTH);
        Defect undecodable = BatchHeader.check(log.buffer(), at, position);
        if (undecodable != null) {
            return stop(undecodable);
        }
        BatchHeader header = BatchHeader.read(log.buffer(), at);
        long length = header.batchLength();
        if (U64.gt(length, maxBatchLength)) {
            return stop(Defect.of(Defect.Code.LENGTH_OVER_MAX, position, 0, maxBatchLength, length));
        }
        if (length > left) {
            return stop(Defect.of(Defect.Code.RUNS_PAST_EOF, position, 0, left, length));
        }
        Batch batch = new Batch(position, header, verifier.verify(log, position, length));
        position += length;
        return batch;
    }

    private Batch stop(Defect reason) {
        stopped = true;
        stopReason = reason;
        return null;
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
        long length = batch.length();
        if (length <= log.capacity()) {
            int at = log.at(batch.position(), (int) length);
            return MessageView.decode(log.buffer(), at, (int) length, batch.position(), maxCopy, sink);
        }
        MappedByteBuffer mapped = log.map(batch.position(), length);
        try {
            return MessageView.decode(mapped, 0, (int) length, batch.position(), maxCopy, sink);
        } finally {
            Unmapper.unmap(mapped);
        }
    }

    /** Releases the verifier's scratch; the channel stays open. */
    @Override
    public void close() throws IOException {
        verifier.close();
    }
}
