package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.MappedRange;

/**
 * XXH3-64 of a byte range of a file. The hash cannot be computed in pieces, so a range is read whole: small ranges
 * into the heap, larger ones through a mapping. Quarantine entries are at most {@link #MAX_RANGE} bytes long.
 */
public final class Hashing {
    /** Largest range hashed in one call (and so the largest quarantine entry). */
    public static final long MAX_RANGE = 1L << 30;
    private static final int HEAP_LIMIT = 16 << 20;

    private Hashing() {
    }

    public static long range(Path file, long offset, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return range(ch, file, offset, length);
        }
    }

    /** As {@link #range(Path, long, long)} on an open channel of {@code file}. */
    public static long range(FileChannel ch, Path file, long offset, long length) throws IOException {
        if (length < 0 || length > MAX_RANGE) {
            throw new IllegalArgumentException("range of " + length + " bytes");
        }
        if (offset + length > ch.size()) {
            throw new IOException(file + ": range [" + offset + ", " + (offset + length) + ") runs past the end ("
                    + ch.size() + " bytes)");
        }
        if (length <= HEAP_LIMIT) {
            ByteBuffer b = ByteBuffer.allocate((int) length);
            while (b.hasRemaining()) {
                int n = ch.read(b, offset + b.position());
                if (n < 0) {
                    throw new IOException(file + " @ " + (offset + b.position()) + ": the file shrank while it was "
                            + "hashed");
                }
            }
            return Xxh3.hash(b.array(), 0, (int) length);
        }
        return MappedRange.read(ch, file, offset, length, m -> Xxh3.hash(m, 0, (int) length));
    }

    public static String hex(long h) {
        return segtool.formats.io.Hex.u64(h);
    }

    public static long parse(String hex) {
        return Long.parseUnsignedLong(hex.startsWith("0x") ? hex.substring(2) : hex, 16);
    }
}
