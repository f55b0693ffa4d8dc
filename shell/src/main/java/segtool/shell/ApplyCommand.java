package segtool.shell;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.replica.PlanApply;
import segtool.analyzers.replica.PlanFile;
import segtool.analyzers.report.ScanJson;
import segtool.formats.io.U64;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;

/** {@code apply --plan PLAN --donor-dir DIR}: this node's share of a plan, through repair's quarantine and journal. */
@Command(name = "apply", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Carry out this node's share of a segtool.plan/2 plan: take the planned segment ranges "
                + "from the donor's files in --donor-dir. A dry run unless --apply.",
            "%nEvery precondition is checked again first: no process uses the data (as for `repair`), the local "
                + "files are still the length and XXH3-64 they had when collected, and the donor's files in "
                + "--donor-dir are the length and XXH3-64 the donor's manifest recorded. A partition whose "
                + "preconditions no longer hold is refused and not touched. The copying goes through the same "
                + "quarantine, journal and crash safety as `repair --apply` (docs/repair.md); `restore` undoes it."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:applied, and boot recovery now accepts the partitions as they are; or nothing to do",
            "1:dry run: files would change; or still not clean after --apply (see `scan`)",
            "2:refused: a precondition no longer holds (a local byte changed since collect, the donor's files "
                + "differ or are missing); nothing changed",
            "3:an I/O error, or inputs segtool cannot read or decide (as `scan`)",
            "4:another process has files of the data open, or holds the partition's lock; nothing changed",
            "64:usage error, or a --durability that contradicts the topic's metadata (as `scan`)",
            "130:cancelled (Ctrl-C)"},
        footer = {"%nExamples:",
            "  segtool apply --plan plan.json --node broker-2 --donor-dir /mnt/from-broker-1/local_data",
            "  segtool apply --plan plan.json --donor-dir /mnt/donor --apply"})
public final class ApplyCommand implements Callable<Integer> {
    @Option(names = "--plan", required = true, paramLabel = "PLAN", description = "The segtool.plan/2 file (a /1 plan "
            + "reads the same).")
    Path plan;

    @Option(names = "--donor-dir", paramLabel = "DIR", description = "Where the donor's files are: its data "
            + "directory (streams/... below it) or, for a single partition, its partition directory.")
    Path donorDir;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the plan (default: the host "
            + "name, as `collect` records it).")
    String node;

    @Option(names = "--apply", description = "Make the changes (default: a dry run that checks and prints).")
    boolean apply;

    @Option(names = "--force", description = "Do not refuse when another process uses the data (loud).")
    boolean force;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PlanFile file = PlanFile.read(plan);
        String name = node != null ? node : CollectCommand.hostName();
        List<PlanFile.Entry> mine = file.of(name);
        if (mine.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), plan + ": names no node " + name
                    + " (pass --node as given to collect)");
        }
        boolean needsDonor = mine.stream().anyMatch(e -> "take".equals(e.action()));
        if (needsDonor && (donorDir == null || !Files.isDirectory(donorDir))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--donor-dir: " + (donorDir == null
                    ? "required: this node takes segments from " + mine.stream().filter(e -> "take".equals(
                            e.action())).findFirst().get().donor() : donorDir + ": not a directory"));
        }
        PrintWriter err = spec.commandLine().getErr();
        if (force && apply) {
            err.println("segtool: warning: --force: not checking whether a server uses the data");
        }
        PlanApply runner = new PlanApply(new ServerGuard()::check, new Applier(StepHook.NONE, Version.current()),
                verdict.engineOptions());
        List<PlanApply.Outcome> outcomes = new ArrayList<>();
        InputsResolver inputs = CompareCommand.resolver(spec, verdict);
        for (PlanFile.Entry e : mine) {
            try {
                outcomes.add(runner.run(e, donorDir, inputs, apply, force));
            } catch (segtool.analyzers.recovery.RecoveryEngine.Cancelled c) {
                throw Interrupts.after((int) outcomes.stream().filter(o -> "applied".equals(o.status())).count(),
                        "applied", c);
            }
        }
        int exit = ExitCode.CLEAN;
        for (PlanApply.Outcome o : outcomes) {
            exit = ExitCode.combine(exit, o.exitCode());
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            root.put("schema", "segtool.apply/2");
            root.put("plan", plan.toString());
            root.put("node", name);
            root.put("applied", apply);
            ArrayNode parts = root.putArray("partitions");
            for (PlanApply.Outcome o : outcomes) {
                ObjectNode x = parts.addObject();
                x.put("partition", o.key().label());
                x.put("path", o.partition() == null ? null : o.partition().toString());
                x.put("status", o.status());
                ArrayNode d = x.putArray("details");
                o.details().forEach(d::add);
                x.put("after", o.after() == null ? null : o.after().outcome());
                x.put("quarantine", o.quarantine() == null ? null : o.quarantine().toString());
                x.put("exit_code", o.exitCode());
            }
            root.put("exit_code", exit);
            out.println(ScanJson.mapper().writeValueAsString(root));
        } else {
            for (PlanApply.Outcome o : outcomes) {
                if (!output.quiet()) {
                    out.println(o.key().label() + " (" + o.partition() + "): " + o.status().replace('_', ' '));
                    for (String d : o.details()) {
                        out.println("  " + d);
                    }
                    if (o.quarantine() != null) {
                        out.println("  quarantine: " + o.quarantine() + " (undo with `segtool restore`)");
                    }
                }
                if (o.after() != null) {
                    out.println("  after: boot recovery " + (o.after().exitCode() == 0 ? "accepts it as it is"
                            : o.after().outcome() + (o.after().refusal() == null ? "" : ": " + o.after().refusal()))
                            + "; chain " + (o.after().chain().offsets() == 0 ? "empty" : U64.str(
                            o.after().chain().firstOffset()) + ".." + U64.str(o.after().chain().lastOffset())));
                }
            }
            out.println(apply ? "applied " + name + "'s share of " + plan : "dry run: nothing changed; pass --apply");
        }
        out.flush();
        return exit;
    }
}
