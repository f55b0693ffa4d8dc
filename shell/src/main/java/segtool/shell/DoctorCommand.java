package segtool.shell;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.doctor.Doctor;
import segtool.analyzers.doctor.DoctorJson;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.report.ScanJson;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.DoctorText;

/** {@code doctor PATH}: everything in a data directory that needs an operator, with the next command for each. */
@Command(name = "doctor", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Report what needs attention in a data directory or partition, with the exact next command "
                + "for each: refused partitions and why (with the offsets at stake), partitions boot would change, "
                + "<partition>.fenced.<n> directories (what they hold, which offsets, whether their bytes verify, "
                + "when they were fenced, how to re-admit them), pending segtool quarantines with their restore "
                + "command, scratch and orphan files, non-canonical segment names. Reads only.",
            "%n--json prints the segtool.doctor/1 report (docs/doctor-json.md)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:nothing needs attention", "1:something needs attention (listed); no partition is refused",
            "2:at least one partition is refused", "3:a partition or quarantine could not be read",
            "64:usage error", "130:cancelled (Ctrl-C)"},
        footer = {"%nExamples:", "  segtool doctor /var/lib/iggy", "  segtool doctor /var/lib/iggy --json | jq "
                + "'.findings[] | select(.kind == \"fence\")'"})
public final class DoctorCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PATH", description = "A data directory (holding streams/) or a partition.")
    Path target;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Targets t = ShellSession.targets(spec, ShellSession.resolve(spec, target));
        var partitions = t.partitions();
        if (verdict.partitionId != null) {
            partitions = partitions.stream().map(p -> p.withPartitionId(verdict.partitionId)).toList();
        }
        Doctor doctor = new Doctor(new RecoveryEngine(verdict.engineOptions()), "segtool");
        Doctor.Report r = doctor.examine(t.path(), partitions.stream().map(PartitionPath.class::cast).toList(),
                verdict.durable());
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(ScanJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(
                    DoctorJson.report(r, Version.current())));
        } else {
            DoctorText.report(out, r, output.quiet(), output.style());
        }
        out.flush();
        return r.exitCode();
    }
}
