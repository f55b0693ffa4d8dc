package segtool.formats.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentChannelTest {
    private static final int WINDOW = 64;

    @TempDir
    Path dir;

    /** Byte i of the file is (i * 7 + 3) mod 256, so every position is recognisable. */
    private Path patterned(int length) throws IOException {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 7 + 3);
        }
        Path file = dir.resolve("p.log");
        Files.write(file, bytes);
        return file;
    }

    private static byte expected(long pos) {
        return (byte) (pos * 7 + 3);
    }

    @Test
    void everyRange_readsTheFileBytes_throughOneBuffer() throws IOException {
        Path file = patterned(1000);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            ch.at(0, 0);
            ByteBuffer window = ch.buffer();
            assertEquals(1000, ch.size());
            assertEquals(WINDOW, ch.capacity());
            for (int len : new int[]{0, 1, 7, 24, 63, 64}) {
                for (long pos = 0; pos + len <= ch.size(); pos += 5) {
                    int at = ch.at(pos, len);
                    assertSame(window, ch.buffer(), "the window is never reallocated");
                    for (int k = 0; k < len; k++) {
                        assertEquals(expected(pos + k), ch.buffer().get(at + k), "pos " + pos + " len " + len);
                    }
                }
            }
        }
    }

    @Test
    void rangeInsideWindow_isServedWithoutRereading() throws IOException {
        Path file = patterned(1000);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            assertEquals(0, ch.at(100, 10));
            // Overwrite the file behind the channel's back: a cached range still shows the old bytes, which proves
            // it was not read again; a range that leaves the window shows the new ones.
            Files.write(file, new byte[1000], StandardOpenOption.WRITE);
            assertEquals(20, ch.at(120, 44), "same window, index relative to its start");
            assertEquals(expected(163), ch.buffer().get(20 + 43));
            assertEquals(0, ch.at(120, 45), "one byte past the window refills from the requested position");
            assertEquals(0, ch.buffer().get(0));
        }
    }

    @Test
    void readAcrossWindowBoundary_refillsFromRequestedPosition() throws IOException {
        Path file = patterned(1000);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            ch.at(0, 8);
            int at = ch.at(60, 10);
            assertEquals(0, at);
            byte[] got = new byte[10];
            ch.buffer().get(at, got, 0, 10);
            byte[] want = new byte[10];
            for (int k = 0; k < 10; k++) {
                want[k] = expected(60 + k);
            }
            assertArrayEquals(want, got);
            assertArrayEquals(want, ch.read(60, 10));
        }
    }

    @Test
    void lastBytes_windowShorterThanCapacity() throws IOException {
        Path file = patterned(100);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            int at = ch.at(90, 10);
            assertEquals(expected(99), ch.buffer().get(at + 9));
            assertEquals(0, ch.read(100, 0).length, "an empty range at the end is in range");
        }
    }

    @Test
    void outOfRange_throwsIllegalArgument() throws IOException {
        Path file = patterned(100);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            assertThrows(IllegalArgumentException.class, () -> ch.at(-1, 1));
            assertThrows(IllegalArgumentException.class, () -> ch.at(0, WINDOW + 1));
            assertThrows(IllegalArgumentException.class, () -> ch.at(99, 2));
            assertThrows(IllegalArgumentException.class, () -> ch.at(101, 0));
            assertThrows(IllegalArgumentException.class, () -> ch.at(0, -1));
            assertThrows(IllegalArgumentException.class, () -> ch.at(Long.MAX_VALUE, 2));
            assertThrows(IllegalArgumentException.class, () -> ch.read(95, 6));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(-1, 1, (b, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, 101, (b, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, -1, (b, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(Long.MAX_VALUE, 2, (b, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(101, 0, (b, at) -> null));
        }
    }

    @Test
    void negativeLimit_isRefused() throws IOException {
        Path file = patterned(100);
        assertThrows(IllegalArgumentException.class, () -> SegmentChannel.open(file, WINDOW, -1));
    }

    @Test
    void sizeIsFixedAtOpen_appendedBytesAreNotSeen() throws IOException {
        Path file = patterned(100);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            Files.write(file, new byte[50], StandardOpenOption.APPEND);
            assertEquals(150, Files.size(file));
            assertEquals(100, ch.size());
            assertThrows(IllegalArgumentException.class, () -> ch.at(100, 1));
            int at = ch.at(60, 40);
            assertEquals(0, at);
            assertEquals(expected(99), ch.buffer().get(39));
        }
    }

    @Test
    void limit_viewsOnlyThePrefix() throws IOException {
        Path file = patterned(100);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW, 30)) {
            assertEquals(30, ch.size());
            assertThrows(IllegalArgumentException.class, () -> ch.at(25, 6));
            assertEquals(expected(29), ch.read(29, 1)[0]);
        }
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW, 500)) {
            assertEquals(100, ch.size(), "a limit past the end is the file length");
        }
    }

    @Test
    void aMapping_servesRangesWiderThanTheWindow() throws IOException {
        Path file = patterned(1000);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            byte[] got = ch.withRange(10, 900, (m, at) -> {
                byte[] out = new byte[900];
                m.get(at, out, 0, 900);
                return out;
            });
            byte[] all = Files.readAllBytes(file);
            assertArrayEquals(Arrays.copyOfRange(all, 10, 910), got);
        }
    }

    @Test
    void shrunkFile_isAnIoErrorNotGarbage() throws IOException {
        Path file = patterned(1000);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            Files.write(file, new byte[10]);
            assertThrows(IOException.class, () -> ch.at(500, 10));
        }
    }

    @Test
    void withRange_usesTheWindowWhenTheRangeFits_andAMappingWhenItDoesNot() throws IOException {
        Path file = patterned(1000);
        byte[] all = Files.readAllBytes(file);
        try (SegmentChannel ch = SegmentChannel.open(file, WINDOW)) {
            for (long[] range : new long[][]{{100, WINDOW}, {100, WINDOW + 1}, {0, 1000}, {999, 1}, {1000, 0}}) {
                long pos = range[0];
                int len = (int) range[1];
                byte[] got = ch.withRange(pos, len, (buf, at) -> {
                    assertEquals(len <= WINDOW, buf == ch.buffer(), "window iff the range fits: " + pos + "+" + len);
                    byte[] out = new byte[len];
                    buf.get(at, out, 0, len);
                    return out;
                });
                assertArrayEquals(Arrays.copyOfRange(all, (int) pos, (int) pos + len), got);
            }
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(990, 11, (buf, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, 1001, (buf, at) -> null));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, -1, (buf, at) -> null));
        }
    }

    @Test
    void empty_viewsNoBytesOfAFileThatNeedNotExist() throws IOException {
        Path missing = dir.resolve("00000000000000000000.log");
        try (SegmentChannel ch = SegmentChannel.empty(missing)) {
            assertEquals(missing, ch.path());
            assertEquals(0, ch.size());
            assertEquals(256, ch.capacity(), "room for a header, so a cursor accepts it");
            assertEquals(0, ch.read(0, 0).length);
            assertThrows(IllegalArgumentException.class, () -> ch.at(0, 1));
            assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, 257, (b, at) -> null));
        }
        assertFalse(Files.exists(missing), "nothing was created");
    }

    @Test
    void bytesInMemory_readAsTheFileHoldingThemIsRead() throws IOException {
        Path file = patterned(1000);
        byte[] all = Files.readAllBytes(file);
        try (SegmentChannel disk = SegmentChannel.open(file, WINDOW);
             SegmentChannel memory = SegmentChannel.of(file, all, WINDOW)) {
            assertEquals(file, memory.path());
            assertEquals(disk.size(), memory.size());
            assertEquals(disk.capacity(), memory.capacity());
            for (long[] range : new long[][]{{0, 0}, {0, 64}, {936, 64}, {5, 65}, {100, 500}, {0, 1000}, {999, 1}}) {
                long pos = range[0];
                int len = (int) range[1];
                SegmentChannel.RangeReader<byte[]> copy = (buf, at) -> {
                    byte[] out = new byte[len];
                    buf.get(at, out, 0, len);
                    return out;
                };
                assertArrayEquals(disk.withRange(pos, len, copy), memory.withRange(pos, len, copy), pos + "+" + len);
                if (len <= WINDOW) {
                    assertArrayEquals(disk.read(pos, len), memory.read(pos, len));
                    assertEquals(disk.windowEnd(), memory.windowEnd(), "the same window fill");
                    assertTrue(memory.buffer().isDirect(), "memory is read into the same kind of window");
                }
            }
            boolean[] readOnly = {false};
            memory.withRange(0, 1000, (buf, at) -> readOnly[0] = buf.isReadOnly());
            assertTrue(readOnly[0], "a wide range of bytes in memory cannot be written through");
            for (SegmentChannel ch : new SegmentChannel[]{disk, memory}) {
                assertThrows(IllegalArgumentException.class, () -> ch.at(990, 11));
                assertThrows(IllegalArgumentException.class, () -> ch.withRange(0, 1001, (buf, at) -> null));
            }
        }
    }
}
