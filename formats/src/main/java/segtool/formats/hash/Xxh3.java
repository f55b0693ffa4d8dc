package segtool.formats.hash;

import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Objects;
import net.openhft.hashing.LongHashFunction;

/**
 * XXH3-64 with seed 0 and the default secret, through zero-allocation-hashing. One contiguous range per call.
 *
 * <p>Direct buffers are hashed by address ({@code hashMemory}): the library's own ByteBuffer path reaches into
 * {@code sun.nio.ch}, which Java 17 does not export, so it would need {@code --add-exports} on every JVM that runs
 * us. The address is read once per buffer through {@code sun.misc.Unsafe} (module jdk.unsupported, open to all).
 */
public final class Xxh3 {
    private static final LongHashFunction XX3 = LongHashFunction.xx3();
    private static final sun.misc.Unsafe UNSAFE;
    private static final long ADDRESS_OFFSET;

    static {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) f.get(null);
            ADDRESS_OFFSET = UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Xxh3() {
    }

    public static long hash(byte[] bytes) {
        return XX3.hashBytes(bytes);
    }

    public static long hash(byte[] bytes, int off, int len) {
        return XX3.hashBytes(bytes, off, len);
    }

    /** XXH3-64 of {@code len} bytes at absolute index {@code off} of {@code buffer}, ignoring position and limit. */
    public static long hash(ByteBuffer buffer, int off, int len) {
        Objects.checkFromIndexSize(off, len, buffer.capacity());
        if (buffer.hasArray()) {
            return XX3.hashBytes(buffer.array(), buffer.arrayOffset() + off, len);
        }
        if (!buffer.isDirect()) {
            byte[] copy = new byte[len];
            buffer.get(off, copy, 0, len);
            return XX3.hashBytes(copy);
        }
        try {
            return XX3.hashMemory(UNSAFE.getLong(buffer, ADDRESS_OFFSET) + off, len);
        } finally {
            Reference.reachabilityFence(buffer);
        }
    }

    public static String hex(long h) {
        return String.format("0x%016X", h);
    }
}
