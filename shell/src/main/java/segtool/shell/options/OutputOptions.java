package segtool.shell.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import segtool.shell.ShellSession;
import segtool.shell.render.Style;
import segtool.shell.render.Terminals;

/** How to print: JSON or text, colour, quiet, debug. */
public final class OutputOptions {
    @Option(names = "--json", description = "Print JSON instead of text.")
    public boolean json;

    @Option(names = "--no-color", description = "No colour (also when NO_COLOR is set, on a dumb terminal, or when "
            + "output is not a terminal).")
    public boolean noColor;

    @Option(names = {"-q", "--quiet"}, description = "Print only the summary line (or nothing, with the exit code).")
    public boolean quiet;

    @Option(names = "--debug", description = "Show stack traces for errors.")
    public boolean debug;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** Colour only on a terminal that is not dumb, without --no-color and without NO_COLOR. */
    public boolean color() {
        return !noColor && !json && Terminals.colorCapable(ShellSession.of(mixee).terminal());
    }

    public Style style() {
        return new Style(color());
    }
}
