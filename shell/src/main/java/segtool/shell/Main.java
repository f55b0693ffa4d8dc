package segtool.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.target.Targets;

/** Entry point. {@link #commandLine()} alone builds the command tree, for main, the shell and tests. */
@Command(name = "segtool", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Inspect, judge and repair Apache Iggy partition segments offline.",
            "Predicts the server's boot-recovery verdict (RECOVERY.md) and explains it."},
        subcommands = {ScanCommand.class, ExplainCommand.class, CommandLine.HelpCommand.class},
        footer = ExitCodes.HELP)
public final class Main implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }

    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Main());
        cmd.setExitCodeExceptionMapper(t -> t instanceof CommandLine.ParameterException ? ExitCodes.USAGE
                : ExitCodes.IO_ERROR);
        cmd.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        cmd.getCommandSpec().exitCodeOnUsageHelp(ExitCodes.CLEAN);
        cmd.getCommandSpec().exitCodeOnVersionHelp(ExitCodes.CLEAN);
        for (CommandLine sub : cmd.getSubcommands().values()) {
            sub.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        }
        cmd.setExecutionExceptionHandler(Main::handle);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        return cmd;
    }

    /** One line on stderr naming what failed; a stack trace only with --debug. */
    static int handle(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
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
            return e.getMessage() + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return e.getMessage() + ": permission denied";
        }
        if (e instanceof IOException && e.getMessage() != null) {
            return e.getMessage();
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        System.exit(code);
    }
}
