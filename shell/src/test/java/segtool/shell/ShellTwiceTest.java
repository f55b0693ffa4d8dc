package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.shell.repl.Repl;

/**
 * Every command is safe to run any number of times in one shell session: run twice in a row, on healthy and on
 * damaged partitions, a command prints the same and exits the same (the prompt shows the exit code).
 */
class ShellTwiceTest {
    @TempDir
    static Path root;

    static Partitions healthy;
    static Partitions interior;
    static Partitions torn;
    static Partitions huge;
    static Partitions messages;

    @BeforeAll
    static void build() throws IOException {
        healthy = Partitions.healthy(root, "healthy");
        interior = Partitions.interior(root);
        torn = Partitions.tornTail(root);
        huge = Partitions.hugeLength(root);
        messages = Partitions.messages(root);
    }

    /** One command's echo, output and the exit code the next prompt shows. */
    record Step(String line, String output, int exit) {
    }

    /** Runs {@code lines} in one fresh shell; returns what each line printed and its exit code. */
    static List<Step> session(String... lines) throws Exception {
        PipedOutputStream typing = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(typing, 1 << 16);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = TerminalBuilder.builder().system(false).dumb(true).type(Terminal.TYPE_DUMB)
                .streams(in, out).provider("exec").encoding(StandardCharsets.UTF_8).build();
             Repl repl = new Repl(t, null)) {
            AtomicInteger exit = new AtomicInteger(-1);
            Thread shell = new Thread(() -> exit.set(repl.run(null)));
            shell.start();
            List<String> all = new ArrayList<>(List.of(lines));
            all.add("exit");
            typing.write((String.join("\n", all) + "\n").getBytes(StandardCharsets.UTF_8));
            typing.flush();
            shell.join(60_000);
            assertFalse(shell.isAlive(), "the shell did not end: " + out.toString(StandardCharsets.UTF_8));
        }
        String text = out.toString(StandardCharsets.UTF_8);
        // each prompt ends the previous command's output and shows its exit code
        Matcher m = Pattern.compile("segtool[^>\n]*?(?: \\[(\\d+)\\])?> ").matcher(text);
        List<int[]> prompts = new ArrayList<>();
        while (m.find()) {
            prompts.add(new int[]{m.start(), m.end(), m.group(1) == null ? 0 : Integer.parseInt(m.group(1))});
        }
        assertEquals(lines.length + 1, prompts.size(), text);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String chunk = text.substring(prompts.get(i)[1], prompts.get(i + 1)[0]);
            steps.add(new Step(lines[i], chunk, prompts.get(i + 1)[2]));
        }
        return steps;
    }

    static void assertTwiceTheSame(List<Step> steps) {
        for (int i = 0; i + 1 < steps.size(); i += 2) {
            Step a = steps.get(i);
            Step b = steps.get(i + 1);
            assertEquals(a.line(), b.line());
            assertEquals(a.output(), b.output(), "second run of `" + a.line() + "`");
            assertEquals(a.exit(), b.exit(), "exit code of the second run of `" + a.line() + "`");
        }
    }

    @Test
    void messagesTwice_showsTheSameMessagesAgain() throws Exception {
        List<Step> s = session("open " + healthy.dir, "messages --limit 2", "messages --limit 2");
        assertTrue(s.get(1).output().contains("offset 1 "), s.get(1).output());
        assertEquals(s.get(1).output(), s.get(2).output());
    }

    @Test
    void messagesAfterDamage_doesNotRepeatTheOldStop() throws Exception {
        List<Step> s = session("open " + interior.dir, "messages --limit 100", "open " + healthy.dir,
                "messages --limit 2");
        assertEquals(ExitCodes.CHANGES, s.get(1).exit(), s.get(1).output());
        assertTrue(s.get(1).output().contains("stopped: "), s.get(1).output());
        assertEquals(ExitCodes.CLEAN, s.get(3).exit(), s.get(3).output());
        assertFalse(s.get(3).output().contains("stopped:"), s.get(3).output());
        assertTrue(s.get(3).output().contains("2 message(s) shown"), s.get(3).output());
    }
}
