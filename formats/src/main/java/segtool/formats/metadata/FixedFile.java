package segtool.formats.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A small file that must be exactly {@code n} bytes ({@code created.revision}, {@code purge.gen}): absent, present
 * with another length (its bytes not read), or its bytes. A FIFO or device reports length 0 and is not opened.
 */
record FixedFile(boolean present, long length, byte[] bytes) {
    static FixedFile read(Path file, int n) throws IOException {
        try {
            long size = Files.size(file);
            if (size != n) {
                return new FixedFile(true, size, null);
            }
            byte[] b = Files.readAllBytes(file);
            return b.length == n ? new FixedFile(true, n, b) : new FixedFile(true, b.length, null);
        } catch (NoSuchFileException e) {
            return new FixedFile(false, 0, null);
        }
    }
}
