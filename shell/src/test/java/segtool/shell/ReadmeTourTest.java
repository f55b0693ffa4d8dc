package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README holds for a clean clone (issue 14.15): every file it names is in the repository, the tour writes only
 * inside the checkout, and each tour line runs, in order, with an exit code that is not an error.
 */
class ReadmeTourTest {
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    static String readme() throws Exception {
        return Files.readString(REPO.resolve("README.md"), StandardCharsets.UTF_8);
    }

    static List<String> tour(String readme) {
        int at = readme.indexOf("## A short tour");
        int open = readme.indexOf("```\n", at) + 4;
        int close = readme.indexOf("```", open);
        List<String> lines = new ArrayList<>();
        for (String l : readme.substring(open, close).split("\n")) {
            if (!l.isBlank()) {
                lines.add(l);
            }
        }
        return lines;
    }

    @Test
    void everyRepositoryPathItNames_exists() throws Exception {
        Matcher m = Pattern.compile("`((?:docs|man|completion|bench|fleet|samples)/[A-Za-z0-9_./-]*)`")
                .matcher(readme());
        int n = 0;
        while (m.find()) {
            String p = m.group(1).replaceAll("/\\.\\.\\.$", "");
            if (p.contains("<") || p.contains("*")) {
                continue;
            }
            assertTrue(Files.exists(REPO.resolve(p)), "README names " + p + ", not in the repository");
            n++;
        }
        assertTrue(n >= 5, "found " + n);
        assertFalse(readme().contains("../shared/spec"), "the spec is not in a clean clone");
    }

    @Test
    void theTour_writesOnlyInsideTheCheckout() throws Exception {
        for (String line : tour(readme())) {
            assertFalse(line.matches(".*(\\s|=)/(tmp|var)/.*"), line);
        }
    }

    @Test
    void theTour_runsInOrder_andNoLineFails(@TempDir Path clone) throws Exception {
        // a clean clone's layout: the checked-in samples, segtool run from the classes under test
        Files.createSymbolicLink(clone.resolve("samples"), REPO.resolve("samples"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String fn = "segtool() { '" + java + "' -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path")
                + "' " + Main.class.getName() + " \"$@\" </dev/null; }\n";
        for (String line : tour(readme())) {
            String command = line.replaceAll("\\s+#.*$", "").replace("./segtool", "segtool");
            Process p = new ProcessBuilder("bash", "-c", fn + command).directory(clone.toFile())
                    .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), line);
            int code = p.exitValue();
            // 0 clean, 1 changes/damage, 2 refused, 5 latent damage are answers; 3, 4, 64, 130 or a shell error
            // mean the line is wrong
            assertTrue(code <= 2 || code == ExitCodes.LATENT, "exit " + code + ": " + line + "\n" + out);
            Matcher said = Pattern.compile("\\(exit (\\d+)").matcher(line);
            if (said.find()) {
                assertEquals(Integer.parseInt(said.group(1)), code, line + "\n" + out);
            }
        }
        assertTrue(Files.isDirectory(clone.resolve("tour")), "the tour's scratch space");
        assertTrue(Files.exists(clone.resolve("tour/dump.tar.lz4")));
    }
}
