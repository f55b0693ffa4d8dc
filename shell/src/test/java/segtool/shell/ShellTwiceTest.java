package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command is safe to run any number of times in one shell session: run twice in a row, on healthy and on
 * damaged partitions, a command prints the same and exits the same.
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

    /** One line, what it printed (stdout and stderr, in order) and its exit code. */
    record Step(String line, String output, int exit) {
    }

    /**
     * Runs {@code lines} one after another through one interactive command tree over one session, as the shell
     * does (the same command objects every time, the open path carried from line to line); returns what each printed
     * and its exit code. The line loop itself (worker thread, Ctrl-C, prompt) is ReplTest's.
     */
    static List<Step> session(String... lines) {
        StringWriter buffer = new StringWriter();
        PrintWriter w = new PrintWriter(buffer, true);
        CommandLine cmd = CommandLines.create(ShellSession.oneShot(), CommandLine.defaultFactory(), true);
        cmd.setOut(w);
        cmd.setErr(w);
        List<Step> steps = new ArrayList<>();
        for (String line : lines) {
            int exit = cmd.execute(line.split(" "));
            w.flush();
            steps.add(new Step(line, buffer.toString(), exit));
            buffer.getBuffer().setLength(0);
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

    /** The lines that run every command, each twice in a row, on the open partition {@code p}. */
    static List<String> everyCommandTwice(Partitions p) {
        String first = Long.toString(p.segment(0).startOffset());
        List<String> once = List.of("scan", "scan --json", "explain", "explain " + first + " --json", "segments",
                "segments --json", "index " + first, "index " + first + " --json", "batches " + first + " --limit 8",
                "batches " + first + " --json", "messages --limit 3", "messages --limit 30", "messages --offset 7 --json",
                "find --offset 7", "find --offset 7 --json", "find --timestamp 1700000000001000",
                "hexdump " + first + " 0 128", "hexdump " + first + " 0 64 --json", "stats", "stats --segments",
                "repair", "repair --json", "rebuild-index " + p.segment(0).log(), "restore " + p.dir + "/no-such",
                "sample --list", "help scan", "open " + p.dir, "messages --limit 2 --format hex");
        List<String> lines = new ArrayList<>();
        for (String l : once) {
            lines.add(l);
            lines.add(l);
        }
        return lines;
    }

    @Test
    void everyCommandTwice_healthyAndDamaged_sameOutputAndExitCode() throws Exception {
        List<String> lines = new ArrayList<>();
        List<Integer> opens = new ArrayList<>();
        for (Partitions p : List.of(healthy, interior, torn, huge, messages)) {
            opens.add(lines.size());
            lines.add("open " + p.dir);
            lines.addAll(everyCommandTwice(p));
        }
        List<Step> steps = session(lines.toArray(new String[0]));
        for (int k = 0; k < opens.size(); k++) {
            int from = opens.get(k) + 1;
            int to = k + 1 < opens.size() ? opens.get(k + 1) : steps.size();
            assertTwiceTheSame(steps.subList(from, to));
        }
        if (Boolean.getBoolean("segtool.twice.print")) {
            steps.forEach(x -> System.out.println(x.exit() + " " + x.line() + " | "
                    + x.output().lines().findFirst().orElse("")));
        }
        // the damaged partitions really are judged damaged, so the comparison covers runs that met damage
        assertEquals(ExitCodes.CLEAN, steps.get(opens.get(0) + 1).exit(), steps.get(opens.get(0) + 1).output());
        assertEquals(ExitCodes.REFUSED, steps.get(opens.get(1) + 1).exit(), steps.get(opens.get(1) + 1).output());
        assertEquals(ExitCodes.CHANGES, steps.get(opens.get(2) + 1).exit(), steps.get(opens.get(2) + 1).output());
    }
}
