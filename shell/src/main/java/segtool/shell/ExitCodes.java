package segtool.shell;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;

/**
 * How the exit codes are documented in each command's help and man page. The numbers, their precedence and their
 * derivation from results live in {@link ExitCode} alone; the constants here are the same numbers, named for the
 * shell's code. What "clean" means depends on the kind of command, so each command's help lists the reading that
 * applies to it ({@link #apply}).
 */
public final class ExitCodes {
    public static final int CLEAN = ExitCode.CLEAN;
    public static final int CHANGES = ExitCode.CHANGES;
    public static final int REFUSED = ExitCode.REFUSED;
    public static final int IO_ERROR = ExitCode.IO_ERROR;
    public static final int IN_USE = ExitCode.IN_USE;
    public static final int INCOMPLETE = ExitCode.INCOMPLETE;
    public static final int LATENT = ExitCode.LATENT;
    public static final int USAGE = ExitCode.USAGE;
    public static final int CANCELLED = ExitCode.CANCELLED;
    public static final int TERMINATED = ExitCode.TERMINATED;

    /** The heading of every command's exit-code list: it carries the precedence for mixed results. */
    public static final String HEADING = "%nWhen results are mixed, the most urgent code wins: "
            + String.join(" ", ExitCode.PRECEDENCE.stream().map(String::valueOf).toList()) + ".%nExit codes:%n";

    /** How a command's exit code reads. */
    public enum Kind { VERDICT, READ, PLAIN, ALL }

    private ExitCodes() {
    }

    /**
     * The one rule for an offset, position or timestamp the data does not reach (past the end, or below the first
     * segment): the same in find, messages, batches and hexdump. It is a bad argument, not damage: one line on
     * stderr naming what the data holds, and {@link ExitCode#USAGE}; whatever the command printed still says it.
     */
    public static int notInData(java.io.PrintWriter err, String line) {
        err.println("segtool: " + line);
        err.flush();
        return USAGE;
    }

    /** The exit-code list of a kind of command, in order, for help and man pages. */
    public static Map<String, String> list(Kind kind) {
        Map<String, String> m = new LinkedHashMap<>();
        switch (kind) {
            case VERDICT:
                m.put("0", "clean: boot recovery would accept everything as it is");
                m.put("1", "boot would change files (recovery: truncate, rebuild an index, fence, delete scratch files; or "
                        + "the prepare WAL open before it: cut, replace or delete a segment file)");
                m.put("2", "recovery would refuse at least one partition");
                m.put("5", "scan, explain: the server would boot, but records below the last index entry of a segment "
                        + "(durable mode, not read at boot) fail verification: readers will fail there; "
                        + "--no-latent skips the check");
                break;
            case ALL:
                for (Map.Entry<Integer, String> e : ExitCode.meanings().entrySet()) {
                    m.put(String.valueOf(e.getKey()), e.getValue());
                }
                return m;
            case READ:
                m.put("0", "everything read is intact (headers decode, records verify)");
                m.put("1", "reading met damage or an inconsistency, reported in the output (see `explain`)");
                m.put("2", "(not used by this command)");
                break;
            default:
                m.put("0", "success");
                m.put("1", "(not used by this command)");
                m.put("2", "(not used by this command)");
                break;
        }
        m.put("3", ExitCode.meanings().get(ExitCode.IO_ERROR));
        m.put("64", ExitCode.meanings().get(ExitCode.USAGE));
        m.put("130", "cancelled (Ctrl-C)");
        m.put("143", terminated("cancelled (Ctrl-C)"));
        return m;
    }

    /**
     * Puts the exit-code list into the help of {@code cmd} when it has none yet, and the precedence into the heading
     * of every list (commands that declare their own list, such as repair, keep it).
     */
    public static void apply(CommandLine cmd, Kind kind) {
        CommandSpec spec = cmd.getCommandSpec();
        String[] footer = spec.usageMessage().footer();
        boolean inFooter = footer != null && String.join("", footer).contains("Exit codes");
        if (spec.usageMessage().exitCodeList().isEmpty() && !inFooter) {
            spec.usageMessage().exitCodeList(list(kind));
        }
        Map<String, String> codes = spec.usageMessage().exitCodeList();
        if (codes.containsKey("130") && !codes.containsKey("143")) {
            Map<String, String> with = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : codes.entrySet()) {
                with.put(e.getKey(), e.getValue());
                if (e.getKey().equals("130")) {
                    with.put("143", terminated(e.getValue()));
                }
            }
            spec.usageMessage().exitCodeList(with);
        }
        if (!spec.usageMessage().exitCodeList().isEmpty()) {
            spec.usageMessage().exitCodeListHeading(HEADING);
        }
    }

    /**
     * The 143 line of a command's list, from its 130 line: SIGTERM stops a command exactly as Ctrl-C does
     * ({@link Interrupts}), so only the signal differs ("cancelled (Ctrl-C); OUT was not created" gives
     * "terminated (SIGTERM); OUT was not created"). Every list that has 130 gets it, so none can forget it.
     */
    static String terminated(String cancelled) {
        String rest = cancelled.replaceFirst("^cancelled( \\(Ctrl-C[^)]*\\))?", "");
        return rest.equals(cancelled) ? "terminated (SIGTERM), as 130: " + cancelled : "terminated (SIGTERM)" + rest;
    }
}
