package segtool.shell.repl;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.Signals;
import picocli.CommandLine;
import picocli.shell.jline3.PicocliCommands;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.CommandLines;
import segtool.shell.ExitCodes;
import segtool.shell.Interrupts;
import segtool.shell.ShellSession;
import segtool.shell.Version;

/**
 * The interactive shell: JLine reads a line (completion from {@link ShellCompleter}, persistent history), the same
 * command tree as the one-shot CLI runs it on a worker thread, and Ctrl-C interrupts that worker instead of the
 * shell. The commands honour the interrupt between records and stop with one line saying what they left
 * ({@link Interrupts}); SIGTERM stops the running command the same way and then ends the shell (exit 143).
 */
public final class Repl implements AutoCloseable {
    static final String HISTORY_ENV = "SEGTOOL_HISTORY";

    private final Terminal terminal;
    private final PrintWriter err;
    private final ShellSession session;
    private final CommandLine cmd;
    private final LineReader reader;
    private final boolean processSignals;
    private final AtomicReference<Thread> running = new AtomicReference<>();
    private final AtomicBoolean cancelling = new AtomicBoolean();
    /** SIGTERM arrived: the running command is stopped as by Ctrl-C, then the shell ends (exit 143). */
    private volatile boolean terminated;
    private int lastExit;

    /**
     * A shell on {@code terminal} whose errors go to the terminal too; tests that read one stream pass a dumb
     * terminal over streams and {@code null} history.
     */
    public Repl(Terminal terminal, Path history) {
        this(terminal, null, history, false);
    }

    /** A shell on {@code terminal} whose errors go to {@code err} (the process's stderr, for the real shell). */
    public Repl(Terminal terminal, java.io.Writer err, Path history) {
        this(terminal, err, history, false);
    }

    /**
     * With {@code processSignals}, SIGINT is taken from the process itself for the shell's lifetime: a dumb or
     * cooked terminal delivers Ctrl-C as a signal that JLine does not always catch, and the JVM's default would
     * end the shell.
     */
    Repl(Terminal terminal, java.io.Writer err, Path history, boolean processSignals) {
        this.terminal = terminal;
        this.processSignals = processSignals;
        PicocliCommands.PicocliCommandsFactory factory = new PicocliCommands.PicocliCommandsFactory();
        factory.setTerminal(terminal);
        this.session = ShellSession.on(terminal);
        this.cmd = CommandLines.create(session, factory, true);
        PrintWriter w = terminal.writer();
        this.err = err == null ? w : afterOutput(w, err);
        cmd.setOut(w);
        cmd.setErr(this.err);
        DefaultParser parser = new DefaultParser();
        parser.setEofOnUnclosedQuote(false);
        LineReaderBuilder b = LineReaderBuilder.builder().terminal(terminal).appName("segtool")
                .completer(new ShellCompleter(cmd, session)).parser(parser)
                .variable(LineReader.LIST_MAX, 200)
                // candidates listed in columns of equal width, so each description starts in one column; grouped
                // (commands, options, segments) under their group's name
                .option(LineReader.Option.LIST_PACKED, false)
                .option(LineReader.Option.AUTO_GROUP, true)
                .option(LineReader.Option.GROUP, true)
                .option(LineReader.Option.AUTO_FRESH_LINE, true)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true);
        if (history != null) {
            b.variable(LineReader.HISTORY_FILE, history);
        }
        this.reader = b.build();
    }

    /**
     * Errors (usage errors, I/O errors, refusals) written to {@code err}, results and the prompt to the terminal, so
     * that {@code segtool shell < script > out} keeps errors out of {@code out}. What the command printed before an
     * error is flushed first, so that on a terminal, where both meet, the lines come in the order they were made.
     */
    static PrintWriter afterOutput(PrintWriter out, java.io.Writer err) {
        return new PrintWriter(new java.io.Writer() {
            @Override
            public void write(char[] buf, int off, int len) throws IOException {
                out.flush();
                err.write(buf, off, len);
            }

            @Override
            public void flush() throws IOException {
                err.flush();
            }

            @Override
            public void close() throws IOException {
                err.flush();
            }
        }, true);
    }

    public LineReader reader() {
        return reader;
    }

    public CommandLine commandLine() {
        return cmd;
    }

    /** What this shell carries from line to line: the open path, its terminal. */
    public ShellSession session() {
        return session;
    }

    /** The history file: {@code $SEGTOOL_HISTORY}, else {@code ~/.segtool_history}. */
    public static Path historyFile() {
        String env = System.getenv(HISTORY_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".segtool_history");
    }

    /** Runs the shell on the process's terminal (a dumb one when TERM=dumb or when none can be had). */
    public static int runOnSystemTerminal(Path open) throws IOException {
        Terminal t = TerminalBuilder.builder().name("segtool").system(true).nativeSignals(true)
                .signalHandler(Terminal.SignalHandler.SIG_IGN).dumb(true).build();
        java.io.Writer err = new java.io.OutputStreamWriter(System.err, t.encoding());
        try (Repl repl = new Repl(t, err, historyFile(), true)) {
            return repl.run(open);
        }
    }

    /** Reads and runs lines until exit, quit or end of input; returns the last command's exit code. */
    public int run(Path open) {
        session.start();
        Object previousInt = null;
        Object previousTerm = null;
        if (processSignals) {
            // while a command runs, Ctrl-C cancels it; at the prompt it goes to the line reader as usual
            previousInt = Signals.register("INT", () -> {
                if (running.get() != null) {
                    cancelRunning();
                } else {
                    terminal.raise(Terminal.Signal.INT);
                }
            });
            previousTerm = Signals.register("TERM", this::terminate);
        }
        PrintWriter w = terminal.writer();
        w.println("segtool " + Version.current() + " shell. Tab completes, help lists commands, Ctrl-C cancels a "
                + "command, Ctrl-D or exit leaves.");
        w.flush();
        if (open != null) {
            execute(List.of("open", open.toString()));
        }
        try {
            while (!session.exitRequested() && !terminated) {
                String line;
                try {
                    line = reader.readLine(prompt());
                } catch (UserInterruptException e) {
                    if (terminated) {
                        // SIGTERM at the prompt: no command was running
                        err.println("segtool: shell interrupted: nothing changed");
                        break;
                    }
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                if (line == null) {
                    break;
                }
                if (line.isBlank()) {
                    continue;
                }
                List<String> words;
                try {
                    words = reader.getParser().parse(line, line.length()).words();
                } catch (RuntimeException e) {
                    err.println("segtool: " + e.getMessage());
                    err.flush();
                    continue;
                }
                words = words.stream().filter(s -> !s.isEmpty()).toList();
                if (!words.isEmpty()) {
                    lastExit = execute(words);
                }
            }
        } finally {
            if (processSignals) {
                Signals.unregister("INT", previousInt);
                Signals.unregister("TERM", previousTerm);
            }
            try {
                reader.getHistory().save();
            } catch (IOException e) {
                err.println("segtool: cannot save history: " + e.getMessage());
            }
            w.flush();
        }
        if (terminated) {
            return ExitCodes.TERMINATED;
        }
        return lastExit == ExitCodes.CANCELLED ? ExitCodes.CLEAN : lastExit;
    }

    /**
     * SIGTERM: the running command stops as for Ctrl-C and says what it left (exit code 143), then the shell ends;
     * at the prompt, the shell ends with one line. A second SIGTERM ends the process at once ({@link Interrupts}).
     */
    private void terminate() {
        Thread w = running.get();
        terminated = true;
        Interrupts.received(Interrupts.Signal.TERM, w);
        if (w == null) {
            terminal.raise(Terminal.Signal.INT);
        }
    }

    /** Runs one command on a worker thread; Ctrl-C interrupts the worker, and we wait for it to stop. */
    int execute(List<String> words) {
        String[] args = words.toArray(new String[0]);
        AtomicInteger code = new AtomicInteger(ExitCodes.CLEAN);
        Thread worker = new Thread(() -> {
            try {
                code.set(cmd.execute(args));
            } catch (Throwable t) {
                // picocli hands Exceptions to CommandLines.handle; an Error still gets one line, not a trace
                cmd.getErr().println("segtool: " + t);
                cmd.getErr().flush();
                code.set(ExitCodes.IO_ERROR);
            }
        }, "segtool-command");
        worker.setDaemon(true);
        cancelling.set(false);
        running.set(worker);
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, s -> cancelRunning());
        worker.start();
        if (terminated) {
            // SIGTERM came between the prompt and this command: it stops at once
            worker.interrupt();
        }
        try {
            boolean interrupted = false;
            while (worker.isAlive()) {
                try {
                    worker.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                    worker.interrupt();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            running.set(null);
            terminal.handle(Terminal.Signal.INT, previous);
        }
        terminal.writer().flush();
        return code.get();
    }

    /** Interrupts the running command (once more on every Ctrl-C); says so the first time. */
    private void cancelRunning() {
        Thread w = running.get();
        if (w == null) {
            return;
        }
        if (!cancelling.getAndSet(true)) {
            terminal.writer().println();
            terminal.writer().println("cancelling...");
            terminal.writer().flush();
        }
        w.interrupt();
    }

    /** {@code segtool s1/t1/p1> }: what is open, and the last exit code when it was not 0. */
    String prompt() {
        Path open = session.openOnDisk();
        String where = "";
        if (open != null) {
            boolean file = Files.isRegularFile(open);
            Path dir = file ? open.getParent() : open;
            PartitionPath p = PartitionPath.of(dir);
            where = p.isCanonical() ? "s" + Long.toUnsignedString(p.streamId()) + "/t"
                    + Long.toUnsignedString(p.topicId()) + "/p" + Long.toUnsignedString(p.partitionId())
                    : dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
            if (file) {
                Long s = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(open.getFileName().toString()));
                where += ":" + (s == null ? open.getFileName() : Long.toUnsignedString(s));
            }
            where = " " + where;
        }
        return "segtool" + where + (lastExit != 0 ? " [" + lastExit + "]" : "") + "> ";
    }

    @Override
    public void close() throws IOException {
        terminal.close();
    }
}
