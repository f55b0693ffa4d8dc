package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A real, small file system for full-disk tests: a tmpfs mounted for the test (root only; skipped elsewhere). */
final class SmallFs implements AutoCloseable {
    final Path dir;

    private SmallFs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (as mount(8) reads it) at {@code dir}; skips the test where it cannot. */
    static SmallFs mount(Path dir, String size) throws Exception {
        Files.createDirectories(dir);
        Process m;
        try {
            m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.assumeTrue(false, "cannot run mount: " + e.getMessage());
            throw e;
        }
        String out = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(m.waitFor(30, TimeUnit.SECONDS));
        Assumptions.assumeTrue(m.exitValue() == 0, "cannot mount a small tmpfs here (" + out + "); skipped");
        return new SmallFs(dir);
    }

    /** Fills the file system with files {@code filler<n>} in {@code in} until at most {@code leave} bytes are usable. */
    static void fill(Path in, long leave) throws IOException {
        byte[] chunk = new byte[64 << 10];
        int n = 0;
        while (Files.getFileStore(in).getUsableSpace() > leave) {
            long room = Files.getFileStore(in).getUsableSpace() - leave;
            try {
                Files.write(in.resolve("filler" + n++), java.util.Arrays.copyOf(chunk, (int) Math.min(room,
                        chunk.length)));
            } catch (IOException full) {
                return;
            }
        }
    }

    /** Removes the {@code filler<n>} files of {@link #fill}. */
    static void unfill(Path in) throws IOException {
        try (var s = Files.newDirectoryStream(in, "filler*")) {
            for (Path p : s) {
                Files.delete(p);
            }
        }
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("umount", dir.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
    }
}
