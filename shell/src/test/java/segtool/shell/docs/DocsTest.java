package segtool.shell.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checked-in man pages and completion scripts are what the picocli model generates today. */
class DocsTest {
    /** The repository root, seen from the shell module (surefire's working directory). */
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void checkedInDocs_areNotStale(@TempDir Path tmp) throws IOException {
        Docs.main(new String[]{tmp.toString()});
        Map<String, String> generated = Docs.generate();
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> e : generated.entrySet()) {
            Path checkedIn = REPO.resolve(e.getKey());
            if (!Files.exists(checkedIn)
                    || !Files.readString(checkedIn, StandardCharsets.UTF_8).equals(e.getValue())) {
                stale.add(e.getKey());
            }
            assertEquals(e.getValue(), Files.readString(tmp.resolve(e.getKey()), StandardCharsets.UTF_8));
        }
        for (String dir : new String[]{"man", "completion"}) {
            try (Stream<Path> files = Files.list(REPO.resolve(dir))) {
                files.map(p -> dir + "/" + p.getFileName()).filter(n -> !generated.containsKey(n))
                        .forEach(n -> stale.add(n + " (no longer generated)"));
            }
        }
        assertTrue(stale.isEmpty(), "stale generated docs: " + stale + "; regenerate from the repository root with: "
                + Docs.REGENERATE);
    }

    @Test
    void everyCommandHasAPageWithExitStatus() {
        Map<String, String> docs = Docs.generate();
        for (String c : new String[]{"scan", "explain", "segments", "index", "batches", "messages", "find",
            "hexdump", "stats", "shell"}) {
            String page = docs.get("man/segtool-" + c + ".1");
            assertTrue(page != null, c);
            assertTrue(page.contains(".SH EXIT STATUS"), c);
            assertTrue(page.contains(".SH SYNOPSIS") && page.contains(".SH OPTIONS"), c);
        }
        assertTrue(docs.get("man/segtool.1").contains(".SH SHELL"));
        assertTrue(docs.get("completion/segtool.bash").contains("complete -F _complete_segtool"));
        assertTrue(docs.get("completion/segtool.zsh").contains("bashcompinit"));
    }

    @Test
    void manRendersThePage() throws Exception {
        Path man = Path.of("/usr/bin/man");
        if (!Files.isExecutable(man)) {
            return;
        }
        Process p = new ProcessBuilder(man.toString(), "-l", REPO.resolve("man/segtool.1").toString())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertTrue(text.contains("segtool - inspect, judge and repair"), text);
        assertTrue(text.contains("EXIT STATUS"), text);
    }
}
