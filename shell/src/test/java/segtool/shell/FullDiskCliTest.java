package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pack and salvage writing to a full file system (a real tmpfs, mounted for the test: root only, skipped elsewhere):
 * one line naming the output and the OS reason, exit 3, nothing left behind. The line was "segtool: No space left on
 * device", naming no file (Java's write errors carry only the reason).
 */
class FullDiskCliTest {
    @TempDir
    Path root;

    @Test
    void packAndSalvage_onAFullDisk_nameTheOutput_exit3_leaveNothing() throws Exception {
        Partitions p = Partitions.healthy(root, "node");
        Path full = Files.createDirectories(root.resolve("full"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full.toString())
                .redirectErrorStream(true).start();
        String said = new String(m.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(m.waitFor(30, TimeUnit.SECONDS));
        Assumptions.assumeTrue(m.exitValue() == 0, "cannot mount a small tmpfs here (" + said + "); skipped");
        try {
            try (OutputStream o = Files.newOutputStream(full.resolve("filler"))) {
                byte[] chunk = new byte[4096];
                while (true) {
                    o.write(chunk);
                    o.flush();
                }
            } catch (IOException noSpace) {
                // the file system is full
            }
            Path dump = full.resolve("dump.tar");
            Path salvaged = full.resolve("salvaged");
            Object[][] runs = {{"pack", root.resolve("node"), "-o", dump, dump}, {"salvage", p.dir, "-o", salvaged,
                salvaged}};
            for (Object[] run : runs) {
                Cli.Result r = Cli.run(run[0], run[1], run[2], run[3]);
                assertEquals(3, r.exit(), run[0] + ": " + r);
                assertEquals("segtool: " + run[4] + ": cannot write: No space left on device\n", r.err(),
                        run[0] + ": " + r);
            }
            try (var s = Files.list(full)) {
                assertEquals(1, s.count(), "only the filler: no partial output");
            }
        } finally {
            new ProcessBuilder("umount", full.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
