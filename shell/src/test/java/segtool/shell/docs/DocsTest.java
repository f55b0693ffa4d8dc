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
    /**
     * The bash completion, run in bash: every command that takes a path completes file names there (scan, doctor,
     * repair, rebuild-index, compare and collect took their path as a string, so picocli's generator offered
     * nothing), also after -q (picocli took the counted -q for an option with a value and completed nothing after
     * it), and -q still completes as an option.
     */
    @Test
    void bashCompletion_completesPathsAndCountedFlags(@TempDir Path tmp) throws Exception {
        Path bash = Path.of("/bin/bash");
        if (!Files.isExecutable(bash)) {
            return;
        }
        Files.createDirectories(tmp.resolve("data-dir"));
        String script = REPO.resolve("completion/segtool.bash").toString();
        for (String line : new String[]{"scan d", "scan -q d", "scan -q -q --json d", "doctor d", "repair d",
            "rebuild-index d", "compare d", "collect d", "explain -q d", "segments -q d"}) {
            assertEquals("data-dir", complete(bash, tmp, script, "segtool " + line), line);
        }
        assertTrue(complete(bash, tmp, script, "segtool scan --qu").equals("--quiet"));
        // a value still follows an option that takes one
        assertEquals("persisted", complete(bash, tmp, script, "segtool scan --durability pers"));
    }

    /** What bash's completion offers for the last word of LINE, run in DIR, one candidate per line. */
    private static String complete(Path bash, Path dir, String script, String line) throws Exception {
        String program = "source \"$1\"; read -ra COMP_WORDS <<<\"$2\"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                + "COMP_LINE=\"$2\"; COMP_POINT=${#COMP_LINE}; _complete_segtool; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder(bash.toString(), "-c", program, "complete", script, line)
                // compopt, outside a real completion, complains on stderr and does nothing
                .directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), line);
        return out;
    }
}
