package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.archive.DumpReader;
import segtool.analyzers.archive.Limits;
import segtool.analyzers.archive.ManifestStatus;
import segtool.analyzers.archive.OpenedDump;

/**
 * {@code segtool pack} takes names from their bytes, whatever the locale: under {@code LC_ALL=C} Java decodes file
 * names as ASCII and gives U+FFFD for every other byte, so {@code é.log} (c3 a9) became "??.log", and
 * {@code ff.log} and {@code fe.log} became one name. Real files, made by the shell; skipped where the file system
 * cannot hold such names.
 */
class PackNamesCliTest {
    @TempDir
    Path tmp;

    private static void createRaw(Path dir, String name, String content) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "cd \"$1\" && printf '%s' \"$3\" > \"$(printf \"$2\")\"",
                "sh", dir.toString(), name, content).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0,
                "cannot create a file named by the bytes " + name + " here: " + out);
    }

    @Test
    void underTheCLocale_utf8AndInvalidNames_packAsTheirBytes() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("p"));
        createRaw(src, "\\303\\251.log", "e-acute");
        createRaw(src, "\\377.log", "ff");
        createRaw(src, "\\376.log", "fe");
        try (Stream<Path> list = Files.list(src)) {
            Assumptions.assumeTrue(list.count() == 3, "the file system merged names that differ in their bytes");
        }
        Path out = tmp.resolve("d.tar.lz4");
        Cli.Result r = Proc.run(Map.of("LC_ALL", "C", "LANG", "C"), "pack", src, "-o", out, "--json");
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.err().isEmpty(), r::toString);
        Map<String, String> found = new TreeMap<>();
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, Files.createDirectories(tmp.resolve("x")))) {
            assertEquals(ManifestStatus.State.VERIFIED, dump.manifestStatus().state());
            try (Stream<Path> list = Files.list(dump.root())) {
                for (Path f : (Iterable<Path>) list::iterator) {
                    found.put(f.getFileName().toString(), Files.readString(f));
                }
            }
        }
        assertEquals(Map.of("é.log", "e-acute", "%FF.log", "ff", "%FE.log", "fe"), found);
    }

    /** A directory with no file below it (empty, or empty directories only) is refused, and no dump is written. */
    @Test
    void aDirectoryHoldingNoFile_isRefused_andNothingIsWritten() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path hollow = Files.createDirectories(tmp.resolve("hollow/streams/1/topics/1/partitions/1")).getParent()
                .getParent().getParent().getParent().getParent();
        for (Path src : new Path[] {empty, hollow}) {
            Path out = tmp.resolve(src.getFileName() + ".tar.lz4");
            Cli.Result r = Cli.run("pack", src, "-o", out);
            assertEquals(64, r.exit(), r::toString);
            assertEquals("segtool: " + src + ": holds no files; nothing to pack", r.err().strip(), r::toString);
            assertTrue(Files.notExists(out), out + " was not written");
        }
    }
}
