package segtool.formats.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The buffer reads give the same little-endian values whatever kind of buffer holds the bytes (direct ones are read by
 * address, the others through view handles), ignore the buffer's own order, and refuse exactly the indexes the view
 * handles refuse: none may read past the limit.
 */
class LittleEndianTest {
    private static final int N = 64;

    @TempDir
    static java.nio.file.Path dir;

    private static byte[] bytes() {
        byte[] b = new byte[N];
        new Random(7).nextBytes(b);
        return b;
    }

    /**
     * The same 64 bytes in every kind of buffer: heap, direct, read-only, big-endian order, a slice of a larger one,
     * a mapping of a file; some with their position moved (the reads index from 0 whatever the position).
     */
    private static List<ByteBuffer> buffers() throws java.io.IOException {
        byte[] b = bytes();
        List<ByteBuffer> out = new ArrayList<>();
        out.add(ByteBuffer.wrap(b.clone()));
        ByteBuffer direct = ByteBuffer.allocateDirect(N);
        direct.put(b).clear();
        out.add(direct);
        out.add(direct.asReadOnlyBuffer());
        out.add(ByteBuffer.wrap(b.clone()).asReadOnlyBuffer());
        out.add(direct.duplicate().order(ByteOrder.BIG_ENDIAN));
        out.add(direct.duplicate().order(ByteOrder.LITTLE_ENDIAN));
        ByteBuffer larger = ByteBuffer.allocateDirect(N + 13);
        larger.position(13);
        larger.put(b);
        larger.position(13);
        out.add(larger.slice());
        out.add(direct.duplicate().position(9));
        out.add(direct.asReadOnlyBuffer().order(ByteOrder.BIG_ENDIAN).position(5));
        out.add(ByteBuffer.wrap(b.clone()).position(8));
        java.nio.file.Path file = dir.resolve("bytes");
        java.nio.file.Files.write(file, b);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
            java.nio.MappedByteBuffer mapped = ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, N);
            out.add(mapped);
            out.add(mapped.duplicate().position(33));
        }
        return out;
    }

    private static long expected(byte[] b, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    /** On this JVM (Unsafe present, little-endian) direct buffers really are read by address. */
    @Test
    void theAddressPathIsTheOneTaken() {
        assertEquals(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder());
        org.junit.jupiter.api.Assertions.assertTrue(UnsafeAccess.bufferAddressOffset() >= 0);
    }

    @Test
    void everyKindOfBufferReadsTheSameLittleEndianValues() throws Exception {
        byte[] b = bytes();
        for (ByteBuffer buf : buffers()) {
            for (int at = 0; at + 8 <= N; at++) {
                assertEquals(expected(b, at, 8), LittleEndian.u64(buf, at), buf + " u64 at " + at);
                assertEquals(expected(b, at, 4), LittleEndian.u32(buf, at), buf + " u32 at " + at);
            }
            assertEquals(expected(b, N - 4, 4), LittleEndian.u32(buf, N - 4));
            int position = buf.position();
            LittleEndian.u64(buf, 3);
            assertEquals(position, buf.position(), "position left alone");
        }
    }

    @Test
    void noReadPastTheLimitOrBeforeZero() throws Exception {
        for (ByteBuffer buf : buffers()) {
            ByteBuffer limited = buf.duplicate().limit(20);
            assertEquals(LittleEndian.u64(buf, 12), LittleEndian.u64(limited, 12));
            assertEquals(LittleEndian.u32(buf, 16), LittleEndian.u32(limited, 16));
            for (int at : new int[] {13, 19, 20, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
                assertThrows(IndexOutOfBoundsException.class, () -> LittleEndian.u64(limited, at), buf + " " + at);
            }
            for (int at : new int[] {17, 20, Integer.MAX_VALUE - 2, -1}) {
                assertThrows(IndexOutOfBoundsException.class, () -> LittleEndian.u32(limited, at), buf + " " + at);
            }
        }
    }

    @Test
    void writesReadBack() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.BIG_ENDIAN);
        LittleEndian.putU64(direct, 3, 0x0123456789ABCDEFL);
        assertEquals(0xEF, direct.get(3) & 0xFF);
        assertEquals(0x0123456789ABCDEFL, LittleEndian.u64(direct, 3));
        LittleEndian.putU32(direct, 11, 0xFEDCBA98L);
        assertEquals(0xFEDCBA98L, LittleEndian.u32(direct, 11));
    }
}
