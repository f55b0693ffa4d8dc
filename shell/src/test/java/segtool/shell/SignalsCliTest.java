package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;

/**
 * SIGINT and SIGTERM sent to a real segtool process ({@link Main}, a child JVM) while it writes its side output: it
 * stops, removes its own temporary file or directory, prints one line saying what was interrupted and what it left,
 * and exits 130 (SIGINT) or 143 (SIGTERM). Before, SIGINT ended salvage with 130 and no line, leaving
 * {@code .OUT.segtool-salvage-tmp.<pid>/} beside OUT, and SIGTERM gave the JVM's undocumented 143.
 *
 * <p>The signal is sent once the command is seen writing (its temporary output exists). A run that finished before
 * the signal reached it (the input was too small for this machine) is tried again on an input twice as large.
 */
class SignalsCliTest {
    @TempDir
    static Path root;

    /** The partition of the first try; later tries add segments of the same size. */
    static Path partition;
    static int segments;

    /** 4 MiB segments of 1-message batches with 4 KiB payloads (the salvage reads, copies and indexes each one). */
    static final PartitionWriter.Config CONFIG = PartitionWriter.Config.of(1).segmentSize(4L << 20)
            .messagesRequiredToSave(1).trackLayout(false);

    @BeforeAll
    static void write() {
        partition = Partitions.partitionDir(root, "node", 1);
        grow(8);
    }

    /** Makes the partition {@code n} segments long (32 MiB for the first 8), each segment 1024 batches. */
    static void grow(int n) {
        if (n <= segments) {
            return;
        }
        // the writer starts a partition afresh; a larger one is written whole
        deleteTree(partition);
        PartitionWriter.fill(partition, CONFIG, n * 1000, 1, 4096, 11);
        segments = n;
    }

    @Test
    void salvage_sigint_and_sigterm_removeTheTemporaryDirectory_sayOneLine() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path out = root.resolve("salvaged-" + signal);
            String tmpPrefix = "." + out.getFileName() + ".segtool-salvage-tmp.";
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith(tmpPrefix), out.getParent(),
                    () -> deleteTree(out), "salvage", partition, "-o", out, "--format", "ndjson");
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            assertEquals("segtool: salvage interrupted: " + out + " was not created; nothing else changed\n", r.err,
                    r.toString());
            assertFalse(Files.exists(out), out + " exists");
            assertEquals(List.of(), leftovers(out.getParent(), tmpPrefix), "temporary directories left");
        }
    }

    @Test
    void pack_sigint_and_sigterm_removeTheTemporaryFile_leaveAnExistingOutAlone() throws Exception {
        for (String signal : new String[] {"INT", "TERM"}) {
            Path dir = Files.createDirectories(root.resolve("pack-" + signal));
            Path out = dir.resolve("dump.tar");
            String tmpPrefix = ".dump.tar.";
            Run r = interrupt(signal, p -> p.getFileName().toString().startsWith(tmpPrefix), dir,
                    () -> write(out, "the operator's earlier dump"), "pack", root.resolve("node"), "-o", out);
            assertEquals(signal.equals("INT") ? 130 : 143, r.exit, r.toString());
            assertEquals("segtool: pack interrupted: " + out + " was not written (a file that was there is "
                    + "unchanged); nothing else changed\n", r.err, r.toString());
            assertEquals("the operator's earlier dump", Files.readString(out));
            assertEquals(List.of(), leftovers(dir, tmpPrefix), "temporary files left");
        }
    }

    /** The outcome of one interrupted child. */
    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /**
     * Starts segtool with {@code args}, waits until an entry of {@code dir} matches {@code writing} (the command has
     * started writing), sends SIGINT or SIGTERM, and returns how it ended. A run that ended on its own first is tried
     * again on a larger partition; {@code before} sets the scene for each try.
     */
    static Run interrupt(String signal, Predicate<Path> writing, Path dir, Runnable before, Object... args)
            throws Exception {
        for (int attempt = 0; attempt < 4; attempt++) {
            before.run();
            Run r = once(signal, writing, dir, args);
            if (r != null) {
                return r;
            }
            grow(segments * 2);
        }
        fail("segtool " + args[0] + " always finished before the signal reached it");
        return null;
    }

    /** One try; null when the command finished before it could be interrupted. */
    private static Run once(String signal, Predicate<Path> writing, Path dir, Object... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        for (Object a : args) {
            cmd.add(String.valueOf(a));
        }
        Path out = Files.createTempFile(root, "child", ".out");
        Path err = Files.createTempFile(root, "child", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            boolean seen = false;
            while (!seen && p.isAlive() && System.nanoTime() < deadline) {
                try (Stream<Path> s = Files.list(dir)) {
                    seen = s.anyMatch(writing);
                }
                if (!seen) {
                    Thread.sleep(2);
                }
            }
            if (!seen && p.isAlive()) {
                fail("segtool " + args[0] + " did not start writing within 120 s");
            }
            if (seen) {
                Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start();
                assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal);
            }
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "segtool " + args[0] + " did not stop within 120 s");
            Run r = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            if (r.exit == 0 || r.exit == 1) {
                // finished before the signal arrived: undo its output and try a larger input
                System.out.println("signals: " + args[0] + " finished before SIG" + signal + " reached it on "
                        + segments + " segments; trying a larger partition");
                return null;
            }
            return r;
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static List<Path> leftovers(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
        }
    }

    static void write(Path p, String text) {
        try {
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
