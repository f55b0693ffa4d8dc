package segtool.shell.repair;

import picocli.CommandLine.Option;

/** The switches every mutating command shares. Without {@code --apply} nothing is changed. */
public final class RepairOptions {
    @Option(names = "--apply", description = "Change the files. Without it segtool only prints what it would do.")
    public boolean apply;

    @Option(names = "--force", description = "Change files even though a process holds files under the data "
            + "directory open (a running server). Dangerous: the server may overwrite the repair or serve stale data.")
    public boolean force;

    @Option(names = {"-y", "--yes"}, description = "Do not ask before applying (on a terminal --apply asks; "
            + "without a terminal --apply is the answer).")
    public boolean yes;
}
