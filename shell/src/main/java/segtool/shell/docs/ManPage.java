package segtool.shell.docs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.shell.Version;

/**
 * A roff (man(7)) page written from a picocli {@link CommandSpec}: NAME and DESCRIPTION from the description,
 * SYNOPSIS from picocli's own synopsis, OPTIONS and ARGUMENTS from the option and parameter specs, EXIT STATUS from
 * the exit-code list, EXAMPLES and NOTES from the footer. Plain man macros only (TH, SH, TP, PP, nf/fi), so man-db,
 * groff and mandoc all render it. No dates: the output depends on the model alone.
 */
final class ManPage {
    private final StringBuilder b = new StringBuilder();

    private ManPage() {
    }

    // ---- the pages -----------------------------------------------------------------------------------------

    static String main(CommandLine root, List<CommandLine> commands, CommandLine shell) {
        ManPage m = new ManPage();
        CommandSpec spec = root.getCommandSpec();
        m.header("segtool", spec);
        m.section("SYNOPSIS");
        m.raw(".nf");
        m.raw("\\fBsegtool\\fR [\\fICOMMAND\\fR] [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]");
        m.raw("\\fBsegtool\\fR               (on a terminal: the interactive shell)");
        m.raw("\\fBsegtool\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR");
        m.raw(".fi");
        m.section("DESCRIPTION");
        for (String d : spec.usageMessage().description()) {
            m.paragraph(d);
        }
        m.paragraph("PATH arguments name a data directory (the server's system.path, holding streams/), a "
                + "partition directory (streams/<s>/topics/<t>/partitions/<p>) or a segment file "
                + "(<20-digit start offset>.log or .index). The partition id batches are checked against comes from "
                + "the directory name unless --partition-id is given. segtool never writes to the files it reads.");
        m.paragraph("The verdict depends on the topic's enforce_fsync setting (recovery's durable mode). It defaults "
                + "to false, the server default; every command that judges prints the value it used, and explain "
                + "shows the verdict under both values.");
        m.section("COMMANDS");
        for (CommandLine c : commands) {
            m.raw(".TP");
            m.raw("\\fB" + esc(c.getCommandName()) + "\\fR");
            m.text(firstLine(c.getCommandSpec()) + " See " + pageName(c) + "(1).");
        }
        m.item("help [COMMAND]", "List the commands, or show one command's help (also: segtool COMMAND --help).");
        m.section("SHELL");
        m.paragraph("Without arguments on a terminal, or with segtool shell [PATH], segtool reads commands "
                + "interactively. Every command above works there (PATH defaults to the open path; SEGMENT may be a "
                + "start offset of the open partition), plus:");
        m.shellCommands(root, shell);
        m.paragraph("See segtool-shell(1) for keys, completion and history.");
        m.options(spec);
        m.exitStatus(spec);
        m.environment(true);
        m.files();
        m.section("SEE ALSO");
        List<String> refs = new ArrayList<>();
        for (CommandLine c : commands) {
            refs.add("\\fB" + esc(pageName(c)) + "\\fR(1)");
        }
        m.raw(String.join(",\n", refs));
        return m.toString();
    }

    static String command(CommandLine c, List<CommandLine> commands, CommandLine shell) {
        ManPage m = new ManPage();
        CommandSpec spec = c.getCommandSpec();
        m.header(pageName(c), spec);
        m.section("SYNOPSIS");
        m.raw(".nf");
        spec.usageMessage().width(Docs.WIDTH);
        String synopsis = new segtool.shell.render.HelpLayout(spec,
                CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF)).synopsis(0).stripTrailing();
        String qualified = spec.qualifiedName();
        String rest = synopsis.startsWith(qualified) ? synopsis.substring(qualified.length()) : " " + synopsis;
        m.raw("\\fB" + esc(qualified) + "\\fR" + escLines(rest));
        m.raw(".fi");
        String[] description = spec.usageMessage().description();
        m.section("DESCRIPTION");
        for (int i = 0; i < description.length; i++) {
            m.paragraph(description[i]);
        }
        if (c.getCommandName().equals("shell")) {
            m.section("SHELL COMMANDS");
            m.shellCommands(c.getParent(), shell);
            m.section("KEYS");
            m.item("Tab", "Complete: command names, option names (with their descriptions), option values (enums, "
                    + "true/false, the open partition's id, segment start offsets and index offsets for --offset), "
                    + "paths, segment start offsets for SEGMENT and index entry positions for POSITION. Completion "
                    + "needs a terminal JLine can drive; on TERM=dumb, lines are read plainly.");
            m.item("Ctrl-C", "Cancel the running command: it stops at its next record, removes its own temporary "
                    + "files and says in one line what it left (\"segtool: salvage interrupted: OUT was not created; "
                    + "nothing else changed\"), exit code 130; at the prompt, discard the line. The shell keeps "
                    + "running. SIGTERM stops the running command the same way (exit code 143), then ends the shell; "
                    + "at the prompt it ends the shell (\"segtool: shell interrupted: nothing changed\", 143).");
            m.item("Ctrl-D", "Leave the shell (as exit does).");
            m.item("Ctrl-R", "Search the history.");
        }
        m.arguments(spec);
        m.options(spec);
        m.exitStatus(spec);
        m.footer(spec);
        boolean colour = spec.optionsMap().containsKey("--no-color");
        if (colour || c.getCommandName().equals("shell")) {
            m.environment(c.getCommandName().equals("shell"));
        }
        if (c.getCommandName().equals("shell")) {
            m.files();
        }
        m.section("SEE ALSO");
        m.raw("\\fBsegtool\\fR(1)");
        return m.toString();
    }

    // ---- sections ------------------------------------------------------------------------------------------

    private void header(String name, CommandSpec spec) {
        raw(".\\\" " + name + "(1): generated from the picocli model by segtool.shell.docs.Docs; do not edit.");
        raw(".\\\" Regenerate from the repository root: " + Docs.REGENERATE);
        raw(".TH \"" + esc(name.toUpperCase()) + "\" 1 \"\" \"segtool " + esc(Version.current())
                + "\" \"segtool manual\"");
        raw(".nh");
        raw(".ad l");
        section("NAME");
        raw(esc(name) + " \\- " + esc(lowerFirst(trimPeriod(firstLine(spec)))));
    }

    private void shellCommands(CommandLine root, CommandLine shell) {
        List<CommandLine> seen = new ArrayList<>();
        for (CommandLine s : shell.getSubcommands().values()) {
            if (s.getParent() != shell || root.getSubcommands().containsKey(s.getCommandName())
                    || s.getCommandSpec().usageMessage().hidden() || seen.contains(s)) {
                continue;
            }
            seen.add(s);
            String[] aliases = s.getCommandSpec().aliases();
            String name = s.getCommandName() + (aliases.length > 0 ? ", " + String.join(", ", aliases) : "");
            PositionalParamSpec p = s.getCommandSpec().positionalParameters().isEmpty() ? null
                    : s.getCommandSpec().positionalParameters().get(0);
            item(name + (p == null ? "" : " " + p.paramLabel()), firstLine(s.getCommandSpec()));
        }
        item("clear, cls", "Clear the screen.");
        item("help [COMMAND]", "List the commands, or show one command's help.");
    }

    private void arguments(CommandSpec spec) {
        List<PositionalParamSpec> params = new ArrayList<>();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                params.add(p);
            }
        }
        if (params.isEmpty()) {
            return;
        }
        section("ARGUMENTS");
        for (PositionalParamSpec p : params) {
            raw(".TP");
            raw("\\fI" + esc(p.paramLabel()) + "\\fR" + (p.arity().min() == 0 ? " (optional)" : ""));
            text(describe(p.description(), p.defaultValue(), null));
        }
    }

    private void options(CommandSpec spec) {
        List<OptionSpec> options = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                options.add(o);
            }
        }
        if (options.isEmpty()) {
            return;
        }
        options.sort(Comparator.comparing(o -> o.longestName().replaceFirst("^-+", "")));
        section("OPTIONS");
        for (OptionSpec o : options) {
            raw(".TP");
            List<String> names = new ArrayList<>();
            for (String n : o.names()) {
                names.add("\\fB" + esc(n) + "\\fR");
            }
            String value = "";
            if (o.arity().max() > 0) {
                value = (o.arity().min() == 0 ? "[=" : "=") + "\\fI" + esc(o.paramLabel()) + "\\fR"
                        + (o.arity().min() == 0 ? "]" : "");
            }
            raw(String.join(", ", names) + value);
            List<String> candidates = new ArrayList<>();
            if (o.completionCandidates() != null) {
                o.completionCandidates().forEach(candidates::add);
            }
            text(describe(o.description(), o.defaultValue(), candidates));
        }
    }

    private void exitStatus(CommandSpec spec) {
        Map<String, String> codes = spec.usageMessage().exitCodeList();
        if (codes.isEmpty()) {
            return;
        }
        section("EXIT STATUS");
        for (Map.Entry<String, String> e : codes.entrySet()) {
            item(e.getKey().trim(), e.getValue());
        }
        paragraph(ExitCode.PRECEDENCE_TEXT);
    }

    /** The footer: lines after "Examples:" become EXAMPLES (verbatim), the rest NOTES paragraphs. */
    private void footer(CommandSpec spec) {
        String[] footer = spec.usageMessage().footer();
        List<String> notes = new ArrayList<>();
        List<String> examples = new ArrayList<>();
        boolean inExamples = false;
        for (String line : footer) {
            String l = line.replace("%n", "");
            if (l.trim().equals("Examples:")) {
                inExamples = true;
            } else if (inExamples) {
                examples.add(l.strip());
            } else if (line.startsWith("%n") || notes.isEmpty()) {
                notes.add(l);
            } else {
                notes.set(notes.size() - 1, notes.get(notes.size() - 1) + "\n" + l);
            }
        }
        if (!notes.isEmpty()) {
            section("NOTES");
            for (String n : notes) {
                if (n.contains("\n")) {
                    raw(".PP");
                    raw(".nf");
                    raw(escLines(n));
                    raw(".fi");
                } else {
                    paragraph(n);
                }
            }
        }
        if (!examples.isEmpty()) {
            section("EXAMPLES");
            raw(".nf");
            raw(".RS 4");
            for (String e : examples) {
                raw(escLines(e));
            }
            raw(".RE");
            raw(".fi");
        }
    }

    private void environment(boolean full) {
        section("ENVIRONMENT");
        item("NO_COLOR", "When set (to anything), no colour, as with --no-color. Colour is also off when output "
                + "is not a terminal and on a dumb terminal.");
        item("TERM", "dumb turns off colour, the progress bar and line editing.");
        if (full) {
            item("SEGTOOL_HISTORY", "The shell's history file (default ~/.segtool_history).");
            item("SEGTOOL_NO_PROGRESS", "When set, no progress bar while judging.");
            item("SEGTOOL_JAVA_OPTS", "Extra JVM flags for the segtool launcher script.");
        }
    }

    private void files() {
        section("FILES");
        item("~/.segtool_history", "History of the interactive shell (see SEGTOOL_HISTORY).");
    }

    // ---- roff primitives -----------------------------------------------------------------------------------

    private void section(String name) {
        raw(".SH " + name);
    }

    private void item(String tag, String text) {
        raw(".TP");
        raw("\\fB" + esc(tag) + "\\fR");
        text(text);
    }

    private void paragraph(String text) {
        raw(".PP");
        text(text.replaceFirst("^%n", ""));
    }

    /** Running text: picocli's %n becomes a line break. */
    private void text(String text) {
        String[] parts = text.split("%n", -1);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                raw(".br");
            }
            if (!parts[i].isBlank()) {
                raw(escLines(parts[i].strip()));
            }
        }
    }

    private void raw(String line) {
        b.append(line).append('\n');
    }

    static String esc(String s) {
        return s.replace("\\", "\\e").replace("-", "\\-").replace("'", "\\(aq");
    }

    /** Escapes, and protects lines that would start with a control character. */
    static String escLines(String s) {
        StringBuilder out = new StringBuilder();
        String[] lines = s.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = esc(lines[i]);
            if (l.startsWith(".") || l.startsWith("\\(aq")) {
                l = "\\&" + l;
            }
            out.append(i > 0 ? "\n" : "").append(l);
        }
        return out.toString();
    }

    private static String describe(String[] description, String defaultValue, List<String> candidates) {
        String d = String.join(" ", description);
        if (defaultValue != null) {
            d = d.replace("${DEFAULT-VALUE}", defaultValue);
        }
        if (candidates != null) {
            d = d.replace("${COMPLETION-CANDIDATES}", String.join(", ", candidates));
        }
        return d;
    }

    private static String firstLine(CommandSpec spec) {
        String[] d = spec.usageMessage().description();
        return d.length == 0 ? "" : d[0].replaceFirst("^%n", "");
    }

    private static String pageName(CommandLine c) {
        return "segtool-" + c.getCommandName();
    }

    private static String trimPeriod(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static String lowerFirst(String s) {
        if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isLowerCase(s.charAt(1))) {
            return Character.toLowerCase(s.charAt(0)) + s.substring(1);
        }
        return s;
    }

    @Override
    public String toString() {
        return b.toString();
    }
}
