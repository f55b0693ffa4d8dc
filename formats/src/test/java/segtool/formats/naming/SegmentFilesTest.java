package segtool.formats.naming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written name checks against the patterns they replace, written from F 1.2 and the fence naming: 20
 * decimal digits for a segment stem, {@code <partition>.fenced.<1-3 digits>} for a fence directory.
 */
class SegmentFilesTest {
    private static final Pattern CANONICAL = Pattern.compile("[0-9]{20}");
    private static final Pattern FENCED = Pattern.compile("(.+)\\.fenced\\.([0-9]{1,3})");

    @Test
    void canonicalStems() {
        assertTrue(SegmentFiles.isCanonical("00000000000000000000"));
        assertTrue(SegmentFiles.isCanonical("18446744073709551615"));
        assertFalse(SegmentFiles.isCanonical("0000000000000000000"));    // 19 digits
        assertFalse(SegmentFiles.isCanonical("000000000000000000000"));  // 21
        assertFalse(SegmentFiles.isCanonical("+0000000000000000000"));
        assertFalse(SegmentFiles.isCanonical("0000000000000000000\u0660")); // an Arabic-Indic zero is no [0-9]
        assertFalse(SegmentFiles.isCanonical(""));
    }

    @Test
    void fenceNumbers() {
        assertEquals(1, SegmentFiles.fenceNumber("1.fenced.1"));
        assertEquals(999, SegmentFiles.fenceNumber("7.fenced.999"));
        assertEquals(7, SegmentFiles.fenceNumber("7.fenced.007"));
        assertEquals(2, SegmentFiles.fenceNumber("1.fenced.1.fenced.2"));
        assertEquals(-1, SegmentFiles.fenceNumber(".fenced.1"));          // no partition name
        assertEquals(-1, SegmentFiles.fenceNumber("1.fenced."));          // no number
        assertEquals(-1, SegmentFiles.fenceNumber("1.fenced.1000"));      // four digits
        assertEquals(-1, SegmentFiles.fenceNumber("1.fenced.1a"));
        for (String lineBreak : new String[] {"\n", "\r", "\u0085", "\u2028", "\u2029"}) {
            // '.' of a pattern takes no line break
            assertEquals(-1, SegmentFiles.fenceNumber("1" + lineBreak + ".fenced.1"), lineBreak);
        }
        assertEquals(3, SegmentFiles.fenceNumber("1\u000b\t.fenced.3"));   // other control characters it takes
        assertEquals(-1, SegmentFiles.fenceNumber("1"));
    }

    @Property(tries = 3000)
    void canonicalAsThePattern(@ForAll("stems") String stem) {
        assertEquals(CANONICAL.matcher(stem).matches(), SegmentFiles.isCanonical(stem), stem);
    }

    @Property(tries = 3000)
    void fenceNumberAsThePattern(@ForAll("fenceNames") String name) {
        Matcher m = FENCED.matcher(name);
        assertEquals(m.matches() ? Integer.parseInt(m.group(2)) : -1, SegmentFiles.fenceNumber(name), name);
    }

    @Provide
    Arbitrary<String> stems() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789").ofMinLength(18).ofMaxLength(22),
                Arbitraries.strings().withChars("0123456789+-a \u0660").ofMinLength(19).ofMaxLength(21),
                Arbitraries.strings().ofMaxLength(24));
    }

    @Provide
    Arbitrary<String> fenceNames() {
        Arbitrary<String> parts = Arbitraries.of("1", "12", ".fenced.", ".fenced", "fenced.", ".", "0", "007", "1000",
                "a", "\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "", "x.y", "9");
        return Arbitraries.oneOf(parts.list().ofMaxSize(6).map(l -> String.join("", l)), Arbitraries.strings()
                .withChars("1.fencd\n").ofMaxLength(20));
    }

    @Test
    void filtersSelectWhatTheGlobsSelected(@TempDir Path dir) throws IOException {
        for (String n : List.of("00000000000000000000.log", "00000000000000000000.index", ".log", "a.log.staging",
                "x.index.staging", "log", "y.LOG", "z.logs", "prepares-5", "prepares", "1.pid", "pid", "b.index")) {
            Files.createFile(dir.resolve(n));
        }
        assertEquals(list(dir, "*.{log,index}"), list(dir, SegmentFiles.endingIn(".log", ".index")));
        assertEquals(list(dir, "*.log"), list(dir, SegmentFiles.endingIn(".log")));
        assertEquals(list(dir, "*.pid"), list(dir, SegmentFiles.endingIn(".pid")));
        assertEquals(list(dir, "prepares-*"), list(dir, SegmentFiles.startingWith("prepares-")));
        assertEquals(List.of(".log", "00000000000000000000.index", "00000000000000000000.log", "b.index"),
                list(dir, SegmentFiles.endingIn(".log", ".index")));
    }

    private static List<String> list(Path dir, String glob) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
            return names(s);
        }
    }

    private static List<String> list(Path dir, DirectoryStream.Filter<Path> filter) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, filter)) {
            return names(s);
        }
    }

    private static List<String> names(DirectoryStream<Path> s) {
        List<String> out = new ArrayList<>();
        s.forEach(p -> out.add(p.getFileName().toString()));
        out.sort(null);
        return out;
    }
}
