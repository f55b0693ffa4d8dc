package segtool.formats.hash;

import java.nio.ByteBuffer;
import java.util.Objects;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongHashFunction;

/** XXH3-64 with seed 0 and the default secret, through zero-allocation-hashing. One contiguous range per call. */
public final class Xxh3 {
    private static final LongHashFunction XX3 = LongHashFunction.xx3();
    private static final Access<ByteBuffer> BUFFER_ACCESS = Access.toByteBuffer();

    private Xxh3() {
    }

    public static long hash(byte[] bytes) {
        return XX3.hashBytes(bytes);
    }

    public static long hash(byte[] bytes, int off, int len) {
        return XX3.hashBytes(bytes, off, len);
    }

    /**
     * Hashes {@code [off, off + len)} of {@code buffer} (absolute indexes; position, limit and order are ignored
     * and left alone). Direct and mapped buffers are read through the library's public {@code ByteBuffer} access
     * rather than {@code hashBytes(ByteBuffer, ...)}, whose direct-buffer path links against
     * {@code sun.nio.ch.DirectBuffer} and fails with {@link IllegalAccessError} on Java 17 unless the JVM runs with
     * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}.
     */
    public static long hash(ByteBuffer buffer, int off, int len) {
        Objects.checkFromIndexSize(off, len, buffer.limit());
        if (buffer.hasArray()) {
            return XX3.hashBytes(buffer.array(), buffer.arrayOffset() + off, len);
        }
        return XX3.hash(buffer, BUFFER_ACCESS, off, len);
    }

    public static String hex(long h) {
        return String.format("0x%016X", h);
    }
}
