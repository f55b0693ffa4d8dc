package segtool.shell.repair;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** The switches every mutating command shares. Without {@code --apply} nothing is changed. */
public final class RepairOptions {
    @Option(names = "--apply", description = "Change the files. Without it segtool only prints what it would do.")
    public boolean apply;

    @Option(names = "--force", description = "Change files even though a process holds files under the data "
            + "directory open (a running server). Dangerous: the server may overwrite the repair or serve stale data.")
    public boolean force;

    @Option(names = {"-y", "--yes"}, description = "Do not ask before applying (on a terminal --apply asks; "
            + "without a terminal --apply is the answer). --yes never implies --apply: without --apply the run is a "
            + "dry run, and says so.")
    public boolean yes;

    /** The note {@code --yes} without {@code --apply} gets: it answers a question this run does not ask. */
    public static final String YES_WITHOUT_APPLY = "--yes without --apply: this is a dry run and nothing is "
            + "changed; add --apply to change files";

    /** Says on {@code err} that {@code --yes} alone changed nothing (e2fsck -y changes files; segtool does not). */
    public void noteDryRun(PrintWriter err) {
        if (yes && !apply) {
            err.println("segtool: note: " + YES_WITHOUT_APPLY);
            err.flush();
        }
    }
}
