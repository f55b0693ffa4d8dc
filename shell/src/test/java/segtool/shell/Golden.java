package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden text files under {@code src/test/resources/golden}. A run with {@code -Dsegtool.golden.update=true} writes
 * the actual output instead of comparing; review the diff before committing it.
 */
final class Golden {
    static final Path DIR = Path.of("src/test/resources/golden");

    private Golden() {
    }

    static void check(String name, String actual) throws IOException {
        Path file = DIR.resolve(name + ".txt");
        if (Boolean.getBoolean("segtool.golden.update")) {
            Files.createDirectories(DIR);
            Files.writeString(file, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(file)) {
            throw new AssertionError("no golden file " + file + "; run with -Dsegtool.golden.update=true, review it,"
                    + " commit it. Actual output:\n" + actual);
        }
        assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual, "golden " + file
                + " (rerun with -Dsegtool.golden.update=true to accept a deliberate change)");
    }
}
