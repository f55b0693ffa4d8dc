package segtool.shell;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The root command, {@code segtool}: its subcommands and the session they share. Build it with {@link CommandLines};
 * a bare {@code segtool} on a terminal is turned into the shell by {@link Main} before it gets here.
 */
@Command(name = "segtool", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Inspect, judge and repair Apache Iggy partition segments offline.",
            "Predicts the server's boot-recovery verdict (RECOVERY.md) and explains it. Run without arguments on a "
                + "terminal (or `segtool shell`) for an interactive shell with completion and history."},
        subcommands = {ScanCommand.class, ExplainCommand.class, SegmentsCommand.class, IndexCommand.class,
            BatchesCommand.class, MessagesCommand.class, FindCommand.class, HexdumpCommand.class, StatsCommand.class,
            segtool.shell.repair.RepairCommand.class, segtool.shell.repair.RebuildIndexCommand.class,
            segtool.shell.repair.RestoreCommand.class, PackCommand.class, SampleCommand.class, ShellCommand.class,
            SalvageCommand.class, DoctorCommand.class,
            CompareCommand.class, CollectCommand.class, PlanCommand.class, ApplyCommand.class,
            AutoComplete.GenerateCompletion.class, CommandLine.HelpCommand.class})
public final class Segtool implements Callable<Integer>, PlainCommand {
    private final ShellSession session;

    @Spec
    CommandSpec spec;

    Segtool(ShellSession session) {
        this.session = session;
    }

    public ShellSession session() {
        return session;
    }

    /** No command: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }
}
