package segtool.formats.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only {@link SeekableByteChannel} over bytes already in memory: a file's content that came from somewhere
 * other than the file system (an archive member, a test's input), read by the same readers that read files. Reads
 * past the end return -1, as a file's do; the bytes are not copied and must not change while the channel is used.
 */
public final class ByteArrayChannel implements SeekableByteChannel {
    private final byte[] bytes;
    private long position;
    private boolean open = true;

    public ByteArrayChannel(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Reads into {@code dst} from {@code at}, not moving the channel's position; -1 at or past the end. A
     * {@link FileChannel} is read with its own positional read (one {@code pread}), any other channel by seeking.
     */
    public static int read(SeekableByteChannel channel, ByteBuffer dst, long at) throws IOException {
        if (channel instanceof FileChannel file) {
            return file.read(dst, at);
        }
        if (channel instanceof ByteArrayChannel memory) {
            return memory.read(dst, at);
        }
        long was = channel.position();
        try {
            return channel.position(at).read(dst);
        } finally {
            channel.position(was);
        }
    }

    private int read(ByteBuffer dst, long at) throws IOException {
        ensureOpen();
        if (at < 0) {
            throw new IllegalArgumentException("negative position " + at);
        }
        if (at >= bytes.length) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), bytes.length - at);
        dst.put(bytes, (int) at, n);
        return n;
    }

    /**
     * {@code [pos, pos + len)} as a read-only buffer sharing the bytes (what a mapping of a file is to the file).
     * Requires the range inside the bytes.
     */
    public ByteBuffer slice(long pos, int len) throws IOException {
        ensureOpen();
        if (pos < 0 || len < 0 || pos > bytes.length || len > bytes.length - pos) {
            throw new IllegalArgumentException("range " + pos + "+" + len + " outside " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes, (int) pos, len).slice().asReadOnlyBuffer();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int n = read(dst, position);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public ByteArrayChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return bytes.length;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
