package segtool.formats.io;

import java.lang.reflect.Field;

/**
 * The one lookup of {@code sun.misc.Unsafe} (module jdk.unsupported, open to all) that segtool makes: for releasing a
 * mapping at once ({@link Unmapper}) and for hashing a direct buffer by address (the XXH3 wrapper). Callers fall back
 * to portable paths when it is not available.
 */
public final class UnsafeAccess {
    private static final sun.misc.Unsafe UNSAFE = lookup();

    private UnsafeAccess() {
    }

    /** The instance, or null where the JDK does not hand it out. */
    public static sun.misc.Unsafe get() {
        return UNSAFE;
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
