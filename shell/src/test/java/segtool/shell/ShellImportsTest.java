package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shell only asks analyzers and renders: no class under shell/src/main reads segment files through formats'
 * low-level readers (issue 9), and the one-shot entry point and the shell do not import each other.
 */
class ShellImportsTest {
    static final Path MAIN = Path.of("src/main/java");
    static final List<String> FORBIDDEN = List.of("segtool.formats.log.LogCursor", "segtool.formats.io.SegmentChannel",
            "segtool.formats.index.IndexFile");

    static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** A use of {@code type} in {@code text}: an import of it (or of a nested type), or its fully qualified name. */
    static boolean uses(String text, String type) {
        return text.contains("import " + type + ";") || text.contains("import " + type + ".")
                || text.contains("import static " + type + ".") || text.replaceAll("import [^;]+;", "").contains(type);
    }

    @Test
    void noShellClassReadsSegmentsThroughFormatsReaders() throws IOException {
        List<Path> all = sources();
        assertTrue(all.size() > 40, "found the shell's sources: " + all.size());
        List<String> found = new ArrayList<>();
        for (Path p : all) {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            for (String type : FORBIDDEN) {
                if (uses(text, type)) {
                    found.add(MAIN.relativize(p) + " uses " + type);
                }
            }
        }
        assertEquals(List.of(), found, "read segments through segtool.analyzers.inspect instead");
    }

    @Test
    void theScanSeesAnImport() {
        assertTrue(uses("package x;\nimport segtool.formats.log.LogCursor;\nclass A {}", FORBIDDEN.get(0)));
        assertTrue(uses("class A { segtool.formats.index.IndexFile f; }", FORBIDDEN.get(2)));
        assertTrue(!uses("import segtool.formats.index.IndexEntry;", FORBIDDEN.get(2)));
    }

    @Test
    void mainAndReplDoNotImportEachOther() throws IOException {
        String main = Files.readString(MAIN.resolve("segtool/shell/Main.java"), StandardCharsets.UTF_8);
        String repl = Files.readString(MAIN.resolve("segtool/shell/repl/Repl.java"), StandardCharsets.UTF_8);
        assertTrue(!repl.contains("segtool.shell.Main") && !repl.matches("(?s).*\\bMain\\.\\w+\\(.*"), "Repl uses Main");
        assertTrue(main.contains("CommandLines.oneShot(args)"), "Main runs the factory's one-shot tree");
    }
}
