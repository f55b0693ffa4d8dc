package segtool.formats.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17.4: a file truncated under a live mapping. Reading the vanished pages raises SIGBUS, which the JVM turns
 * into an InternalError that used to end segtool with a stack trace and exit 1 ("damage"). It is an I/O error.
 */
class MappedRangeTest {
    @TempDir
    Path dir;

    private static final int LENGTH = 1 << 20;

    private Path file() throws IOException {
        byte[] b = new byte[LENGTH];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return Files.write(dir.resolve("00000000000000000000.log"), b);
    }

    private static void truncate(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
    }

    @Test
    void aFileTruncatedUnderTheMapping_isAnIoErrorNamingFileAndPosition() throws IOException {
        Path p = file();
        try (SegmentChannel ch = SegmentChannel.open(p, 4096)) {
            MappedRange.Fault f = assertThrows(MappedRange.Fault.class, () -> ch.withRange(4096, LENGTH - 4096,
                    (buf, at) -> {
                        truncate(p);
                        long sum = 0;
                        for (int i = 0; i < LENGTH - 4096; i++) {
                            sum += buf.get(at + i);
                        }
                        return sum;
                    }));
            assertEquals(p, f.path());
            assertEquals(4096, f.position());
            assertTrue(f.getMessage().startsWith(p + " @ 4096: read failed"), f.getMessage());
            assertFalse(f.getMessage().contains("\n"));
        }
    }

    @Test
    void hashingAMappingWhoseFileShrank_isAnIoError() throws IOException {
        Path p = file();
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            assertThrows(MappedRange.Fault.class, () -> MappedRange.read(ch, p, 0, LENGTH, b -> {
                truncate(p);
                return segtool.formats.hash.Xxh3.hash(b, 0, LENGTH);
            }));
        }
    }

    @Test
    void anIntactMapping_readsTheBytes() throws IOException {
        Path p = file();
        byte[] all = Files.readAllBytes(p);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            long h = MappedRange.read(ch, p, 0, LENGTH, b -> segtool.formats.hash.Xxh3.hash(b, 0, LENGTH));
            assertEquals(segtool.formats.hash.Xxh3.hash(all), h);
        }
    }
}
