package segtool.shell.options;

import java.io.PrintWriter;
import java.io.Writer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import segtool.shell.ShellSession;
import segtool.shell.render.Style;
import segtool.shell.render.Terminals;

/**
 * How to print: JSON or text, colour, quiet, debug.
 *
 * <p>{@code --quiet} means the same in every command ({@link #QUIET_MEANING}): once, only what needs attention and
 * the handles to act on it; twice, nothing on stdout. Errors and warnings go to stderr either way.
 */
public final class OutputOptions {
    /** The one meaning of -q, for --help, the man pages and the README. */
    public static final String QUIET_MEANING = "Print only the summary: one line for each result that needs "
            + "attention (a partition that is not clean, damage met) and the closing count, plus what is needed to "
            + "act on it (the quarantine a repair wrote, with its restore command; the files written). Twice (-qq) "
            + "prints nothing on stdout: the exit code alone answers. Errors and warnings always go to stderr.";

    @Option(names = "--json", description = "Print JSON instead of text.")
    public boolean json;

    @Option(names = "--no-color", description = "No colour (also when NO_COLOR is set, on a dumb terminal, or when "
            + "output is not a terminal).")
    public boolean noColor;

    @Option(names = {"-q", "--quiet"}, description = QUIET_MEANING)
    boolean[] quiet = new boolean[0];

    @Option(names = "--debug", description = "Show stack traces for errors.")
    public boolean debug;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** -q given at least once: print the summary only. */
    public boolean quiet() {
        return quiet != null && quiet.length >= 1;
    }

    /** -q given twice or more: nothing on stdout. */
    public boolean silent() {
        return quiet != null && quiet.length >= 2;
    }

    /** Colour only on a terminal that is not dumb, without --no-color and without NO_COLOR. */
    public boolean color() {
        return !noColor && !json && Terminals.colorCapable(ShellSession.of(mixee).terminal());
    }

    public Style style() {
        return new Style(color());
    }

    /**
     * Runs the parsed command; when it was given {@code -qq}, its stdout goes nowhere for the run (so no command can
     * forget), and is restored afterwards for the next line of the shell.
     */
    public static int execute(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        OptionSpec q = leaf.matchedOption("--quiet");
        boolean[] times = q == null ? null : q.getValue();
        CommandLine cmd = leaf.commandSpec().commandLine();
        if (times == null || times.length < 2) {
            return new CommandLine.RunLast().execute(parsed);
        }
        // the root makes its writer lazily and hands it to every subcommand; make it now, so that nothing during the
        // run hands the real stdout back to this command
        parsed.commandSpec().commandLine().getOut();
        PrintWriter saved = cmd.getOut();
        cmd.setOut(new PrintWriter(Writer.nullWriter()));
        try {
            return new CommandLine.RunLast().execute(parsed);
        } finally {
            cmd.setOut(saved);
        }
    }
}
