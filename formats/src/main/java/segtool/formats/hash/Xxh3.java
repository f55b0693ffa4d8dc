package segtool.formats.hash;

import java.nio.ByteBuffer;
import net.openhft.hashing.LongHashFunction;

/** XXH3-64 with seed 0 and the default secret, through zero-allocation-hashing. One contiguous range per call. */
public final class Xxh3 {
    private static final LongHashFunction XX3 = LongHashFunction.xx3();

    private Xxh3() {
    }

    public static long hash(byte[] bytes) {
        return XX3.hashBytes(bytes);
    }

    public static long hash(byte[] bytes, int off, int len) {
        return XX3.hashBytes(bytes, off, len);
    }

    public static long hash(ByteBuffer buffer, int off, int len) {
        return XX3.hashBytes(buffer, off, len);
    }

    public static String hex(long h) {
        return String.format("0x%016X", h);
    }
}
