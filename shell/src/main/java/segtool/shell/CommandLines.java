package segtool.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.layout.Targets;
import segtool.shell.model.Models;
import segtool.shell.repl.ReplCommands;

/**
 * The one factory of segtool's command tree, for the one-shot CLI ({@link Main}), the shell ({@code Repl}) and the
 * tests: the commands, their exit-code help, and the one place errors become a line on stderr and an exit code.
 */
public final class CommandLines {
    /**
     * picocli registers, for every CommandLine it builds, converters for the java.sql and java.time types by
     * reflection, loading and initialising some 80 classes (the JDBC driver manager, date-time formatters) that no
     * segtool option needs: none has such a type (timestamps are parsed by {@code Numbers}; LazyTreeTest checks).
     * Its documented switch leaves them out.
     */
    static final String CONVERTER_EXCLUDES = "java\\.sql\\..*,java\\.time\\..*";

    static {
        if (System.getProperty("picocli.converters.excludes") == null) {
            System.setProperty("picocli.converters.excludes", CONVERTER_EXCLUDES);
        }
        // Its factory otherwise looks for groovy.lang.Closure: a class-path miss, which opens and indexes the 9 MiB
        // jar that the class-data archive spares every other run (and builds a ClassNotFoundException)
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
    }

    private CommandLines() {
    }

    /** The one-shot command tree, every subcommand in it, with a session of its own (nothing open, no terminal). */
    public static CommandLine oneShot() {
        return create(ShellSession.oneShot(), CommandLine.defaultFactory(), false);
    }

    /**
     * The one-shot tree for running {@code args}: only the subcommands it can reach ({@link #reachable}), so that a
     * short command does not pay for building the model of all the others. Its output is the full tree's.
     */
    public static CommandLine oneShot(String[] args) {
        return create(ShellSession.oneShot(), CommandLine.defaultFactory(), false, reachable(args));
    }

    /**
     * The subcommands a one-shot {@code args} can reach: none for {@code --version}; the one named first, when it names
     * one that does not read the tree itself; otherwise (usage, {@code help}, completion, a mistyped name, which gets
     * suggestions) all of them.
     */
    static String[] reachable(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return new String[0];
        }
        if (args.length > 0 && !args[0].equals("help") && !args[0].equals("generate-completion")
                && Segtool.subcommand(args[0]) != null) {
            return new String[] {args[0]};
        }
        return Segtool.NAMES;
    }

    /**
     * The command tree over {@code session}. {@code interactive} adds the shell's own commands (open, close, clear,
     * exit/quit) and drops the ones that make no sense inside it ({@code shell}, {@code generate-completion}).
     */
    public static CommandLine create(ShellSession session, CommandLine.IFactory factory, boolean interactive) {
        return create(session, factory, interactive, Segtool.NAMES);
    }

    private static CommandLine create(ShellSession session, CommandLine.IFactory factory, boolean interactive,
            String[] subcommands) {
        CommandLine cmd = line(new Segtool(session), factory);
        for (String name : subcommands) {
            if (!interactive || !name.equals("shell") && !name.equals("generate-completion")) {
                cmd.addSubcommand(name, line(Segtool.subcommand(name), factory));
            }
        }
        if (interactive) {
            ReplCommands.addTo(cmd, factory);
        }
        cmd.setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? ExitCodes.USAGE
                : ExitCodes.IO_ERROR);
        configure(cmd);
        // help wrapped at spaces only, as wide as the terminal (or COLUMNS) when it is shown
        segtool.shell.render.HelpLayout.install(cmd, () -> segtool.shell.render.Terminals.width(session.terminal()));
        segtool.shell.options.Numbers.register(cmd);
        cmd.setExecutionStrategy(CommandLines::addressed);
        cmd.setExecutionExceptionHandler(CommandLines::handle);
        cmd.setParameterExceptionHandler(CommandLines::usageError);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }

    /**
     * The command line of {@code command} (an object, or its class for the factory to make), its model built by
     * {@link Models} from what its annotations say (generated code, no annotation read at run time), or by picocli's
     * reflection for a command Models does not cover.
     */
    private static CommandLine line(Object command, CommandLine.IFactory factory) {
        CommandSpec spec;
        try {
            if (command instanceof Class<?> type) {
                command = factory.create(type);
            }
            spec = Models.of(command, factory);
        } catch (Exception e) {
            throw new CommandLine.InitializationException("cannot build the model of " + command.getClass().getName()
                    + ": " + e, e);
        }
        return new CommandLine(spec != null ? spec : command, factory);
    }

    private static void configure(CommandLine cmd) {
        CommandSpec spec = cmd.getCommandSpec();
        spec.exitCodeOnInvalidInput(ExitCodes.USAGE);
        spec.exitCodeOnUsageHelp(ExitCodes.CLEAN);
        spec.exitCodeOnVersionHelp(ExitCodes.CLEAN);
        spec.exitCodeOnExecutionException(ExitCodes.IO_ERROR);
        Object user = cmd.getCommand();
        boolean ours = user.getClass().getName().startsWith("segtool.");
        ExitCodes.Kind kind = user instanceof ReadCommand ? ExitCodes.Kind.READ
                : user instanceof PlainCommand || !(user instanceof Callable) || !ours ? ExitCodes.Kind.PLAIN
                : ExitCodes.Kind.VERDICT;
        if (!spec.usageMessage().hidden()) {
            ExitCodes.apply(cmd, user instanceof Segtool ? ExitCodes.Kind.ALL : kind);
        }
        for (CommandLine sub : cmd.getSubcommands().values()) {
            if (sub.getParent() == cmd) {
                configure(sub);
            }
        }
    }

    /**
     * Runs the command with its output naming paths inside a crash dump by their lasting address (see
     * {@link Dumps}), never by the temporary extraction; its errors too, since they go to the same writers.
     */
    private static int addressed(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult leaf = parsed;
        // the writers of the whole chain first: a parent that makes its default writer later hands it to its
        // subcommands, replacing the leaf's
        for (CommandLine c : parsed.asCommandLineList()) {
            c.getOut();
            c.getErr();
        }
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        CommandLine c = leaf.commandSpec().commandLine();
        c.setOut(Dumps.addressed(c.getOut()));
        c.setErr(Dumps.addressed(c.getErr()));
        return segtool.shell.options.OutputOptions.execute(parsed);
    }

    /** A bad command line: one line, the suggestions picocli has, and where to look; never the whole usage. */
    static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("segtool: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /** One line on stderr naming what failed; a stack trace only with --debug. The only place errors are printed. */
    static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof Cancelled || e instanceof InterruptedException || interrupted(e)) {
            err.println("segtool: " + Interrupts.line(cmd, e));
            err.flush();
            return Interrupts.code();
        }
        boolean debug = parsed != null && hasDebug(parsed);
        if (debug) {
            e.printStackTrace(err);
        }
        err.println("segtool: " + message(e));
        err.flush();
        if (e instanceof Targets.NotATarget || e instanceof NoSuchFileException) {
            return ExitCodes.USAGE;
        }
        return ExitCodes.IO_ERROR;
    }

    /** An interrupt that reached a read surfaces as ClosedByInterruptException; it means cancelled, not broken. */
    private static boolean interrupted(Throwable e) {
        return segtool.analyzers.recovery.RecoveryEngine.Cancelled.isInterrupt(e);
    }

    private static boolean hasDebug(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    static String message(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return segtool.analyzers.layout.Targets.noSuchFile(e.getMessage());
        }
        if (e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null && fs.getOtherFile() == null) {
            return segtool.formats.io.OsReason.line(fs.getFile(), fs);
        }
        if (e instanceof IOException && e.getMessage() != null) {
            return e.getMessage();
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
