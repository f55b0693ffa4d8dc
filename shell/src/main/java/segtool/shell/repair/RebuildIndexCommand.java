package segtool.shell.repair;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.repair.RepairJson;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.Version;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;

/** {@code rebuild-index SEGMENT|PARTITION}: a fresh index from the byte-0 walk, with the server's stride. */
@Command(name = "rebuild-index", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Replace a segment's index (or every segment's, for a partition) with one rebuilt from the "
                + "log as the server rebuilds it: an entry for the first non-empty batch, then one each time at "
                + "least 65,536 bytes of log have passed.",
            "Refuses when the walk from byte 0 does not reach the end of the log (a torn or damaged tail is "
                + "repair's job) and when the partition is refused. Dry run by default; --apply writes "
                + "<S>.index.staging, forces it, renames it over <S>.index and forces the directory, after copying "
                + "the old index into <partition>.segtool-quarantine.<time>/."},
        exitCodeListHeading = RepairCli.EXIT_HEADING,
        exitCodeList = {RepairCli.EXIT_0, RepairCli.EXIT_1, RepairCli.EXIT_2, RepairCli.EXIT_3, RepairCli.EXIT_4,
            RepairCli.EXIT_64, RepairCli.EXIT_130})
public final class RebuildIndexCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "A segment file (<S>.log or <S>.index) or a partition directory. Default: the open path.")
    Path path;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    RepairOptions repair;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path target = RepairCli.resolve(spec, path == null ? null : path.toString());
        Targets targets = segtool.shell.ShellSession.targets(spec, target);
        if (targets.kind() == Targets.Kind.DATA_DIRECTORY) {
            throw new CommandLine.ParameterException(spec.commandLine(), target + " is a data directory; "
                    + "rebuild-index takes a segment file or a partition directory");
        }
        PartitionPath partition = verdict.partitions(spec, targets).get(0);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PartitionInputs in = RepairCli.inputs(spec, List.of(partition), verdict).get(0);
        if (!in.judgeable()) {
            int code = RepairCli.notRepaired(in, err);
            err.flush();
            return code;
        }
        repair.noteDryRun(err);
        boolean given = verdict.commandLineDurable() != null;
        boolean text = !output.json && !output.quiet();
        String name = targets.segment() == null ? RepairCommand.name(partition, target)
                : target.getFileName().toString();
        // the mode and its warning come before the plan and before any question
        if (text) {
            out.println(name + ": " + in.durability().text());
            RepairCli.warnMode(in, given, out, "  WARNING: ");
            RepairCli.walOpen(in, out, "  ");
            out.flush();
        } else {
            RepairCli.warnMode(in, given, err, "segtool: WARNING: " + in.partition().directory() + ": ");
        }
        Repairer repairer = RepairCli.repairer(verdict, in, RepairCli.confirm(repair));
        Repairer.Outcome o = repairer.rebuildIndex(in.partition(), targets.segment(), in.durability().durable(),
                repair.apply, repair.force);
        RepairCli.warnForce(List.of(o), err);
        RepairCli.ioErrors(List.of(o), err);
        int exit = o.exitCode();
        if (output.json) {
            var report = RepairJson.report("rebuild-index", target.toString(), Version.current(),
                    in.durability().durable(), repair.apply, List.of(o), exit);
            RepairCli.sources(report, List.of(in));
            out.println(ScanJson.mapper().writeValueAsString(report));
        } else {
            RepairText.outcome(out, o, name, output.quiet());
        }
        out.flush();
        return exit;
    }
}
