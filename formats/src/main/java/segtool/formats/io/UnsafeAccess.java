package segtool.formats.io;

import java.lang.reflect.Field;

/**
 * The one lookup of {@code sun.misc.Unsafe} (module jdk.unsupported, open to all) that segtool makes: for releasing a
 * mapping at once ({@link Unmapper}), and for reading a direct buffer by address (the XXH3 wrapper, and
 * {@link LittleEndian}'s reads). Callers fall back to portable paths when it is not available.
 */
public final class UnsafeAccess {
    private static final sun.misc.Unsafe UNSAFE = lookup();
    private static final long ADDRESS_OFFSET = addressOffset();

    private UnsafeAccess() {
    }

    /** The instance, or null where the JDK does not hand it out. */
    public static sun.misc.Unsafe get() {
        return UNSAFE;
    }

    /**
     * Where {@code java.nio.Buffer} keeps a direct buffer's address (its {@code address} field, as {@link #get()}'s
     * {@code getLong(Object, long)} takes it), or -1 when there is no Unsafe or no such field, or memory is not
     * little-endian (the callers' raw reads are in native order and must mean little-endian).
     */
    public static long bufferAddressOffset() {
        return ADDRESS_OFFSET;
    }

    private static long addressOffset() {
        if (UNSAFE == null || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
            return -1;
        }
        try {
            return UNSAFE.objectFieldOffset(java.nio.Buffer.class.getDeclaredField("address"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }

    private static sun.misc.Unsafe lookup() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
