package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The launcher's training run covers every command and never one that writes (issue 15). */
class TrainTest {
    static final Path GALLERY = Path.of("../samples/gallery");
    static final Set<String> WRITERS = Set.of("salvage", "pack", "collect", "plan", "apply", "restore", "shell");

    @Test
    void everyCommandsHelpIsTrained() {
        Set<String> helped = new TreeSet<>();
        for (String[] line : Train.lines(null)) {
            if (line.length == 2 && line[1].equals("--help")) {
                helped.add(line[0]);
            }
        }
        assertEquals(new TreeSet<>(List.of(Segtool.NAMES)), helped);
    }

    @Test
    void onTheSamplesEveryReadOnlyCommandRunsAndNoWriterDoes() {
        Set<String> ran = new TreeSet<>();
        for (String[] line : Train.lines(GALLERY)) {
            boolean help = List.of(line).contains("--help");
            assertFalse(List.of(line).contains("--apply") || List.of(line).contains("-y"), String.join(" ", line));
            assertTrue(help || !WRITERS.contains(line[0]), "trains a writer: " + String.join(" ", line));
            if (!help && List.of(line).stream().anyMatch(a -> a.contains("gallery"))) {
                ran.add(line[0]);
            }
        }
        assertEquals(new TreeSet<>(List.of("scan", "explain", "segments", "index", "batches", "messages", "stats", "find",
                "hexdump", "doctor", "repair", "rebuild-index", "compare")), ran);
    }

    @Test
    void theRunItselfCompletesOnTheSamples() {
        // what the launcher runs once per build, minus the System.exit: every line parses and runs without throwing
        for (String[] line : Train.lines(GALLERY)) {
            Cli.Result r = Cli.run((Object[]) line);
            assertTrue(Set.of(ExitCodes.CLEAN, ExitCodes.CHANGES, ExitCodes.REFUSED, ExitCodes.IO_ERROR, ExitCodes.USAGE)
                    .contains(r.exit()), String.join(" ", line) + "\n" + r);
            assertFalse(r.err().contains("Exception"), String.join(" ", line) + "\n" + r);
        }
    }
}
