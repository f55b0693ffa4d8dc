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
 * does not grow with the file: every read lands in the same direct buffer (or, for a channel opened to map, the
 * window is one mapping of the file that moves), and a length read from disk is never used to size an allocation.
 * A range larger than the window is served by a mapping of its own ({@link #withRange}), which costs address space
 * and page cache but no heap.
 */
public final class SegmentChannel implements Closeable {
    public static final int DEFAULT_WINDOW = 4 << 20;

    private final Path path;
    /** A {@link FileChannel}, or a {@link ByteArrayChannel} for bytes already in memory; null for no bytes. */
    private final SeekableByteChannel channel;
    private final long size;
    private final int capacity;
    /** Whether the window is a read-only mapping of the file, moved by each refill, instead of a buffer read into. */
    private final boolean mapped;
    private ByteBuffer window;
    /** Whether {@link #window} is a mapping now (a mapped channel reads windows not in the page cache instead). */
    private boolean windowIsMapping;
    /** A mapped channel's buffer for the windows it reads instead of mapping; taken on first use. */
    private ByteBuffer readBuffer;
    private long windowStart;
    private int windowLength;

    private SegmentChannel(Path path, SeekableByteChannel channel, long size, int capacity, boolean mapped) {
        this.path = path;
        this.channel = channel;
        this.mapped = mapped && channel instanceof FileChannel;
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
        return open(path, windowCapacity, limit, false);
    }

    /**
     * Like {@link #open(Path, int, long)}, but the window is a read-only mapping of the file that each refill moves
     * (the previous mapping is unmapped first) instead of a buffer the bytes are copied into: a one-pass reader then
     * reads the page cache in place, without the copy {@code read(2)} makes. A window not wholly in the page cache
     * is read into a buffer as usual (its page-in would otherwise happen under the mapping). {@code mapping} says
     * whether to; false gives an ordinary channel. A buffer taken from {@link #buffer()} must not be touched after the next
     * {@link #at} or {@link #close}, which unmap it, and a read of it can meet a fault (the file shrank under the
     * mapping, or the device failed) as an {@link InternalError}, which {@link #fault} names; {@link #withRange}
     * does that itself.
     */
    public static SegmentChannel open(Path path, int windowCapacity, long limit, boolean mapping) throws IOException {
        if (limit < 0) {
            throw new IllegalArgumentException(path + ": negative limit " + limit);
        }
        RegularFile.require(path);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new SegmentChannel(path, channel, Math.min(limit, channel.size()), windowCapacity, mapping);
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
        return new SegmentChannel(path, new ByteArrayChannel(bytes), bytes.length, windowCapacity, false);
    }

    /**
     * A channel over no bytes, for a {@code .log} that does not exist: the server's stat reads a missing log as
     * empty, and so may a reader. {@code path} only names it in messages; nothing is opened.
     */
    public static SegmentChannel empty(Path path) {
        return new SegmentChannel(path, null, 0, 256, false);
    }

    private static final java.util.concurrent.atomic.AtomicLong FAULTS = new java.util.concurrent.atomic.AtomicLong();

    /**
     * How many faults under a mapping this JVM has met so far ({@link #fault}, {@link #noteMappedFault}, a window
     * that could not be mapped for another reason than a shrunk file, and a mapped channel closed over a file that
     * is now shorter than its view). A fault in
     * compiled code is delivered as an {@link InternalError} only at a later point of the thread that met it, after
     * reads that went on with wrong bytes, so one that was met means what was read since may be wrong: a reader
     * that compares this count before and after can throw its result away and read again without mappings.
     */
    public static long mappedFaults() {
        return FAULTS.get();
    }

    /** Counts a fault under a mapping caught away from the read that met it (an {@link InternalError}). */
    public static void noteMappedFault() {
        FAULTS.incrementAndGet();
    }

    /**
     * The I/O error for {@code error}, met while reading the mapped window: names the file and the window's range.
     * Rethrows {@code error} when this channel maps nothing (the error is not a mapped read's).
     */
    public IOException fault(InternalError error) {
        if (!mapped) {
            throw error;
        }
        // (a window read instead of mapped cannot fault; an error met there is a mapping's met earlier, delivered
        // late, and counted as one)
        FAULTS.incrementAndGet();
        return new MappedRange.Fault(path, windowStart, windowLength, error);
    }

    /**
     * Where {@code [pos, pos + len)} sits in the window as it is now, or -1 when the window does not hold all of it;
     * reads nothing.
     */
    public int held(long pos, int len) {
        if (window != null && pos >= windowStart && len >= 0 && pos + len <= windowStart + windowLength) {
            return (int) (pos - windowStart);
        }
        return -1;
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
        if (mapped) {
            ByteBuffer old = window;
            boolean wasMapping = windowIsMapping;
            window = null;
            windowLength = 0;
            windowIsMapping = false;
            if (wasMapping) {
                Unmapper.unmap(old);
            }
            java.nio.MappedByteBuffer m;
            try {
                m = ((FileChannel) channel).map(FileChannel.MapMode.READ_ONLY, pos, want);
            } catch (IOException e) {
                throw mapFailed(pos, want, e);
            }
            // Only a window wholly in the page cache is read through its mapping (mincore): reading any other would
            // page it in under the mapping, where a device error is a SIGBUS that Java sees late; read(2) meets it
            // as an exact error instead.
            if (m.isLoaded()) {
                window = m;
                windowIsMapping = true;
                windowStart = pos;
                windowLength = want;
                return;
            }
            Unmapper.unmap(m);
            if (readBuffer == null) {
                readBuffer = DirectBuffers.take(capacity);
            }
            window = readBuffer;
        }
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

    /**
     * The I/O error for a window that could not be mapped, as a read would have met it: a file now shorter than
     * the window reads as one that shrank (a read-only mapping cannot reach past the end, and says so in other
     * words), anything else is the OS's reason.
     */
    private IOException mapFailed(long pos, int want, IOException e) {
        long now;
        try {
            now = ((FileChannel) channel).size();
        } catch (IOException | RuntimeException unknown) {
            now = -1;
        }
        if (now >= 0 && now < pos + want) {
            return new IOException(path + " @ " + Math.max(pos, now) + ": file shrank while being read (expected "
                    + size + " bytes)", e);
        }
        // not what a read would have met (no room to map, a mapping limit): counted, so that a reader that can
        // read again without mappings does
        FAULTS.incrementAndGet();
        return new IOException(path + " @ " + pos + ": map failed: " + e.getMessage(), e);
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
            try {
                return reader.read(window, at);
            } catch (InternalError e) {
                throw fault(e);   // rethrown as it is when nothing here is mapped
            }
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
        if (!mapped) {
            DirectBuffers.give(w);
        } else {
            if (windowIsMapping) {
                Unmapper.unmap(w);
            }
            windowIsMapping = false;
            ByteBuffer r = readBuffer;
            readBuffer = null;
            DirectBuffers.give(r);
        }
        if (channel != null && channel.isOpen()) {
            try {
                // A file now shorter than the view was cut under its mappings: a fault there may not have been
                // delivered yet (from compiled code it comes late), so it is counted now, before the reader's check.
                if (mapped && ((FileChannel) channel).size() < size) {
                    FAULTS.incrementAndGet();
                }
            } finally {
                channel.close();
            }
        }
    }
}
