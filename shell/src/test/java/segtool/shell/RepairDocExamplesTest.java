package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
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
 * The example runs in docs/repair.md are what segtool prints. A block whose first line starts with {@code $ } is a
 * session: each {@code $ } line is run in one scratch directory (a {@code segtool} line in-process, with its relative
 * paths taken from there and a {@code *} expanded; any other line by bash), an optional {@code # exit N} is the exit
 * code it must have, and the lines up to the next {@code $ } are its stdout (followed by its stderr when the line
 * ends in {@code 2>&1}), with the scratch directory's path and
 * quarantine times written as {@code <time>}. To regenerate a block, run its lines from a scratch directory holding
 * a link {@code samples} to the checkout's samples/.
 */
class RepairDocExamplesTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EXIT = Pattern.compile("\\s+# exit (\\d+)$");
    private static final Pattern TIME = Pattern.compile("\\d{8}T\\d{6}\\.\\d{3}Z");

    @TempDir
    Path tmp;

    private static List<List<String>> sessions(Path doc) throws IOException {
        List<List<String>> out = new ArrayList<>();
        List<String> block = null;
        for (String line : Files.readAllLines(doc)) {
            if (line.startsWith("```")) {
                if (block != null && !block.isEmpty() && block.get(0).startsWith("$ ")) {
                    out.add(block);
                }
                block = block == null ? new ArrayList<>() : null;
            } else if (block != null) {
                block.add(line);
            }
        }
        return out;
    }

    /** The directory the current session runs in. */
    private Path cwd;

    private String normalize(String out) {
        return TIME.matcher(out.replace(cwd.toString() + "/", "")).replaceAll("<time>");
    }

    /** A segtool line's arguments: a relative path that exists is taken from the session's directory. */
    private String[] args(String line) throws IOException {
        List<String> out = new ArrayList<>();
        for (String a : line.trim().split("\\s+")) {
            Path p = cwd.resolve(a);
            if (a.contains("*")) {
                List<Path> found = new ArrayList<>();
                try (DirectoryStream<Path> s = Files.newDirectoryStream(p.getParent(), p.getFileName().toString())) {
                    s.forEach(found::add);
                }
                assertEquals(1, found.size(), a + ": " + found);
                out.add(found.get(0).toString());
            } else {
                out.add(!a.startsWith("-") && Files.exists(p) ? p.toString() : a);
            }
        }
        return out.toArray(new String[0]);
    }

    private String bash(String line) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", line).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), line);
        assertEquals(0, p.exitValue(), line + ": " + out);
        return out;
    }

    @Test
    void theExampleRunsInRepairMd_areWhatSegtoolPrints() throws Exception {
        Path doc = REPO.resolve("docs/repair.md");
        List<List<String>> sessions = sessions(doc);
        assertFalse(sessions.isEmpty(), "docs/repair.md has example runs");
        int session = 0;
        for (List<String> block : sessions) {
            cwd = Files.createDirectory(tmp.resolve("session-" + session++));
            Files.createSymbolicLink(cwd.resolve("samples"), REPO.resolve("samples"));
            for (int i = 0; i < block.size(); ) {
                String command = block.get(i).substring(2);
                List<String> expected = new ArrayList<>();
                for (i++; i < block.size() && !block.get(i).startsWith("$ "); i++) {
                    expected.add(block.get(i));
                }
                Matcher exit = EXIT.matcher(command);
                Integer code = null;
                if (exit.find()) {
                    code = Integer.parseInt(exit.group(1));
                    command = command.substring(0, exit.start());
                }
                String actual;
                if (command.startsWith("segtool ")) {
                    boolean merged = command.stripTrailing().endsWith(" 2>&1");
                    String line = merged ? command.stripTrailing().substring(0, command.stripTrailing().length() - 5)
                            : command;
                    Cli.Result r = Cli.run((Object[]) args(line.substring("segtool ".length())));
                    if (code != null) {
                        assertEquals(code, r.exit(), command + "\n" + r);
                    }
                    actual = normalize(merged ? r.out() + r.err() : r.out());
                } else {
                    actual = normalize(bash(command));
                }
                assertEquals(String.join("\n", expected), actual.stripTrailing(), "docs/repair.md: $ " + command);
            }
        }
    }
}
