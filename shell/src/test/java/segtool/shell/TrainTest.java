package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's training run covers every command and writes only into its scratch directory (issue 15). */
class TrainTest {
    static final Path GALLERY = Path.of("../samples/gallery");
    static final Set<String> WRITERS = Set.of("salvage", "pack", "collect", "plan");

    @TempDir
    Path scratch;

    static String text(String[] line) {
        return String.join(" ", line);
    }

    @Test
    void everyCommandsHelpIsTrained() {
        Set<String> helped = new TreeSet<>();
        for (String[] line : Train.lines(null, null)) {
            if (line.length == 2 && line[1].equals("--help")) {
                helped.add(line[0]);
            }
        }
        assertEquals(new TreeSet<>(List.of(Segtool.NAMES)), helped);
    }

    @Test
    void onTheSamplesEveryCommandButTheShellAndTheMutatorsRuns() {
        Set<String> ran = new TreeSet<>();
        for (String[] line : Train.lines(GALLERY, scratch)) {
            List<String> args = List.of(line);
            assertFalse(args.contains("--apply") || args.contains("-y") || args.contains("--yes"), text(line));
            if (WRITERS.contains(line[0]) && !args.contains("--help")) {
                String out = line[args.indexOf("-o") + 1];
                assertTrue(Path.of(out).startsWith(scratch), "writes outside the scratch dir: " + text(line));
            }
            if (!args.contains("--help") && args.stream().anyMatch(a -> a.contains("gallery") || a.startsWith(
                    scratch.toString()))) {
                ran.add(line[0]);
            }
        }
        assertEquals(new TreeSet<>(List.of("scan", "explain", "segments", "index", "batches", "messages", "stats", "find",
                "hexdump", "doctor", "repair", "rebuild-index", "compare", "salvage", "pack", "collect", "plan")), ran);
        for (String[] line : Train.lines(GALLERY, null)) {
            assertTrue(List.of(line).contains("--help") || !WRITERS.contains(line[0]), "no scratch, yet " + text(line));
        }
    }

    /** Every file under {@code dir} with its size and modification time. */
    static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                m.put(dir.relativize(p).toString(), Files.size(p) + " " + Files.getLastModifiedTime(p));
            }
        }
        return m;
    }

    @Test
    void theRunCompletesAndLeavesTheSamplesAsTheyWere() throws IOException {
        // what the launcher runs once per build, minus the System.exit: every line parses and runs without throwing
        Map<String, String> before = listing(GALLERY);
        Set<Integer> documented = Set.of(ExitCodes.CLEAN, ExitCodes.CHANGES, ExitCodes.REFUSED, ExitCodes.IO_ERROR,
                ExitCodes.USAGE);
        for (String[] line : Train.lines(GALLERY, scratch)) {
            Cli.Result r = Cli.run((Object[]) line);
            assertTrue(documented.contains(r.exit()), text(line) + "\n" + r);
            assertFalse(r.err().contains("Exception"), text(line) + "\n" + r);
        }
        assertEquals(before, listing(GALLERY));
        assertTrue(Files.isRegularFile(scratch.resolve("plan.json")), "the plan over both manifests was written");
        assertTrue(Files.isRegularFile(scratch.resolve("torn-tail.tar.lz4")));
    }

    /**
     * The classes a JVM running {@code main} with {@code args} loads, by name, from {@code -Xlog:class+load}; classes
     * the JVM generates as it runs (lambda proxies, lambda forms, hidden classes) are left out: their names are made
     * per run and no Java 17 archive holds them.
     */
    static Set<String> loaded(Path dir, String main, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "classes", ".log");
        Proc.java(Map.of(), List.of("-Xlog:class+load=info:file=" + log, "-Djava.io.tmpdir=" + dir), main,
                (Object[]) args);
        Set<String> names = new TreeSet<>();
        for (String line : Files.readAllLines(log)) {
            // [0.012s][info][class,load] java.lang.Object source: shared objects file
            int at = line.indexOf("] ");
            int end = line.indexOf(" source: ");
            if (at < 0 || end < at) {
                continue;
            }
            String name = line.substring(at + 2, end);
            if (!name.contains("$$Lambda") && !name.contains("LambdaForm$") && !name.contains("/0x")) {
                names.add(name);
            }
        }
        assertFalse(names.isEmpty(), "no class-load log from " + main + " " + String.join(" ", args));
        return names;
    }

    @Test
    void theTrainingLoadsEveryClassAOneShotCommandLoads(@TempDir Path dir) throws Exception {
        // A class the training does not load is not in the start-up cache: every run reads it from the jar, and the
        // first such class opens and indexes the whole jar (the signal handlers' classes once were: 15-20 ms a run).
        Set<String> trained = loaded(dir, Train.class.getName(), GALLERY.toString(), scratch.toString());
        String healthy = GALLERY.resolve("healthy").toString();
        for (String[] line : List.of(new String[] {"--version"}, new String[] {"scan", "--quiet", healthy},
                new String[] {"explain", healthy}, new String[] {"segments", healthy})) {
            Set<String> missing = loaded(dir, Main.class.getName(), line);
            missing.removeAll(trained);
            assertEquals(Set.of(), missing, "loaded by `segtool " + text(line) + "` but not by the training");
        }
    }
}
