package segtool.formats.io;

import java.nio.ByteBuffer;

/**
 * Releases a mapped buffer at once instead of when the collector gets to it, so that verifying many large records
 * does not pile mappings (and resident pages) up. Falls back to doing nothing where the JDK does not allow it.
 */
public final class Unmapper {
    private static final sun.misc.Unsafe UNSAFE = UnsafeAccess.get();

    private Unmapper() {
    }

    /** Unmaps {@code mapped}; the caller must hold no other view of it. */
    public static void unmap(ByteBuffer mapped) {
        if (UNSAFE != null && mapped != null && mapped.isDirect()) {
            try {
                UNSAFE.invokeCleaner(mapped);
            } catch (RuntimeException ignored) {
                // a slice or duplicate: leave it to the collector
            }
        }
    }
}
