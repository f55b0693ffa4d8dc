package segtool.shell;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The root command, {@code segtool}: its subcommands and the session they share. Build it with {@link CommandLines};
 * a bare {@code segtool} on a terminal is turned into the shell by {@link Main} before it gets here. The subcommands
 * are not in the annotation: {@link CommandLines} adds them from {@link #NAMES}, for a one-shot command line only the
 * one invoked (building the model of all of them is most of a short command's start-up).
 */
@Command(name = "segtool", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Inspect, judge and repair Apache Iggy partition segments offline.",
            "Predicts the server's boot-recovery verdict (RECOVERY.md) and explains it. Run without arguments on a "
                + "terminal (or `segtool shell`) for an interactive shell with completion and history."})
public final class Segtool implements Callable<Integer>, PlainCommand {
    /** Every subcommand's name, in the order the usage lists them. */
    static final String[] NAMES = {"scan", "explain", "segments", "index", "batches", "messages", "find", "hexdump",
        "stats", "repair", "rebuild-index", "restore", "pack", "sample", "shell", "salvage", "doctor", "compare",
        "collect", "plan", "apply", "generate-completion", "help"};

    private final ShellSession session;

    @Spec
    CommandSpec spec;

    Segtool(ShellSession session) {
        this.session = session;
    }

    public ShellSession session() {
        return session;
    }

    /**
     * The class of the subcommand {@code name}, or null. A switch rather than a table of class literals, so that
     * only the invoked command's class is loaded (each is named exactly as its {@code @Command}; a test checks).
     */
    static Class<?> subcommand(String name) {
        return switch (name) {
            case "scan" -> ScanCommand.class;
            case "explain" -> ExplainCommand.class;
            case "segments" -> SegmentsCommand.class;
            case "index" -> IndexCommand.class;
            case "batches" -> BatchesCommand.class;
            case "messages" -> MessagesCommand.class;
            case "find" -> FindCommand.class;
            case "hexdump" -> HexdumpCommand.class;
            case "stats" -> StatsCommand.class;
            case "repair" -> segtool.shell.repair.RepairCommand.class;
            case "rebuild-index" -> segtool.shell.repair.RebuildIndexCommand.class;
            case "restore" -> segtool.shell.repair.RestoreCommand.class;
            case "pack" -> PackCommand.class;
            case "sample" -> SampleCommand.class;
            case "shell" -> ShellCommand.class;
            case "salvage" -> SalvageCommand.class;
            case "doctor" -> DoctorCommand.class;
            case "compare" -> CompareCommand.class;
            case "collect" -> CollectCommand.class;
            case "plan" -> PlanCommand.class;
            case "apply" -> ApplyCommand.class;
            case "generate-completion" -> AutoComplete.GenerateCompletion.class;
            case "help" -> CommandLine.HelpCommand.class;
            default -> null;
        };
    }

    /** No command: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.USAGE;
    }
}
