package segtool.formats.hash;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Objects;
import net.openhft.hashing.Access;
import segtool.formats.io.UnsafeAccess;
import net.openhft.hashing.LongHashFunction;

/**
 * XXH3-64 with seed 0 and the default secret. One contiguous range per call.
 *
 * <p>Where the JVM hands out {@code sun.misc.Unsafe} (module jdk.unsupported, open to all; every JDK segtool runs
 * on), arrays and direct or mapped buffers are hashed in place by {@link Xxh3Raw}, whose flat loops the JIT compiles
 * quickly and runs faster than zero-allocation-hashing's generic one. Elsewhere zero-allocation-hashing hashes arrays
 * and, through its public {@code Access.toByteBuffer()}, buffers. (The library's own {@code hashBytes(ByteBuffer)}
 * links against {@code sun.nio.ch.DirectBuffer} and fails with {@link IllegalAccessError} on Java 17 unless every
 * JVM runs with {@code --add-exports}.) Both give the same values; the tests hold them to each other and to
 * {@code xxhsum -H3}.
 */
public final class Xxh3 {
    private static final LongHashFunction XX3 = LongHashFunction.xx3();
    private static final Access<ByteBuffer> BUFFER_ACCESS = Access.toByteBuffer();
    private static final sun.misc.Unsafe UNSAFE;
    private static final long ADDRESS_OFFSET;
    private static final long ARRAY_BASE;

    static {
        long offset = UnsafeAccess.bufferAddressOffset();
        sun.misc.Unsafe unsafe = Xxh3Raw.available() && offset >= 0 ? UnsafeAccess.get() : null;
        UNSAFE = unsafe;
        ADDRESS_OFFSET = offset;
        ARRAY_BASE = unsafe != null ? Xxh3Raw.arrayBase() : -1;
    }

    private Xxh3() {
    }

    public static long hash(byte[] bytes) {
        return hash(bytes, 0, bytes.length);
    }

    public static long hash(byte[] bytes, int off, int len) {
        Objects.checkFromIndexSize(off, len, bytes.length);
        if (UNSAFE == null) {
            return XX3.hashBytes(bytes, off, len);
        }
        return Xxh3Raw.hash(bytes, ARRAY_BASE + off, len);
    }

    /**
     * Hashes {@code [off, off + len)} of {@code buffer} (absolute indexes within its limit; position, limit and order
     * are ignored and left alone).
     */
    public static long hash(ByteBuffer buffer, int off, int len) {
        Objects.checkFromIndexSize(off, len, buffer.limit());
        if (buffer.hasArray()) {
            return hash(buffer.array(), buffer.arrayOffset() + off, len);
        }
        if (UNSAFE == null || !buffer.isDirect()) {
            return XX3.hash(buffer, BUFFER_ACCESS, off, len);
        }
        try {
            return Xxh3Raw.hash(null, UNSAFE.getLong(buffer, ADDRESS_OFFSET) + off, len);
        } finally {
            Reference.reachabilityFence(buffer);
        }
    }

    public static String hex(long h) {
        return segtool.formats.io.Hex.u64Upper(h);
    }
}
