package segtool.shell;

/** Documented exit codes, shared by every command (see {@code segtool --help} and segtool(1)). */
public final class ExitCodes {
    /** Everything is clean: recovery would change nothing. */
    public static final int CLEAN = 0;
    /** Recovery would change files: truncate, rebuild, fence, or delete scratch/orphan files. */
    public static final int CHANGES = 1;
    /** Recovery would refuse at least one partition. */
    public static final int REFUSED = 2;
    /** I/O errors prevented a verdict. */
    public static final int IO_ERROR = 3;
    /** The command line was wrong, or PATH names nothing segtool can open. */
    public static final int USAGE = 64;

    public static final String HELP = "%nExit codes:%n"
            + "  0   everything is clean%n"
            + "  1   recovery would change files (truncate, rebuild, fence)%n"
            + "  2   recovery would refuse at least one partition%n"
            + "  3   I/O errors prevented a verdict%n"
            + "  64  usage error%n";

    private ExitCodes() {
    }

    /** The exit code of a set of partition severities (0-3): the worst wins. */
    public static int worst(int a, int b) {
        return Math.max(a, b);
    }
}
