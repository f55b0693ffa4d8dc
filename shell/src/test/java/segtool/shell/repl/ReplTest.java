package segtool.shell.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.reader.Candidate;
import org.jline.reader.ParsedLine;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;
import segtool.formats.writer.PartitionWriter;
import segtool.shell.Cancelled;
import segtool.shell.ExitCodes;

/** The shell driven through a dumb JLine terminal over streams: open, completion, commands, Ctrl-C, history, exit. */
class ReplTest {
    static final String HISTORY_ENV_FOR_TESTS = Repl.HISTORY_ENV;

    @TempDir
    static Path root;

    static Path dir;
    static List<PartitionWriter.SegmentLayout> segments;

    @BeforeAll
    static void build() {
        dir = root.resolve("data/streams/1/topics/1/partitions/1");
        segments = PartitionWriter.fill(dir, PartitionWriter.Config.of(1).segmentSize(16 * 1024)
                .messagesRequiredToSave(5), 300, 5, 40, 7);
    }

    /** A dumb terminal over streams; the pure-Java line discipline ("exec" provider), no pseudo-terminal. */
    static Terminal dumb(InputStream in, OutputStream out) throws IOException {
        return TerminalBuilder.builder().system(false).dumb(true).type(Terminal.TYPE_DUMB).streams(in, out)
                .provider("exec").encoding(StandardCharsets.UTF_8).build();
    }

    /**
     * Runs {@code lines} through a fresh shell, typed into a pipe that stays open (the last line should leave the
     * shell); returns everything it printed. The shell's own exit code lands in {@code code[0]} when given.
     */
    static String session(Path history, Path open, int[] code, String... lines) throws Exception {
        PipedOutputStream typing = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(typing, 1 << 16);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = dumb(in, out); Repl repl = new Repl(t, history)) {
            AtomicInteger exit = new AtomicInteger(-1);
            Thread shell = new Thread(() -> exit.set(repl.run(open)));
            shell.start();
            typing.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            typing.flush();
            shell.join(20_000);
            assertFalse(shell.isAlive(), "the shell did not end: " + out.toString(StandardCharsets.UTF_8));
            if (code != null) {
                code[0] = exit.get();
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String session(Path history, String... lines) throws Exception {
        return session(history, null, null, lines);
    }

    @Test
    void openSetsThePromptAndTheDefaultPath() throws Exception {
        String out = session(null, "open " + dir, "segments", "batches 0 --limit 1", "exit");
        assertTrue(out.contains("opened partition " + dir + ": " + segments.size() + " segment(s)"), out);
        assertTrue(out.contains("segtool s1/t1/p1> "), out);
        assertTrue(out.contains("(partition 1): " + segments.size() + " segment(s)"), out);
        assertTrue(out.contains("1 batches, 5 messages"), out);
        assertFalse(out.contains("\u001b["), "no colour on a dumb terminal: " + out);
    }

    @Test
    void openPathAtStartAndSegmentByStartOffset() throws Exception {
        int[] code = new int[1];
        String text = session(null, dir, code, "explain " + segments.get(1).startOffset() + " -q", "quit");
        assertTrue(text.contains("ACCEPTED"), text);
        assertEquals(ExitCodes.CLEAN, code[0]);
    }

    /** As {@link #session}, with errors written to a stream of their own, as the real shell writes them to stderr. */
    static String[] split(String... lines) throws Exception {
        PipedOutputStream typing = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(typing, 1 << 16);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.io.StringWriter err = new java.io.StringWriter();
        try (Terminal t = dumb(in, out); Repl repl = new Repl(t, err, null)) {
            Thread shell = new Thread(() -> repl.run(null));
            shell.start();
            typing.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            typing.flush();
            shell.join(20_000);
            assertFalse(shell.isAlive(), "the shell did not end: " + out.toString(StandardCharsets.UTF_8));
        }
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString()};
    }

    /**
     * Errors go to the error stream, one line each (a usage error adds where to look), never to the terminal's
     * output, where the prompt (with the exit code) and the results stay: it printed them all on stdout.
     */
    @Test
    void errorsAreOneLineOnTheErrorStream_andThePromptShowsTheExitCode() throws Exception {
        String[] r = split("index /no/such/00000000000000000000.index", "bogus", "open /no/such", "scan \"open",
                "stats " + dir, "exit");
        String out = r[0];
        String err = r[1];
        assertEquals("segtool: /no/such/00000000000000000000.index: no such file or directory\n"
                + "segtool: Unmatched argument at index 0: 'bogus'\n"
                + "Try 'segtool --help'.\n"
                + "segtool: /no/such: no such file or directory\n"
                + "segtool: open: no such file or directory\n", err, out);
        assertTrue(out.contains("segtool [64]> "), out);
        assertTrue(out.contains("messages   300,"), "the results stay on the output: " + out);
        assertFalse(out.contains("segtool: ") || out.contains("Unmatched") || out.contains("Try '"), out);
        assertFalse(out.contains("\tat ") || err.contains("\tat "), out + err);
    }

    /**
     * {@code segtool shell < script > out}: a real child process, stdin not a terminal. Errors on its stderr only,
     * the banner, prompts and results on its stdout.
     */
    @Test
    void aPipedShell_keepsErrorsOutOfStdout() throws Exception {
        Path script = Files.writeString(root.resolve("script"), "scan /no/such\nbatches 0 --bogus\nstats " + dir
                + "\nrestore " + root + "\n");
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "segtool.shell.Main", "shell")
                .redirectInput(script.toFile());
        pb.environment().put(HISTORY_ENV_FOR_TESTS, root.resolve("piped-history").toString());
        Process p = pb.start();
        byte[] err = p.getErrorStream().readAllBytes();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell ended at the end of its input");
        String o = new String(out, StandardCharsets.UTF_8);
        String e = new String(err, StandardCharsets.UTF_8);
        assertEquals("segtool: /no/such: no such file or directory\n"
                + "segtool: Unknown option: '--bogus'\n"
                + "Try 'segtool batches --help'.\n"
                + "segtool: " + root + ": not a quarantine directory (no manifest.json)\n", e, o);
        assertTrue(o.startsWith("segtool ") && o.contains(" shell. Tab completes"), o);
        assertTrue(o.contains("messages   300,") && o.contains("segtool [64]> "), o);
        assertFalse(o.contains("segtool: "), o);
    }

    @Test
    void helpListsCommandsIncludingTheShellsOwn() throws Exception {
        String out = session(null, "help", "exit");
        for (String c : new String[]{"explain", "batches", "open", "close", "exit", "cls"}) {
            assertTrue(out.contains("\n  " + c + " ") || out.contains("\n  " + c + ","),
                    c + " in\n" + out.substring(out.indexOf("Commands:")));
        }
        assertFalse(out.contains("  shell "), out);
    }

    @Test
    void endOfInputLeaves() throws Exception {
        PipedOutputStream typing = new PipedOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = dumb(new PipedInputStream(typing), out); Repl repl = new Repl(t, null)) {
            Thread shell = new Thread(() -> repl.run(null));
            shell.start();
            typing.write(("open " + dir + "\n").getBytes(StandardCharsets.UTF_8));
            typing.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!out.toString(StandardCharsets.UTF_8).contains("opened partition") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            typing.close();
            shell.join(10_000);
            assertFalse(shell.isAlive(), "Ctrl-D (end of input) leaves the shell");
        }
    }

    @Test
    void historyPersists() throws Exception {
        Path history = root.resolve("history");
        session(history, "open " + dir, "stats", "exit");
        List<String> lines = Files.readAllLines(history);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("open " + dir)), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("stats")), lines.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = dumb(new ByteArrayInputStream("exit\n".getBytes(StandardCharsets.UTF_8)), out);
             Repl repl = new Repl(t, history)) {
            repl.reader().getHistory().attach(repl.reader());
            repl.reader().getHistory().load();
            assertTrue(repl.reader().getHistory().size() >= 3);
        }
    }

    // ---- completion --------------------------------------------------------------------------------------

    static List<String> complete(Repl repl, String line) {
        ParsedLine parsed = repl.reader().getParser().parse(line, line.length());
        List<Candidate> out = new ArrayList<>();
        new ShellCompleter(repl.commandLine(), repl.session()).complete(repl.reader(), parsed, out);
        List<String> values = new ArrayList<>();
        for (Candidate c : out) {
            values.add(c.value());
        }
        return values;
    }

    @Test
    void completesCommandsOptionsValuesSegmentsPathsAndPositions() throws IOException {
        try (Terminal t = dumb(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
             Repl repl = new Repl(t, null)) {
            repl.session().open(dir);
            List<String> commands = complete(repl, "");
            assertTrue(commands.containsAll(List.of("explain", "segments", "index", "batches", "messages", "find",
                    "hexdump", "stats", "scan", "open", "close", "exit", "quit", "help")), commands.toString());
            assertFalse(commands.contains("shell"), commands.toString());

            List<String> options = complete(repl, "explain --");
            assertTrue(options.containsAll(List.of("--enforce-fsync", "--json", "--no-color", "--quiet",
                    "--partition-id")), options.toString());
            assertEquals(List.of("true", "false"), complete(repl, "scan --enforce-fsync=").stream()
                    .map(s -> s.substring(s.indexOf('=') + 1)).toList());
            assertEquals(List.of("text", "hex", "json"), complete(repl, "messages --format "));
            assertEquals(List.of("1"), complete(repl, "batches 0 --partition-id "));

            List<String> starts = new ArrayList<>();
            segments.forEach(s -> starts.add(Long.toString(s.startOffset())));
            assertTrue(complete(repl, "index ").containsAll(starts), complete(repl, "index ").toString());
            List<String> offsets = complete(repl, "find --offset ");
            assertTrue(offsets.containsAll(starts) && offsets.contains("5") && offsets.size() > starts.size(),
                    offsets.toString());

            List<String> positions = complete(repl, "hexdump " + segments.get(0).startOffset() + " ");
            assertEquals(Long.toString(segments.get(0).batch(1).position()), positions.get(1), positions.toString());

            String base = root.resolve("data") + "/";
            assertEquals(List.of(base + "streams/"), complete(repl, "open " + base + "str"));
            assertTrue(complete(repl, "segments " + dir + "/0000").contains(dir + "/00000000000000000000.log"));
        }
    }

    // ---- Ctrl-C ------------------------------------------------------------------------------------------

    /** A command that runs until interrupted, honouring interrupts like the real ones. */
    @Command(name = "slow")
    static final class Slow implements Callable<Integer> {
        static final CountDownLatch STARTED = new CountDownLatch(1);

        @Override
        public Integer call() throws Exception {
            STARTED.countDown();
            while (true) {
                Cancelled.check();
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void ctrlC_cancelsTheRunningCommandNotTheShell() throws Exception {
        PipedOutputStream typing = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(typing);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = dumb(in, out); Repl repl = new Repl(t, null)) {
            repl.commandLine().addSubcommand(new Slow());
            repl.commandLine().getSubcommands().get("slow").setErr(repl.commandLine().getErr());
            AtomicInteger code = new AtomicInteger(-1);
            Thread shell = new Thread(() -> code.set(repl.run(null)));
            shell.start();
            typing.write("slow\n".getBytes(StandardCharsets.UTF_8));
            typing.flush();
            assertTrue(Slow.STARTED.await(10, TimeUnit.SECONDS), "the command started");
            t.raise(Terminal.Signal.INT);
            // type the next line only once the cancellation is reported: the dumb terminal echoes typing as it
            // comes, and an echo interleaved with the report would split its words
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!out.toString(StandardCharsets.UTF_8).contains("segtool [130]> ") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            typing.write(("open " + dir + "\nexit\n").getBytes(StandardCharsets.UTF_8));
            typing.flush();
            shell.join(10_000);
            assertFalse(shell.isAlive(), "the shell ended at exit");
            String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("cancelling..."), text);
            assertTrue(text.contains("segtool: slow interrupted: nothing changed"), text);
            assertTrue(text.contains("segtool [130]> "), text);
            assertTrue(text.contains("opened partition"), "the shell went on after Ctrl-C: " + text);
            assertEquals(ExitCodes.CLEAN, code.get());
        }
    }
}
