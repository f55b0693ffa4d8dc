package segtool.shell.inspect;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.LogCursor;

/**
 * One {@code .log} opened for the inspection commands: a channel with a 1 MiB window and one {@link LogCursor} over
 * it, which does all the framing, verifying and frame walking. This class only opens (a missing file reads as an
 * empty log, as the server's stat does), copies small ranges for display, and words where a walk stopped the way
 * the commands have always printed it.
 */
public final class LogReader implements Closeable {
    /** Window for inspection reads: big enough for typical batches, small enough to never matter. */
    public static final int WINDOW = 1 << 20;

    private final Path path;
    private final SegmentChannel channel;
    private final LogCursor cursor;

    private LogReader(Path path, SegmentChannel channel, long maxBatchBytes) {
        this.path = path;
        this.channel = channel;
        // The cursor's ceiling lies in [256, 2^31-1], 2^31-1 being the most one buffer addresses: a command's ceiling
        // above it (a --max-message-size-upper past 2 GiB, or one so large it wrapped) walks with 2^31-1; one below
        // 256 (a negative option value) is raised to 256.
        long ceiling = Math.max(BatchHeader.LENGTH, U64.min(maxBatchBytes, Integer.MAX_VALUE));
        this.cursor = new LogCursor(channel, 0, ceiling);
    }

    /** Opens {@code log}; a missing file reads as an empty log. */
    public static LogReader open(Path log, long maxBatchBytes) throws IOException {
        SegmentChannel channel;
        try {
            channel = SegmentChannel.open(log, WINDOW);
        } catch (NoSuchFileException missing) {
            channel = SegmentChannel.empty(log);
        }
        return new LogReader(log, channel, maxBatchBytes);
    }

    public Path path() {
        return path;
    }

    /** The log length at open. */
    public long length() {
        return channel.size();
    }

    /** The cursor over this log, from byte 0 until someone {@link LogCursor#seek seeks} it. */
    public LogCursor cursor() {
        return cursor;
    }

    /**
     * The record at {@code pos}, framed but not verified (R 2.3 HeaderAt), or null when none starts there; then
     * {@link #problem()} says why and {@link LogCursor#stopHeader()} holds the header if it decoded. Moves the
     * cursor.
     */
    public LogCursor.Batch at(long pos) throws IOException {
        cursor.seek(pos);
        return cursor.nextUnverified();
    }

    /** Why the cursor's walk stopped, as the commands print it; null while it runs or when it reached the end. */
    public String problem() {
        Defect stop = cursor.stopReason();
        return stop == null || U64.ge(cursor.position(), length()) ? null : describe(stop);
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

    /** Reads the 256 bytes at {@code pos} as header fields without judging them (for hexdump annotations). */
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

    @Override
    public void close() throws IOException {
        try {
            cursor.close();
        } finally {
            channel.close();
        }
    }
}
