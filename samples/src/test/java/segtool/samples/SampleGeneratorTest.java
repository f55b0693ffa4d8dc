package segtool.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleGeneratorTest {
    @TempDir
    Path out;

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    private int run(String... args) throws IOException {
        return SampleGenerator.run(args, new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @Test
    void shapes_coverEveryRecoveryOutcomeWithUniqueNamesAndOneLineDescriptions() {
        List<SampleGenerator.Shape> shapes = SampleGenerator.shapes();
        Set<String> names = new HashSet<>();
        for (SampleGenerator.Shape s : shapes) {
            assertTrue(names.add(s.name()), "duplicate " + s.name());
            assertFalse(s.description().isBlank() || s.description().contains("\n"), s.name());
        }
        assertTrue(names.containsAll(List.of("healthy", "torn-tail", "index-past-end-stepback-1",
                "index-past-end-stepback-2", "index-rebuilt", "recovered-empty", "interior-damage",
                "unverified-residue", "offset-discontinuity", "foreign-batch", "fsynced-log-loss",
                "fsynced-rebuild-shortfall", "hole", "anchored-gap", "empty-non-tail-segment", "non-canonical-names",
                "data-dir")), names.toString());
    }

    @Test
    void generate_writesOnlyTheNamedShapesWithTheirExpectedJson() throws IOException {
        SampleGenerator.generate(out, Set.of("healthy"));
        Path partition = out.resolve("healthy").resolve(Gallery.PARTITION_1);
        assertTrue(Files.isRegularFile(partition.resolve("00000000000000000000.log")));
        String json = Files.readString(out.resolve("healthy").resolve(SampleGenerator.EXPECTED_JSON));
        assertTrue(json.startsWith("{\n  \"shape\": \"healthy\",\n"), json);
        assertFalse(Files.exists(out.resolve("torn-tail")));
    }

    @Test
    void generate_replacesAnEarlierCopy() throws IOException {
        Path stale = out.resolve("healthy/stale.txt");
        Files.createDirectories(stale.getParent());
        Files.writeString(stale, "left over");
        SampleGenerator.generate(out, Set.of("healthy"));
        assertFalse(Files.exists(stale));
    }

    @Test
    void generate_unknownShape_throwsAndWritesNothing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SampleGenerator.generate(out, Set.of("healthy", "no-such-shape")));
        assertTrue(e.getMessage().contains("no-such-shape"), e.getMessage());
        assertFalse(Files.exists(out.resolve("healthy")));
    }

    @Test
    void main_withShapeOptions_writesThoseShapes() throws IOException {
        assertEquals(0, run(out.toString(), "--shape", "hole", "--shape=torn-tail"));
        assertTrue(Files.isDirectory(out.resolve("hole")));
        assertTrue(Files.isDirectory(out.resolve("torn-tail")));
        assertFalse(Files.exists(out.resolve("healthy")));
    }

    @Test
    void main_badArguments_exitTwoWithOneLineError() throws IOException {
        assertEquals(2, run());
        assertTrue(stderr.toString(StandardCharsets.UTF_8).startsWith("samples: missing OUT directory"));
        stderr.reset();
        assertEquals(2, run(out.toString(), "--shape", "nope"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).startsWith("samples: unknown shape(s) [nope]"));
        assertEquals(0, run("--help"));
        assertTrue(stdout.toString(StandardCharsets.UTF_8).contains("usage: SampleGenerator OUT"));
    }

    @Test
    void readmeTable_listsEveryShape() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("basedir", "")).toAbsolutePath()
                .resolve("README.md"));
        for (SampleGenerator.Shape s : SampleGenerator.shapes()) {
            assertTrue(readme.contains("| `" + s.name() + "` |"), "README.md has no row for " + s.name());
        }
    }
}
