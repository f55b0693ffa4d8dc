package segtool.formats.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Windows start on a page boundary, have exactly the capacity asked for, and are reused when handed back. */
class DirectBuffersTest {
    @TempDir
    Path dir;

    @Test
    void everyBufferStartsOnAPageAndHasTheCapacityAskedFor() {
        for (int capacity : new int[] {1, 256, 4095, 4096, 4097, 65_536, 1 << 20}) {
            ByteBuffer b = DirectBuffers.allocateAligned(capacity);
            assertTrue(b.isDirect());
            assertEquals(0, b.alignmentOffset(0, DirectBuffers.ALIGNMENT), "capacity " + capacity);
            assertEquals(capacity, b.capacity());
            assertEquals(capacity, b.limit());
            assertEquals(0, b.position());
            b.put(capacity - 1, (byte) 7);   // the last byte is addressable
            assertEquals(7, b.get(capacity - 1));
        }
    }

    @Test
    void pooledBuffersAreAlignedAndReused() {
        int capacity = 12_345;
        ByteBuffer first = DirectBuffers.take(capacity);
        assertEquals(0, first.alignmentOffset(0, DirectBuffers.ALIGNMENT));
        first.position(100);
        DirectBuffers.give(first);
        ByteBuffer again = DirectBuffers.take(capacity);
        assertSame(first, again);
        assertEquals(0, again.position());
        assertEquals(capacity, again.limit());
    }

    /** A buffer comes back in a new buffer's order, whatever its last user set (the cover sets little-endian). */
    @Test
    void aReusedBufferIsBigEndianAgain() {
        int capacity = 23_456;
        ByteBuffer first = DirectBuffers.take(capacity).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        first.putLong(0, 1L);
        DirectBuffers.give(first);
        ByteBuffer again = DirectBuffers.take(capacity);
        assertSame(first, again);
        assertEquals(java.nio.ByteOrder.BIG_ENDIAN, again.order());
        assertEquals(1L << 56, again.getLong(0));
    }

    @Test
    void aSegmentChannelsWindowIsPageAligned() throws Exception {
        byte[] bytes = new byte[200_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 13 + 1);
        }
        Path f = Files.write(dir.resolve("00000000000000000000.log"), bytes);
        try (SegmentChannel ch = SegmentChannel.open(f, 65_536)) {
            int at = ch.at(70_000, 256);
            assertEquals(0, ch.buffer().alignmentOffset(0, DirectBuffers.ALIGNMENT));
            assertEquals(0, at);
            for (int k = 0; k < 256; k++) {
                assertEquals(bytes[70_000 + k], ch.buffer().get(at + k));
            }
        }
    }
}
