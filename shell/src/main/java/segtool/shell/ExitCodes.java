package segtool.shell;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Documented exit codes, shared by every command (see {@code segtool <command> --help} and segtool(1)). The numbers
 * mean the same everywhere; what "clean" means depends on the kind of command, so each command's help lists the
 * reading that applies to it ({@link #apply}).
 */
public final class ExitCodes {
    /** Everything is clean: recovery would change nothing (or: what was read verifies). */
    public static final int CLEAN = 0;
    /** Recovery would change files: truncate, rebuild, fence, or delete scratch/orphan files (or: reading met damage). */
    public static final int CHANGES = 1;
    /** Recovery would refuse at least one partition. */
    public static final int REFUSED = 2;
    /** I/O errors prevented a verdict. */
    public static final int IO_ERROR = 3;
    /** The command line was wrong, or PATH names nothing segtool can open. */
    public static final int USAGE = 64;
    /** The command was interrupted (Ctrl-C in the shell); 128 + SIGINT, as shells report it. */
    public static final int CANCELLED = 130;

    /** How a command's exit code reads. */
    public enum Kind { VERDICT, READ, PLAIN, ALL }

    private ExitCodes() {
    }

    /** The exit code of a set of partition severities (0-3): the worst wins. */
    public static int worst(int a, int b) {
        return Math.max(a, b);
    }

    /** The exit-code list of a kind of command, in order, for help and man pages. */
    public static Map<String, String> list(Kind kind) {
        Map<String, String> m = new LinkedHashMap<>();
        switch (kind) {
            case VERDICT:
                m.put("0", "clean: boot recovery would accept everything as it is");
                m.put("1", "recovery would change files (truncate, rebuild an index, fence, delete scratch files)");
                m.put("2", "recovery would refuse at least one partition");
                break;
            case ALL:
                m.put("0", "clean: recovery would accept everything as it is; for read commands, all intact");
                m.put("1", "recovery would change files; for read commands, reading met damage");
                m.put("2", "recovery would refuse at least one partition");
                break;
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
        m.put("3", "an I/O error prevented reading or judging");
        m.put("64", "usage error: bad arguments, or PATH names nothing segtool can open");
        m.put("130", "cancelled (Ctrl-C in the shell)");
        return m;
    }

    /** Puts the exit-code list into the help of {@code cmd} and every subcommand that has none yet. */
    public static void apply(CommandLine cmd, Kind kind) {
        CommandSpec spec = cmd.getCommandSpec();
        String[] footer = spec.usageMessage().footer();
        boolean inFooter = footer != null && String.join("", footer).contains("Exit codes");
        if (spec.usageMessage().exitCodeList().isEmpty() && !inFooter) {
            spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(list(kind));
        }
    }
}
