package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.exit.ExitCode;

/**
 * Text output fits the terminal (issue 14.4): segtool run as its own process with stdout redirected and a fixed
 * {@code COLUMNS}, on the checked-in gallery (the README's first command).
 */
class WidthTest {
    static final Path GALLERY = Path.of("..", "samples", "gallery").toAbsolutePath().normalize();

    /** Every line fits, but one naming a path: those are never folded, so they copy whole. */
    static void fits(Cli.Result r, int width) {
        for (String line : r.out().split("\n")) {
            assertTrue(line.length() <= width || line.contains(GALLERY.toString()), "longer than " + width + ": ["
                    + line + "]\n" + r.out());
        }
    }

    @ParameterizedTest(name = "COLUMNS={0}")
    @ValueSource(ints = {80, 120})
    void scanOfTheGallery_fitsTheWidth(int width) throws Exception {
        Cli.Result r = Proc.run(Map.of("COLUMNS", String.valueOf(width)), "scan", GALLERY);
        assertEquals(ExitCode.REFUSED, r.exit(), r.toString());
        fits(r, width);
        String header = r.out().split("\n")[1];
        assertTrue(header.matches("\\| PARTITION +\\| OUTCOME +\\| SEGS \\| VERDICT +\\|"), header);
        assertTrue(r.out().contains("| torn-tail:s1/t1/p1 "), r.out());
        assertTrue(r.out().contains("| hole:s1/t1/p1 "), r.out());
        // the refusal's name always shows; its fields only where they fit in three lines
        assertTrue(r.out().contains("| EmptyNonTailSegment"), r.out());
        assertTrue(r.out().contains("29 partitions: 7 refused, 15 would change files, 6 clean, 1 without a verdict"),
                r.out());
    }

    @ParameterizedTest(name = "COLUMNS={0}")
    @ValueSource(ints = {80, 120})
    void scanOfOnePartition_foldsItsLinesToTheWidth(int width) throws Exception {
        Cli.Result r = Proc.run(Map.of("COLUMNS", String.valueOf(width)), "scan", GALLERY.resolve("torn-tail"));
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        fits(r, width);
        // byte counts carry a unit where the plan keeps room for its longest word; at 80 columns they stay bare
        assertTrue(r.out().contains(width < 120 ? "| SEGMENT | STATUS    | LOG BYTES | KEPT | END | INDEX  | PLAN"
                : "| SEGMENT | STATUS    | LOG BYTES      | KEPT           | END | INDEX  | PLAN"), r.out());
        assertTrue(width < 120 || r.out().contains("| 1245 (1.2 KiB) | 1145 (1.1 KiB) |"), r.out());
        for (String word : new String[]{"stage_index,", "truncate_log,", "install_index"}) {
            assertTrue(r.out().contains(word), "a plan word broken across lines:\n" + r.out());
        }
        assertTrue(r.out().endsWith("s1/t1/p1: accepted: 1 truncated\n"), r.out());
    }

    @org.junit.jupiter.api.Test
    void wideTerminal_showsTheDurabilityColumn() throws Exception {
        Cli.Result r = Proc.run(Map.of("COLUMNS", "220"), "scan", GALLERY);
        fits(r, 220);
        assertTrue(r.out().contains("| DURABILITY "), r.out());
        assertTrue(r.out().contains("| replicated (default) "), r.out());
        assertTrue(r.out().contains("| persisted (metadata) "), r.out());
    }
}
