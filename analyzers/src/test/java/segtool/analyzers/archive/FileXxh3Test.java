package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.hash.Xxh3;

class FileXxh3Test {
    private static final int SMALL_WINDOW = 4096;

    @TempDir Path dir;

    /** Lengths around XXH3's internal boundaries (16, 128, 240, stripe 64, block 1024) and the window size. */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1023, 1024, 1025, 4095, 4096, 4097, 8192 + 63,
        100_000, 300_017})
    void anyLength_equalsOneShotHash(int length) throws IOException {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        Path file = Files.write(dir.resolve("f"), bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertEquals(Xxh3.hash(bytes), FileXxh3.hash(channel, length, SMALL_WINDOW), "small window");
        }
        assertEquals(Xxh3.hash(bytes), FileXxh3.hash(file), "default window");
    }

    @Test
    void fileShorterThanLength_failsWithEof() throws IOException {
        Path file = Files.write(dir.resolve("short"), new byte[5000]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThrows(EOFException.class, () -> FileXxh3.hash(channel, 9000, SMALL_WINDOW));
        }
    }

    /** Pieces of two files hashed as one: the digest of the file apply would assemble, across window refills. */
    @ParameterizedTest(name = "cut at {0}")
    @ValueSource(ints = {0, 1, 63, 64, 65, 240, 4096, (1 << 20) - 3, 1 << 20, (1 << 20) + 100})
    void piecesOfTwoFiles_equalTheHashOfTheirConcatenation(int cut) throws IOException {
        Random r = new Random(cut);
        byte[] a = new byte[(1 << 20) + 200];
        byte[] b = new byte[(2 << 20) + 77];
        r.nextBytes(a);
        r.nextBytes(b);
        Path fa = Files.write(dir.resolve("a"), a);
        Path fb = Files.write(dir.resolve("b"), b);
        int tail = b.length - cut;
        byte[] joined = new byte[cut + tail];
        System.arraycopy(a, 0, joined, 0, cut);
        System.arraycopy(b, cut, joined, cut, tail);
        java.util.List<FileRange> pieces = new java.util.ArrayList<>();
        pieces.add(new FileRange(fa, 0, cut));
        pieces.add(new FileRange(fb, 0, 0)); // an empty piece changes nothing
        pieces.add(new FileRange(fb, cut, tail));
        assertEquals(Xxh3.hash(joined, 0, joined.length), FileXxh3.hash(pieces));
        assertEquals(Xxh3.hash(new byte[0], 0, 0), FileXxh3.hash(java.util.List.of()));
    }
}
