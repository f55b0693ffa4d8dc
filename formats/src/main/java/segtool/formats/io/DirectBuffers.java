package segtool.formats.io;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * A small pool of direct buffers. A fresh direct buffer costs its first touch of every page: 4 MiB took about 12 ms
 * on the machines we measured, as long as hashing 50 MiB. Judging a partition opens a window per segment and per
 * verifying thread, so windows are handed back here on close and reused. At most {@link #KEPT} buffers are kept;
 * memory stays bounded by what is in use plus that.
 */
public final class DirectBuffers {
    static final int KEPT = 8;
    private static final ArrayDeque<ByteBuffer> FREE = new ArrayDeque<>();

    private DirectBuffers() {
    }

    /** A cleared direct buffer of exactly {@code capacity} bytes, reused when one is free. */
    public static ByteBuffer take(int capacity) {
        synchronized (FREE) {
            for (Iterator<ByteBuffer> it = FREE.iterator(); it.hasNext(); ) {
                ByteBuffer b = it.next();
                if (b.capacity() == capacity) {
                    it.remove();
                    return b.clear();
                }
            }
        }
        return ByteBuffer.allocateDirect(capacity);
    }

    /** Hands {@code buffer} back; the caller must hold no other reference to it. */
    public static void give(ByteBuffer buffer) {
        if (buffer == null || !buffer.isDirect()) {
            return;
        }
        synchronized (FREE) {
            if (FREE.size() >= KEPT) {
                FREE.removeLast();
            }
            FREE.addFirst(buffer);
        }
    }
}
