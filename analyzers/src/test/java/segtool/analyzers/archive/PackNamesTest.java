package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File names that are not UTF-8 (Linux names are bytes). Java hands such a name to code already decoded, with U+FFFD
 * for each byte it cannot decode, so {@code ff.log} and {@code fe.log} used to become one archive name: the dump held
 * two entries of one name, which its own reader then refused as a duplicate. The files here are made by the shell
 * with the real bytes; where the file system refuses such names the test is skipped, saying so.
 */
class PackNamesTest {
    @TempDir
    Path tmp;

    /** Creates {@code dir/<name>} holding {@code content}; {@code name} is a printf(1) format ("\\377.log"). */
    static void createRaw(Path dir, String name, String content) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "cd \"$1\" && n=$(printf \"$2\") && case \"$3\" in "
                + "/) mkdir \"$n\" ;; *) printf '%s' \"$3\" > \"$n\" ;; esac", "sh", dir.toString(), name, content)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0,
                "this file system (or shell) cannot create a file named by the bytes " + name + ": " + out);
    }

    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(f)) {
                    m.put(root.relativize(f).toString(), Files.readString(f));
                }
            }
        }
        return m;
    }

    @Test
    void namesThatDifferOnlyInInvalidBytes_stayTwoEntries_escapedAndListedWithTheirBytes() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("node"));
        createRaw(src, "\\377.log", "ff");
        createRaw(src, "\\376.log", "fe");
        createRaw(src, "%%FF.log", "literal");        // the escape of ff.log, as a real name: it keeps it
        createRaw(src, "\\303\\251.log", "e-acute");  // UTF-8: its own name
        createRaw(src, "a\\\\b", "backslash");         // the reader refuses a backslash: escaped too
        createRaw(src, "\\375", "/");
        createRaw(src, "\\375/x", "in a directory");
        try (Stream<Path> list = Files.list(src)) {
            Assumptions.assumeTrue(list.count() == 6, "the file system merged names that differ in their bytes");
        }
        Path out = tmp.resolve("dump.tar");
        DumpWriter.PackResult packed = DumpWriter.pack(src, out);

        Map<String, String> expected = new TreeMap<>(Map.of("%FF.log", "literal", "%FF.log~1", "ff", "%FE.log", "fe",
                "é.log", "e-acute", "a%5Cb", "backslash", "%FD/x", "in a directory"));
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, Files.createDirectories(tmp.resolve("x")))) {
            assertEquals(expected, tree(dump.root()));
            assertInstanceOf(ManifestStatus.Verified.class, dump.manifestStatus(), dump.manifestStatus()::toString);
            Manifest m = dump.manifest().orElseThrow();
            String root = EntryNames.hex("node".getBytes(StandardCharsets.US_ASCII));
            assertEquals(List.of(new Manifest.Escaped("node/%FD", root + "2ffd"),
                    new Manifest.Escaped("node/%FE.log", root + "2ffe2e6c6f67"),
                    new Manifest.Escaped("node/%FF.log~1", root + "2fff2e6c6f67"),
                    new Manifest.Escaped("node/a%5Cb", root + "2f615c62")), m.escaped());
            assertEquals(packed.manifest().escaped(), m.escaped());
            assertEquals(6, m.files().size());
        }
    }

    @Test
    void aSourceWhoseOwnNameIsNotUtf8_isEscapedToo() throws Exception {
        createRaw(tmp, "\\377\\376", "/");
        Path src;
        try (Stream<Path> list = Files.list(tmp)) {
            src = list.findFirst().orElseThrow();
        }
        Files.writeString(src.resolve("a"), "x");
        Path out = tmp.resolve("d.tar");
        Manifest m = DumpWriter.pack(src, out).manifest();
        assertEquals("%FF%FE", m.root());
        assertTrue(m.source().endsWith("/%FF%FE"), m.source());
        assertEquals(List.of(new Manifest.Escaped("%FF%FE", "fffe")), m.escaped());
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, Files.createDirectories(tmp.resolve("x")))) {
            assertEquals(Map.of("a", "x"), tree(dump.root()));
            assertEquals("%FF%FE", dump.root().getFileName().toString());
        }
    }

    @Test
    void escaping_isInjective_andLeavesUtf8Alone() {
        assertEquals("%25%FF", EntryNames.name(new byte[] {'%', (byte) 0xff}).text());
        assertEquals("%FF%25", EntryNames.name(new byte[] {(byte) 0xff, '%'}).text());
        assertEquals("50%", EntryNames.name("50%".getBytes(StandardCharsets.UTF_8)).text());
        // a truncated sequence: each of its bytes escaped, the valid text after it kept
        assertEquals("%E2%82x", EntryNames.name(new byte[] {(byte) 0xe2, (byte) 0x82, 'x'}).text());
        assertEquals("€", EntryNames.name(new byte[] {(byte) 0xe2, (byte) 0x82, (byte) 0xac}).text());
    }
}
