package segtool.formats.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian reads and writes that ignore the buffer's own byte order (slice()/duplicate() reset it). */
public final class LittleEndian {
    private static final VarHandle BB_I64 = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BB_I32 = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BA_I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BA_I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    /** An unsigned 64-bit value in a signed long: compare with {@link Long#compareUnsigned}. */
    public static long u64(ByteBuffer b, int at) {
        return (long) BB_I64.get(b, at);
    }

    public static long u32(ByteBuffer b, int at) {
        return Integer.toUnsignedLong((int) BB_I32.get(b, at));
    }

    public static long u64(byte[] b, int at) {
        return (long) BA_I64.get(b, at);
    }

    public static long u32(byte[] b, int at) {
        return Integer.toUnsignedLong((int) BA_I32.get(b, at));
    }

    public static void putU64(byte[] b, int at, long value) {
        BA_I64.set(b, at, value);
    }

    public static void putU32(byte[] b, int at, long value) {
        BA_I32.set(b, at, (int) value);
    }

    public static void putU64(ByteBuffer b, int at, long value) {
        BB_I64.set(b, at, value);
    }

    public static void putU32(ByteBuffer b, int at, long value) {
        BB_I32.set(b, at, (int) value);
    }
}
