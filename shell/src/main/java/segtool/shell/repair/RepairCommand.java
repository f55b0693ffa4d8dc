package segtool.shell.repair;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.DurabilitySource;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.repair.Confirm;
import segtool.analyzers.repair.RepairJson;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.Version;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.Verdicts;

/** {@code repair PARTITION|DATA_DIR}: do what the server's boot recovery would do, offline, losing nothing. */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Make a partition's files what the server's boot recovery would make them, so the next boot "
                + "finds nothing to do: sweep scratch and orphan files, install rebuilt indexes, truncate torn "
                + "tails (log before index), fence segments that recover empty. Refused partitions are explained "
                + "and left as they are, unless --accept-loss.",
            "Dry run by default. With --apply, every byte that leaves a file is first copied into "
                + "<partition>.segtool-quarantine.<time>/ beside the partition (with an XXH3-checked manifest); "
                + "`segtool restore` puts it back. An interrupted --apply is finished by running it again. Refuses "
                + "(exit 4) while another process has files under the data directory open, unless --force."},
        exitCodeListHeading = RepairCli.EXIT_HEADING,
        exitCodeList = {RepairCli.EXIT_0, RepairCli.EXIT_1, RepairCli.EXIT_2, RepairCli.EXIT_3, RepairCli.EXIT_4,
            RepairCli.EXIT_64, RepairCli.EXIT_130})
public final class RepairCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Partition directory or data directory. Default: the open path.")
    Path path;

    @Mixin
    segtool.shell.options.Selection selection;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    RepairOptions repair;

    @Mixin
    OutputOptions output;

    @Option(names = "--accept-loss", description = "For a refused partition: plan the cut that gets it to a state "
            + "the server boots, keeping the oldest records that verify and dropping what follows (docs/repair.md): "
            + "cut the log at the damage and move later segments aside, move the segments after a hole aside, or "
            + "rebuild an index from what the log proves. The dry run shows the offsets and bytes that leave the "
            + "live partition. With --apply (needs --salvage-to) the salvage archive is written first, then each "
            + "cut goes through the quarantine like any repair; restore the "
            + "quarantines newest first to undo. Refusals about sizes, partitions with a WAL checkpoint, and stray "
            + "non-canonical segment names are refused (exit 2). Needs the topic's real durability, from metadata/ "
            + "or --durability (exit 64 without either).")
    boolean acceptLoss;

    @Option(names = "--salvage-to", paramLabel = "DIR", description = "With --accept-loss --apply: where the "
            + "salvage archive (every record that verifies, with messages.ndjson) is written before any cut; must "
            + "not exist, or be the archive an interrupted accept-loss run wrote for this partition.")
    String salvageTo;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path target = RepairCli.resolve(spec, path == null ? null : path.toString());
        Targets targets = selection.apply(segtool.shell.ShellSession.targets(spec, target));
        if (targets.kind() == Targets.Kind.SEGMENT) {
            throw new CommandLine.ParameterException(spec.commandLine(), target + " is a segment file; repair takes "
                    + "the partition directory (rebuild-index takes a segment)");
        }
        if (salvageTo != null && !acceptLoss) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--salvage-to goes with --accept-loss");
        }
        if (acceptLoss && repair.apply && salvageTo == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "repair --accept-loss --apply needs "
                    + "--salvage-to DIR: the salvage archive of every record that verifies is written there before "
                    + "any cut");
        }
        List<PartitionPath> partitions = verdict.partitions(spec, targets);
        if (acceptLoss && salvageTo != null && partitions.size() != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--accept-loss --salvage-to takes one "
                    + "partition, but " + target + " holds " + partitions.size() + "; name the partition directory");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        repair.noteDryRun(err);
        Confirm confirm = RepairCli.confirm(repair);
        boolean given = verdict.commandLineDurable() != null;
        boolean text = !output.json && !output.silent();
        List<Repairer.Outcome> outcomes = new ArrayList<>();
        List<PartitionInputs> judged = new ArrayList<>();
        int skipped = ExitCode.CLEAN;
        List<PartitionInputs> inputs = RepairCli.inputs(spec, partitions, verdict);
        Repairer.Shared shared = new Repairer.Shared();
        if (acceptLoss && !given) {
            for (PartitionInputs in : inputs) {
                if (in.judgeable() && in.durability().source() == DurabilitySource.COMMAND_LINE) {
                    throw new CommandLine.ParameterException(spec.commandLine(), in.partition().directory()
                            + ": no metadata/ says this topic's durability, and what --accept-loss cuts depends on "
                            + "it (RECOVERY 1, 14); pass --durability=persisted|replicated, the topic's real setting");
                }
            }
        }
        for (PartitionInputs in : inputs) {
            if (!in.judgeable()) {
                skipped = ExitCode.combine(skipped, RepairCli.notRepaired(in, err));
                continue;
            }
            // the mode and its warning come before the plan and before any question: they change what is planned
            if (text && !output.quiet()) {
                out.println(name(in.partition(), target) + ": " + in.durability().text());
                RepairCli.warnMode(in, given, out, "  WARNING: ");
                RepairCli.walOpen(in, out, "  ");
                out.flush();
            } else {
                RepairCli.warnMode(in, given, err, "segtool: WARNING: " + in.partition().directory() + ": ");
            }
            var repairer = RepairCli.repairer(verdict, in, confirm, shared);
            boolean durable = in.durability().durable();
            try {
                outcomes.add(acceptLoss
                        ? repairer.acceptLoss(in.partition(), durable, repair.apply, repair.force,
                        salvageTo == null ? null : Path.of(salvageTo), Version.current())
                        : repairer.repair(in.partition(), durable, repair.apply, repair.force));
            } catch (segtool.analyzers.recovery.RecoveryEngine.Cancelled c) {
                throw segtool.shell.Interrupts.after((int) outcomes.stream()
                        .filter(o -> o.status() == Repairer.Status.APPLIED).count(), "repaired", c);
            }
            judged.add(in);
        }
        RepairCli.warnForce(outcomes, err);
        RepairCli.ioErrors(outcomes, err);
        int exit = ExitCode.combine(RepairCli.worst(outcomes), skipped);
        if (output.json) {
            var report = RepairJson.report("repair", target.toString(), Version.current(), verdict.durable(),
                    repair.apply, outcomes, exit);
            RepairCli.sources(report, judged);
            out.println(ScanJson.mapper().writeValueAsString(report));
        } else if (text) {
            for (int i = 0; i < outcomes.size(); i++) {
                Repairer.Outcome o = outcomes.get(i);
                RepairText.outcome(out, o, name(o.partition(), target), output.quiet());
                if (o.loss() != null && !output.quiet()) {
                    RepairText.loss(out, o);
                } else if (o.status() == Repairer.Status.REFUSED && !output.quiet()) {
                    segtool.shell.render.LossText.print(out, segtool.analyzers.salvage.AtStake.survey(o.before(),
                            verdict.maxMessageSizeUpper + 256), o.before(), "  ", 0, verdict.flags(),
                            verdict.recordFlags(), false);   // repair refuses a crash dump before judging
                }
            }
            if (partitions.isEmpty()) {
                out.println(target + ": no partitions");
            }
        }
        out.flush();
        return exit;
    }

    static String name(PartitionPath p, Path base) {
        return Verdicts.name(p, base);
    }

    static String summary(Repairer.Outcome o) {
        return o.before() == null ? "-" : Verdicts.summary(o.before());
    }
}
