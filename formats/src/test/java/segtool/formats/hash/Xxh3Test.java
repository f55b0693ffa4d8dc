package segtool.formats.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.io.Unmapper;

/** Every buffer kind the readers hand to XXH3 hashes like the plain array. */
class Xxh3Test {
    @TempDir
    Path dir;

    @Test
    void directBuffer_hashesLikeTheArray_withoutJvmFlags() {
        byte[] a = Vectors.a();
        ByteBuffer direct = ByteBuffer.allocateDirect(a.length + 10);
        direct.put(10, a, 0, a.length);
        // Vector A's message checksum covers record[264, 315).
        assertEquals(0x18EDB3CCC3CA538FL, Xxh3.hash(direct, 10 + 264, 51));
        direct.order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x18EDB3CCC3CA538FL, Xxh3.hash(direct, 10 + 264, 51), "the buffer's order does not matter");
        assertEquals(0x2D06800538D394C2L, Xxh3.hash(direct, 0, 0));
    }

    @Test
    void everyLengthUpTo300_agreesAcrossArrayHeapDirectAndReadOnlyBuffers() {
        // XXH3 switches code paths at 16, 128 and 240 bytes; cover each side of each switch, at odd offsets.
        byte[] bytes = new byte[300 + 7];
        new Random(17).nextBytes(bytes);
        ByteBuffer heap = ByteBuffer.wrap(bytes);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes);
        ByteBuffer readOnly = ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        ByteBuffer sliced = ByteBuffer.wrap(bytes, 3, 300).slice();
        for (int len = 0; len <= 300; len++) {
            long want = Xxh3.hash(bytes, 3, len);
            assertEquals(want, Xxh3.hash(heap, 3, len), "heap " + len);
            assertEquals(want, Xxh3.hash(direct, 3, len), "direct " + len);
            assertEquals(want, Xxh3.hash(readOnly, 3, len), "read-only " + len);
            assertEquals(want, Xxh3.hash(sliced, 0, len), "slice with array offset " + len);
        }
    }

    @Test
    void mappedBuffer_hashesLikeTheArray() throws IOException {
        byte[] bytes = new byte[5000];
        new Random(5).nextBytes(bytes);
        Path f = dir.resolve("m.bin");
        Files.write(f, bytes);
        try (FileChannel ch = FileChannel.open(f)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes.length);
            try {
                assertEquals(Xxh3.hash(bytes, 1, 4999), Xxh3.hash(m, 1, 4999));
            } finally {
                Unmapper.unmap(m);
            }
        }
    }

    @Test
    void rangeOutsideTheBuffer_isRefused() {
        ByteBuffer direct = ByteBuffer.allocateDirect(16);
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash(direct, 10, 7));
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash(direct, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash(ByteBuffer.wrap(new byte[4]), 0, 5));
    }
}
