package segtool.shell.repair;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.repair.RepairJson;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.report.ScanJson;
import segtool.shell.Version;
import segtool.shell.options.OutputOptions;

/** {@code restore QUARANTINE}: put back, byte for byte, everything a repair removed. */
@Command(name = "restore", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Put back every byte a repair or rebuild-index copied into a quarantine directory: "
                + "truncated tails appended again, replaced or deleted files recreated (temporary file, forced, "
                + "renamed), fenced segments moved back, files segtool created removed. Works on a finished or "
                + "an interrupted repair.",
            "Checks first that every file is in a state segtool can have left; if the server has written since, "
                + "nothing is changed. Dry run by default; --apply restores. Running it again after a crash "
                + "finishes the job.",
            "A file with more than one hard link (a .log the prepare WAL retains as prepares-*/segment-*.log, "
                + "linked after the repair) is never written, in place or by a rename over it: writing in place "
                + "writes the WAL's copy too, and the WAL open re-creates the public name from its inode at every "
                + "boot (METADATA 6.7). restore refuses with one line naming the file, exit 2."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:restored, or nothing left to restore", "1:dry run: restore would change files",
            "2:a file changed since the repair (or gained a second hard link); nothing restored", "3:I/O error or damaged quarantine",
            RepairCli.EXIT_4, RepairCli.EXIT_64, RepairCli.EXIT_130})
public final class RestoreCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "QUARANTINE",
            description = "A <partition>.segtool-quarantine.<time> directory.")
    Path quarantine;

    @Mixin
    RepairOptions repair;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // QUARANTINE naming nothing, or a file, is a usage error like every other PATH (one line on stderr, exit 64,
        // no document); a directory is the repairer's to judge (a symlink is refused there, never followed)
        if (!java.nio.file.Files.exists(quarantine, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                || java.nio.file.Files.isSymbolicLink(quarantine) && !java.nio.file.Files.exists(quarantine)) {
            throw segtool.analyzers.layout.Targets.unreachable(quarantine);
        }
        if (!java.nio.file.Files.isSymbolicLink(quarantine) && !java.nio.file.Files.isDirectory(quarantine)) {
            throw new segtool.analyzers.layout.Targets.NotATarget(quarantine + ": not a directory; QUARANTINE is a "
                    + "<partition>.segtool-quarantine.<time> directory");
        }
        repair.noteDryRun(spec.commandLine().getErr());
        Repairer repairer = RepairCli.repairer(RecoveryEngine.MAX_MESSAGE_SIZE_UPPER_BYTES, plan -> true);
        Repairer.RestoreOutcome o = repairer.restore(quarantine, false, repair.force);
        if (repair.apply && o.error() == null && o.result().conflicts().isEmpty()
                && !o.result().actions().isEmpty()) {
            if (o.server().busy() && !repair.force) {
                o = repairer.restore(quarantine, true, false);
            } else if (ask(o)) {
                if (o.server().busy()) {
                    spec.commandLine().getErr().println("segtool: WARNING: --force: restoring although "
                            + String.join("; ", o.server().reasons()));
                }
                o = repairer.restore(quarantine, true, repair.force);
            }
        }
        if (o.error() != null) {
            // a refusal (a damaged quarantine, an I/O error) is an error, not a result: one line on stderr naming
            // the file, where in it and why, whatever the output mode; --json still prints its document
            PrintWriter err = spec.commandLine().getErr();
            err.println("segtool: " + o.error().lines().findFirst().orElse(""));
            err.flush();
        }
        if (output.json) {
            out.println(ScanJson.mapper().writeValueAsString(RepairJson.restore(Version.current(), o)));
        } else {
            print(out, o);
        }
        out.flush();
        return o.exitCode();
    }

    private boolean ask(Repairer.RestoreOutcome dry) {
        Console console = System.console();
        if (repair.yes || console == null) {
            return true;
        }
        console.writer().println(dry.partition() + ":");
        RepairText.restore(console.writer(), dry.result().actions());
        String a = segtool.shell.Interrupts.ask(console, "Restore these? [y/N] ");
        return a != null && (a.trim().equalsIgnoreCase("y") || a.trim().equalsIgnoreCase("yes"));
    }

    private void print(PrintWriter out, Repairer.RestoreOutcome o) {
        String head = o.quarantine() + " (" + o.stateBefore() + ")";
        if (o.error() != null) {
            return;
        }
        if (o.result() == null) {
            out.println(head + ": not changed: the data is in use:");
            o.server().reasons().forEach(r -> out.println("    " + r));
            out.println("  stop the server first; --force overrides this check (dangerous)");
            return;
        }
        if (!o.result().conflicts().isEmpty()) {
            out.println(head + ": not restored; these files changed after the repair:");
            RepairText.restore(out, o.result().conflicts());
            return;
        }
        if (o.result().actions().isEmpty()) {
            out.println(head + ": nothing to restore; " + o.partition() + " already holds the original bytes");
            return;
        }
        out.println(head + (o.result().applied() ? ": restored " + o.partition() + ":"
                : ": would restore " + o.partition() + " (dry run; --apply to do it):"));
        if (!output.quiet()) {
            RepairText.restore(out, o.result().actions());
        }
    }
}
