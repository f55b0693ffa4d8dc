package segtool.shell.inspect;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * Bounded reads of one {@code .log} for the inspection commands: the batch header at a position (or why there is
 * none), record verification (F 2.5) and small byte ranges, all through one reused window. Every length read from
 * disk is checked against the bytes left and MAX_RECOVERABLE_BATCH_BYTES before it is used, and never sizes an
 * allocation; a record wider than the window is verified through a temporary mapping, not the heap.
 *
 * <p>Kept in the shell until the formats module's cursor lands; the commands only use this class's surface.
 */
public final class LogReader implements Closeable {
    /** Window for inspection reads: big enough for typical batches, small enough to never matter. */
    public static final int WINDOW = 1 << 20;

    private final Path path;
    private final SegmentChannel channel;
    private final long length;
    private final long maxBatchBytes;
    private RecordVerifier verifier;

    /** What sits at a position: the header when the 256 bytes decode, and why it cannot be walked, if so. */
    public record At(long position, BatchHeader header, String problem) {
        /** True when a whole, plausible record starts here (not yet verified). */
        public boolean ok() {
            return problem == null;
        }

        /** End of the record the header claims, clipped to nothing when there is no header. */
        public long end() {
            return header == null ? position : U64.addSat(position, header.batchLength());
        }
    }

    private LogReader(Path path, SegmentChannel channel, long length, long maxBatchBytes) {
        this.path = path;
        this.channel = channel;
        this.length = length;
        this.maxBatchBytes = maxBatchBytes;
    }

    /** Opens {@code log}; a missing file reads as an empty log, as the server's stat does. */
    public static LogReader open(Path log, long maxBatchBytes) throws IOException {
        try {
            SegmentChannel ch = SegmentChannel.open(log, WINDOW);
            return new LogReader(log, ch, ch.size(), maxBatchBytes);
        } catch (NoSuchFileException missing) {
            return new LogReader(log, null, 0, maxBatchBytes);
        }
    }

    public Path path() {
        return path;
    }

    /** The log length at open. */
    public long length() {
        return length;
    }

    public long maxBatchBytes() {
        return maxBatchBytes;
    }

    /** The header at {@code pos} and whether a whole record of the claimed length fits (RECOVERY 2.3 HeaderAt). */
    public At at(long pos) throws IOException {
        if (U64.ge(pos, length)) {
            return new At(pos, null, "end of log at " + U64.str(length));
        }
        long left = length - pos;
        if (left < BatchHeader.LENGTH) {
            return new At(pos, null, "only " + left + " bytes left at " + U64.str(pos)
                    + ", too few for a 256-byte header");
        }
        int i = channel.at(pos, BatchHeader.LENGTH);
        ByteBuffer b = channel.buffer();
        BatchHeader h = BatchHeader.read(b, i);
        Defect d = BatchHeader.check(b, i, pos);
        if (d != null) {
            return new At(pos, null, d.describe());
        }
        if (U64.gt(h.batchLength(), maxBatchBytes)) {
            return new At(pos, h, "batch_length " + U64.str(h.batchLength()) + " at " + U64.str(pos)
                    + " exceeds MAX_RECOVERABLE_BATCH_BYTES (" + U64.str(maxBatchBytes) + ")");
        }
        if (U64.gt(h.batchLength(), left)) {
            return new At(pos, h, "batch_length " + U64.str(h.batchLength()) + " runs past end of log at "
                    + U64.str(pos) + " (" + left + " bytes left)");
        }
        return new At(pos, h, null);
    }

    /** Reads the 256 bytes at {@code pos} as header fields without judging them (for hexdump annotations). */
    public BatchHeader rawHeader(long pos) throws IOException {
        if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), length)) {
            return null;
        }
        int i = channel.at(pos, BatchHeader.LENGTH);
        return BatchHeader.read(channel.buffer(), i);
    }

    /** Verifies the record at {@code at} (which must be {@link At#ok()}): null when it verifies, else the defect. */
    public Defect verify(At at) throws IOException {
        if (!at.ok()) {
            throw new IllegalArgumentException("no whole record at " + at.position());
        }
        if (verifier == null) {
            verifier = new RecordVerifier();
        }
        return verifier.verify(channel, at.position(), at.header().batchLength());
    }

    /** Up to {@link #WINDOW} bytes at {@code pos}, clipped to the log's end. */
    public byte[] read(long pos, int len) throws IOException {
        if (U64.ge(pos, length)) {
            return new byte[0];
        }
        int n = (int) Math.min(Math.min(len, WINDOW), length - pos);
        return channel.read(pos, n);
    }

    /** Makes {@code [pos, pos + len)} available in {@link #buffer()}; {@code len <= WINDOW} and within the log. */
    public int window(long pos, int len) throws IOException {
        return channel.at(pos, len);
    }

    public ByteBuffer buffer() {
        return channel.buffer();
    }

    @Override
    public void close() throws IOException {
        if (verifier != null) {
            verifier.close();
        }
        if (channel != null) {
            channel.close();
        }
    }
}
