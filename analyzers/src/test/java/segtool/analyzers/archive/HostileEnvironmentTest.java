package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Item 5 of issue 16 for crash dumps: extraction directories a killed run left are removed by the next run (only
 * once their owner PID is gone), and temporary files go where {@code TMPDIR} says.
 */
class HostileEnvironmentTest {
    @TempDir
    Path tmp;

    private Path archive() throws IOException {
        return Files.write(tmp.resolve("dump.tar"), new Fixtures.TarBuilder().dir("1")
                .file("1/00000000000000000000.log", "not a log").bytes());
    }

    /** A child JVM holding a dump open; returns it and the lines it printed before holding. */
    private static Process child(List<String> lines, java.util.Map<String, String> env, String... args)
            throws IOException {
        return child(DumpHoldChild.class, 2, lines, env, args);
    }

    private static Process child(Class<?> main, int want, List<String> lines, java.util.Map<String, String> env,
                                 String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; lines.size() < want && (line = out.readLine()) != null; ) {
            lines.add(line);
        }
        return p;
    }

    @Test
    void extractionLeftByAKilledRun_isRemovedByTheNextRun_onlyOnceItsOwnerIsGone() throws Exception {
        Path parent = Files.createDirectories(tmp.resolve("t"));
        List<String> lines = new ArrayList<>();
        Process holder = child(lines, java.util.Map.of(), archive().toString(), parent.toString());
        assertTrue(lines.get(0).startsWith("OPEN "), () -> String.valueOf(lines));
        Path left = Path.of(lines.get(0).substring(5));
        assertTrue(left.getFileName().toString().startsWith(TempTree.PREFIX + holder.pid() + "-"), left.toString());

        // While the owner runs, another run leaves its extraction alone.
        DumpReader.open(archive(), Limits.DEFAULT, parent).close();
        assertTrue(Files.isDirectory(left), "a live run's extraction was removed");

        holder.destroyForcibly();
        assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        assertTrue(Files.isDirectory(left), "SIGKILL runs no shutdown hook: the extraction stays behind");
        Path stranger = Files.createDirectories(parent.resolve("segtool-dump-unrelated"));
        Path link = Files.createSymbolicLink(parent.resolve(TempTree.PREFIX + holder.pid() + "-link"), stranger);

        DumpReader.open(archive(), Limits.DEFAULT, parent).close();
        assertFalse(Files.exists(left), "the next run removes what the killed run left");
        assertTrue(Files.isDirectory(stranger), "a directory without an owner PID is not touched");
        assertTrue(Files.isSymbolicLink(link), "a link named like an extraction is not followed or removed");
    }

    @Test
    void ownerPid_isReadOnlyFromTheExtractionName() {
        assertEquals(4242, TempTree.ownerPid("segtool-dump-4242-123456789"));
        assertEquals(-1, TempTree.ownerPid("segtool-dump-123456789"));
        assertEquals(-1, TempTree.ownerPid("segtool-dump-x1-2"));
        assertEquals(-1, TempTree.ownerPid("other-4242-1"));
    }

    @Test
    void dumpsAreExtractedUnderTmpdir() throws Exception {
        Path custom = Files.createDirectories(tmp.resolve("custom-tmp"));
        List<String> lines = new ArrayList<>();
        Process p = child(lines, java.util.Map.of("TMPDIR", custom.toString()), archive().toString(), "-", "exit");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), () -> String.valueOf(lines));
        assertTrue(Path.of(lines.get(0).substring(5)).startsWith(custom), () -> "extracted outside TMPDIR: " + lines);
        assertEquals("TMP " + custom, lines.get(1));
    }

    @Test
    void missingTmpdir_isOneLineNamingItAndTheReason() throws IOException {
        Path missing = tmp.resolve("no-such-dir");
        DumpException e = assertThrows(DumpException.class,
                () -> DumpReader.open(archive(), Limits.DEFAULT, missing));
        String line = e.getMessage();
        assertFalse(line.contains("\n"), line);
        assertTrue(line.contains("cannot create a private extraction directory under " + missing)
                && line.endsWith("no such directory"), line);
    }

    /** The verifier's checksum spill (records of more than 131,072 frames) is made under TMPDIR too. */
    @Test
    void checksumSpillGoesUnderTmpdir() throws Exception {
        Path custom = Files.createDirectories(tmp.resolve("spill-tmp"));
        List<String> ok = new ArrayList<>();
        Process p = child(SpillChild.class, 1, ok, java.util.Map.of("TMPDIR", custom.toString()));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(List.of("VERIFIED null"), ok);

        Path missing = tmp.resolve("gone");
        List<String> failed = new ArrayList<>();
        p = child(SpillChild.class, 1, failed, java.util.Map.of("TMPDIR", missing.toString()));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(List.of("FAILED cannot create a checksum spill file under " + missing
                + " (TMPDIR): no such directory"), failed);
    }
}
