package segtool.formats.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The one place segtool reads a file through a memory mapping. A read from a mapping whose file shrank under it (a
 * concurrent {@code truncate}) or whose device failed raises SIGBUS, which the JVM turns into an
 * {@link InternalError} at the faulting access, not an {@code IOException}. Left alone that ends the JVM with a stack
 * trace and exit 1, which segtool's exit codes read as "damage". Here it becomes a {@link Fault}: an I/O error naming
 * the file and the mapped range.
 */
public final class MappedRange {
    /** An I/O error met while reading a mapped range. */
    public static final class Fault extends IOException {
        private final Path path;
        private final long position;

        Fault(Path path, long position, long length, Throwable cause) {
            super(path + " @ " + position + ": read failed: an I/O error on the mapped range [" + position + ", "
                    + (position + length) + ") (the file shrank while it was read, or the device failed)", cause);
            this.path = path;
            this.position = position;
        }

        public Path path() {
            return path;
        }

        public long position() {
            return position;
        }
    }

    /** Reads a mapped buffer; it must not keep it. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(ByteBuffer buffer) throws IOException;
    }

    private MappedRange() {
    }

    /**
     * Maps {@code [pos, pos + len)} of {@code channel} (the file {@code path}) read-only, hands it to {@code reader},
     * and unmaps it as soon as the reader returns. A fault while mapping or reading is a {@link Fault}.
     */
    public static <T> T read(FileChannel channel, Path path, long pos, long len, Reader<T> reader)
            throws IOException {
        MappedByteBuffer mapped;
        try {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, pos, len);
        } catch (IOException e) {
            throw new IOException(path + " @ " + pos + ": map failed: " + e.getMessage(), e);
        }
        try {
            return reader.read(mapped);
        } catch (InternalError e) {
            SegmentChannel.noteMappedFault();
            throw new Fault(path, pos, len, e);
        } finally {
            Unmapper.unmap(mapped);
        }
    }
}
