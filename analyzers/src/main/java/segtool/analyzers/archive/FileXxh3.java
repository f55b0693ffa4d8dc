package segtool.analyzers.archive;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/**
 * XXH3-64 (seed 0, default secret; FORMAT conventions) of a whole file of any length, read through one bounded window.
 *
 * <p>zero-allocation-hashing has no streaming XXH3, but it hashes any input through an {@link Access}, with
 * {@code long} offsets. The access here serves reads from a window that is refilled from the file by positional
 * reads. XXH3 consumes a long input front to back and then re-reads its last stripe (the final 64 bytes), so a
 * window that, when refilled, is pulled back to cover the end of the file never has to seek backwards far: each
 * byte is read from disk about once. The result equals {@code Xxh3.hash(bytes)} over the same bytes.
 */
public final class FileXxh3 {
    static final int DEFAULT_WINDOW = 1 << 20;
    private static final LongHashFunction XX3 = LongHashFunction.xx3();

    private FileXxh3() {
    }

    /** Hashes a regular file without following a symlink at its last component. */
    public static long hash(Path file) throws IOException {
        return hash(file, null);
    }

    /**
     * As {@link #hash(Path)}, telling {@code onRead} how many bytes each window refill is about to read (null: no
     * one), so that a caller can pace the reads (replica manifests on a loaded node).
     */
    public static long hash(Path file, java.util.function.LongConsumer onRead) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            Window window = new Window(channel, channel.size(), DEFAULT_WINDOW);
            window.onRead = onRead;
            return hash(window);
        }
    }

    /** Hashes {@code [0, length)} of the channel; fails with EOFException if the file is shorter than that. */
    static long hash(FileChannel channel, long length, int windowBytes) throws IOException {
        return hash(new Window(channel, length, windowBytes));
    }

    /**
     * XXH3-64 of the concatenation of {@code pieces}, each read from its file without following a symlink at its
     * last component, through one bounded window: the digest of a file that would be assembled from them, without
     * assembling it.
     */
    public static long hash(java.util.List<FileRange> pieces) throws IOException {
        FileChannel[] channels = new FileChannel[pieces.size()];
        long[] starts = new long[pieces.size()];
        long total = 0;
        try {
            for (int i = 0; i < channels.length; i++) {
                channels[i] = FileChannel.open(pieces.get(i).file(), StandardOpenOption.READ,
                        LinkOption.NOFOLLOW_LINKS);
                starts[i] = total;
                total += pieces.get(i).length();
            }
            long length = total;
            Source source = (dst, pos) -> {
                int i = java.util.Arrays.binarySearch(starts, pos);
                if (i < 0) {
                    i = -i - 2;
                }
                while (i + 1 < starts.length && starts[i + 1] == pos) {
                    i++; // an empty piece starts where the next one does
                }
                FileRange r = pieces.get(i);
                long into = pos - starts[i];
                ByteBuffer part = dst.duplicate();
                part.limit((int) Math.min(dst.limit(), dst.position() + (r.length() - into)));
                int n = channels[i].read(part, r.offset() + into);
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
                return n;
            };
            return hash(new Window(source, length, DEFAULT_WINDOW));
        } finally {
            for (FileChannel c : channels) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /** Where a window's bytes come from: reads into {@code dst} from logical position {@code pos}, as a channel. */
    @FunctionalInterface
    private interface Source {
        int read(ByteBuffer dst, long pos) throws IOException;
    }

    private static long hash(Window window) throws IOException {
        try {
            return XX3.hash(window, WindowAccess.INSTANCE, 0, window.length);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The bytes {@code [start, start + filled)} of the file, little-endian for the multi-byte reads XXH3 makes. */
    private static final class Window {
        private final Source channel;
        private final long length;
        private final ByteBuffer buffer;
        private long start;
        private int filled;
        private java.util.function.LongConsumer onRead;

        Window(FileChannel channel, long length, int capacity) {
            this((dst, pos) -> channel.read(dst, pos), length, capacity);
        }

        Window(Source channel, long length, int capacity) {
            this.channel = channel;
            this.length = length;
            this.buffer = ByteBuffer.allocate((int) Math.max(Long.BYTES, Math.min(capacity, Math.max(length, 1))))
                    .order(ByteOrder.LITTLE_ENDIAN);
        }

        /** Index into {@link #buffer} of file position {@code pos}, refilling so that {@code width} bytes follow. */
        int index(long pos, int width) {
            if (pos < start || pos + width > start + filled) {
                refill(pos, width);
            }
            return (int) (pos - start);
        }

        private void refill(long pos, int width) {
            if (pos < 0 || pos + width > length) {
                throw new IndexOutOfBoundsException("read of " + width + " at " + pos + " outside [0, " + length + ")");
            }
            // Pull the window back when near the end, so the final stripe read XXH3 makes is already loaded.
            long from = Math.max(0, Math.min(pos, length - buffer.capacity()));
            int want = (int) Math.min(buffer.capacity(), length - from);
            buffer.clear().limit(want);
            if (onRead != null) {
                onRead.accept(want);
            }
            try {
                while (buffer.hasRemaining()) {
                    int n = channel.read(buffer, from + buffer.position());
                    if (n < 0) {
                        throw new EOFException("file ended at " + (from + buffer.position()) + " while hashing "
                                + length + " bytes");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            start = from;
            filled = want;
        }
    }

    /** Reads little-endian values out of a {@link Window}; XXH3 asks for exactly this byte order. */
    private static final class WindowAccess extends Access<Window> {
        static final WindowAccess INSTANCE = new WindowAccess();

        @Override
        public long getLong(Window w, long offset) {
            return w.buffer.getLong(w.index(offset, Long.BYTES));
        }

        @Override
        public long getUnsignedInt(Window w, long offset) {
            return Integer.toUnsignedLong(getInt(w, offset));
        }

        @Override
        public int getInt(Window w, long offset) {
            return w.buffer.getInt(w.index(offset, Integer.BYTES));
        }

        @Override
        public int getUnsignedShort(Window w, long offset) {
            return Short.toUnsignedInt((short) getShort(w, offset));
        }

        @Override
        public int getShort(Window w, long offset) {
            return w.buffer.getShort(w.index(offset, Short.BYTES));
        }

        @Override
        public int getUnsignedByte(Window w, long offset) {
            return Byte.toUnsignedInt((byte) getByte(w, offset));
        }

        @Override
        public int getByte(Window w, long offset) {
            return w.buffer.get(w.index(offset, 1));
        }

        @Override
        public ByteOrder byteOrder(Window w) {
            return ByteOrder.LITTLE_ENDIAN;
        }

        @Override
        protected Access<Window> reverseAccess() {
            // Only consulted when a hash wants big-endian reads of this input; XXH3 never does.
            throw new UnsupportedOperationException("big-endian reads of a file window");
        }
    }
}
