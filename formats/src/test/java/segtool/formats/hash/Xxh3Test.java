package segtool.formats.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import net.openhft.hashing.LongHashFunction;
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
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash(new byte[4], 1, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> Xxh3.hash(new byte[4], -1, 1));
    }

    /**
     * Known answers from the C reference, {@code xxhsum -H3} 0.8.1, over {@link #pattern}: every size class and both
     * sides of each switch (16, 128, 240 bytes; the 1024-byte block; a last stripe that overlaps the partial block).
     */
    private static final long[] REFERENCE = {
            0, 0x2d06800538d394c2L,
            1, 0x4c5cca45d0f4811fL,
            2, 0x29c60963cbfa4e6eL,
            3, 0x6e3e2670e61106acL,
            4, 0x5c4c63133443d03fL,
            5, 0x49f5eb3111280b63L,
            8, 0xf9fd4dd0b04d78f5L,
            9, 0x7c20df9712c26edfL,
            15, 0xb345a7b2698ba575L,
            16, 0x86abf6baccea0858L,
            17, 0xb58bf5dc5022d071L,
            31, 0x48442fcd5518b086L,
            32, 0xe3712ed84c04a66eL,
            33, 0xa4dee99b093e1f73L,
            64, 0x1291d2d4042330ddL,
            65, 0x97c6bf83217e5ec9L,
            96, 0x81296929fc063365L,
            97, 0xf145a45b658ab9ddL,
            128, 0x10d17f72c0ccba41L,
            129, 0x1648bdc3db49d1a2L,
            130, 0xc65f0f545fa96defL,
            200, 0xc0fbc0f4e181c826L,
            239, 0xf0d154819adb16cdL,
            240, 0xb6cfaf343fab81e6L,
            241, 0x956cae592c67279eL,
            255, 0x64a6073025eb7929L,
            256, 0xb15e550733c5dfacL,
            1023, 0x33d8a46f240d828eL,
            1024, 0xdd204230236b44ecL,
            1025, 0xf85404f5ef29d073L,
            1087, 0x99fc51af968d6670L,
            2047, 0x449beac986f269e5L,
            2048, 0xbc4004b807fe1693L,
            2049, 0x3edab3e19554359cL,
            16424, 0x5e3045c5ea5e7ea1L,
            100003, 0x9dd66c5fd7c11411L
    };

    /** Byte {@code i} of the known-answer inputs: {@code ((i * 131 + 7) * (i >> 8 | 1)) & 0xFF}. */
    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ((i * 131 + 7) * (i >> 8 | 1));
        }
        return b;
    }

    @Test
    void theRawPath_passesItsSelfTest_onThisLittleEndianJvm() {
        // otherwise every other test here would only exercise the library fallback
        assertTrue(Xxh3Raw.available());
    }

    @Test
    void knownAnswers_ofTheCReference_fromArraysAndDirectBuffers() {
        for (int k = 0; k < REFERENCE.length; k += 2) {
            int n = (int) REFERENCE[k];
            byte[] in = pattern(n);
            assertEquals(REFERENCE[k + 1], Xxh3.hash(in), "array, " + n + " bytes");
            ByteBuffer direct = ByteBuffer.allocateDirect(n + 5);
            direct.put(5, in, 0, n);
            assertEquals(REFERENCE[k + 1], Xxh3.hash(direct, 5, n), "direct, " + n + " bytes");
            assertEquals(REFERENCE[k + 1], LongHashFunction.xx3().hashBytes(in), "zero-allocation-hashing, " + n);
        }
    }

    @Test
    void everyLengthUpTo2200AndRandomLongOnes_agreeWithZeroAllocationHashing() {
        Random random = new Random(0x5E9);
        byte[] bytes = new byte[300_000];
        random.nextBytes(bytes);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes);
        LongHashFunction reference = LongHashFunction.xx3();
        for (int len = 0; len <= 2200; len++) {
            int off = len % 7;
            long want = reference.hashBytes(bytes, off, len);
            assertEquals(want, Xxh3.hash(bytes, off, len), "array " + len);
            assertEquals(want, Xxh3.hash(direct, off, len), "direct " + len);
        }
        for (int t = 0; t < 300; t++) {
            int len = random.nextInt(bytes.length - 64);
            int off = random.nextInt(bytes.length - len + 1);
            assertEquals(reference.hashBytes(bytes, off, len), Xxh3.hash(direct, off, len), "direct " + off + "+" + len);
        }
    }
}
