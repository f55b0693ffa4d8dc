package segtool.formats.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positional, read-only access to one file through a single reused window of fixed capacity.
 *
 * <p>The length is taken once, at open, like the server's stat at boot: bytes appended later are not seen. Memory
 * does not grow with the file: every read lands in the same direct buffer, and a length read from disk is never used
 * to size an allocation. A range larger than the window is served by {@link #map}, which costs address space and
 * page cache but no heap.
 */
public final class SegmentChannel implements Closeable {
    public static final int DEFAULT_WINDOW = 4 << 20;

    private final Path path;
    /** A {@link FileChannel}, or a {@link ByteArrayChannel} for bytes already in memory; null for no bytes. */
    private final SeekableByteChannel channel;
    private final long size;
    private final int capacity;
    private ByteBuffer window;
    private long windowStart;
    private int windowLength;

    private SegmentChannel(Path path, SeekableByteChannel channel, long size, int capacity) {
        this.path = path;
        this.channel = channel;
        this.size = size;
        // A window larger than the file would hold nothing more: small files get small windows (but room for one
        // batch header, so header reads need no special case). The buffer itself is taken on first read.
        this.capacity = (int) Math.max(Math.min(capacity, size), Math.min(capacity, 256));
        this.windowStart = 0;
        this.windowLength = 0;
    }

    public static SegmentChannel open(Path path) throws IOException {
        return open(path, DEFAULT_WINDOW);
    }

    public static SegmentChannel open(Path path, int windowCapacity) throws IOException {
        return open(path, windowCapacity, Long.MAX_VALUE);
    }

    /**
     * Views only the first {@code limit} bytes (the WAL-checkpoint variant judges a prefix). A name that is not a
     * regular file (a FIFO, device or socket) is refused before anything is opened ({@link RegularFile.NotRegular}).
     */
    public static SegmentChannel open(Path path, int windowCapacity, long limit) throws IOException {
        if (limit < 0) {
            throw new IllegalArgumentException(path + ": negative limit " + limit);
        }
        RegularFile.require(path);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new SegmentChannel(path, channel, Math.min(limit, channel.size()), windowCapacity);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The same view over {@code bytes}, the content of a file named {@code path} that is already in memory (a fuzz
     * input, an archive member): reads land in the window exactly as a file's do, and a range wider than the window
     * is handed over as a read-only slice of {@code bytes} where a file's would be mapped. Nothing is opened;
     * {@code bytes} must not change while the channel is used.
     */
    public static SegmentChannel of(Path path, byte[] bytes, int windowCapacity) {
        return new SegmentChannel(path, new ByteArrayChannel(bytes), bytes.length, windowCapacity);
    }

    /**
     * A channel over no bytes, for a {@code .log} that does not exist: the server's stat reads a missing log as
     * empty, and so may a reader. {@code path} only names it in messages; nothing is opened.
     */
    public static SegmentChannel empty(Path path) {
        return new SegmentChannel(path, null, 0, 256);
    }

    public Path path() {
        return path;
    }

    /** The file length at open. */
    public long size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    /** The window buffer. Valid only after a call to {@link #at}, and until the next one. */
    public ByteBuffer buffer() {
        return window;
    }

    /**
     * Makes {@code [pos, pos + len)} available in {@link #buffer()} and returns the index where {@code pos} sits.
     * Requires {@code len <= capacity()} and {@code pos + len <= size()}.
     */
    public int at(long pos, int len) throws IOException {
        if (len > capacity || pos < 0 || pos + len > size || pos + len < pos) {
            throw new IllegalArgumentException(path + ": range " + pos + "+" + len + " is outside the window or file");
        }
        if (window != null && pos >= windowStart && pos + len <= windowStart + windowLength) {
            return (int) (pos - windowStart);
        }
        fill(pos, (int) Math.min(capacity, size - pos));
        return 0;
    }

    private void fill(long pos, int want) throws IOException {
        if (window == null) {
            window = DirectBuffers.take(capacity);
        }
        window.clear();
        window.limit(want);
        long at = pos;
        while (window.hasRemaining()) {
            int n;
            try {
                n = ByteArrayChannel.read(channel, window, at);
            } catch (IOException e) {
                windowLength = 0;
                throw new IOException(path + " @ " + at + ": read failed: " + e.getMessage(), e);
            }
            if (n < 0) {
                windowLength = 0;
                throw new IOException(path + " @ " + at + ": file shrank while being read (expected "
                        + size + " bytes)");
            }
            at += n;
        }
        windowStart = pos;
        windowLength = want;
        window.clear();
    }

    /** The file position just past the bytes the window holds now (valid after {@link #at}). */
    public long windowEnd() {
        return windowStart + windowLength;
    }

    /** Reads a range held in one buffer, from {@link #withRange}. */
    @FunctionalInterface
    public interface RangeReader<T> {
        T read(ByteBuffer buffer, int at) throws IOException;
    }

    /**
     * Hands {@code [pos, pos + len)} to {@code reader} in one buffer: the window when the range fits it, otherwise a
     * read-only mapping ({@link MappedRange}; for bytes in memory a read-only slice of them) that is unmapped as
     * soon as the reader returns, so the reader must not
     * keep the buffer; an I/O error under the mapping (a concurrent truncate) is a {@link MappedRange.Fault}.
     * Either way {@code len} sizes no heap. Requires {@code pos + len <= size()} and {@code len <= 2^31-1}.
     */
    public <T> T withRange(long pos, long len, RangeReader<T> reader) throws IOException {
        if (len <= capacity) {
            int at = at(pos, (int) len);
            return reader.read(window, at);
        }
        if (pos < 0 || len < 0 || pos > size || len > size - pos || len > Integer.MAX_VALUE || channel == null) {
            throw new IllegalArgumentException(path + ": cannot map " + pos + "+" + len);
        }
        if (channel instanceof ByteArrayChannel memory) {
            return reader.read(memory.slice(pos, (int) len), 0);
        }
        return MappedRange.read((FileChannel) channel, path, pos, len, b -> reader.read(b, 0));
    }

    /** Copies {@code len <= capacity()} bytes starting at {@code pos} into a fresh array (for small displays). */
    public byte[] read(long pos, int len) throws IOException {
        int i = at(pos, len);
        byte[] out = new byte[len];
        window.get(i, out, 0, len);
        return out;
    }

    @Override
    public void close() throws IOException {
        ByteBuffer w = window;
        window = null;
        windowLength = 0;
        DirectBuffers.give(w);
        if (channel != null) {
            channel.close();
        }
    }
}
