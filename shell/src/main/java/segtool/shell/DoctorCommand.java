package segtool.shell;

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
import segtool.analyzers.doctor.Doctor;
import segtool.analyzers.doctor.DoctorJson;
import segtool.analyzers.doctor.Finding;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.report.ScanJson;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.DoctorText;

/** {@code doctor PATH}: everything in a data directory that needs an operator, with the next command for each. */
@Command(name = "doctor", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Report what needs attention in a data directory or partition, with the exact next command "
                + "for each: refused partitions and why (with the offsets at stake), partitions without a verdict "
                + "(the server refuses the node or the partition before segment recovery, or their inputs cannot be "
                + "decided), partitions boot would change (the WAL's open included), <partition>.fenced.<n> "
                + "directories (what they hold, which offsets, whether their bytes verify, when they were fenced, "
                + "how to re-admit them), pending segtool quarantines with their restore command, scratch and "
                + "orphan files, non-canonical segment names, segment files that are symlinks to nothing. Each "
                + "partition is judged as scan judges it, with its topic's durability and its WAL checkpoint. Reads "
                + "only.",
            "%n--json prints the segtool.doctor/2 report (docs/doctor-json.md)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:nothing needs attention (a finished repair's quarantine is listed: kept for undo)",
            "1:something needs attention (listed); no partition is refused",
            "2:at least one partition is refused (by recovery, or by the server before it)",
            "3:a partition, its inputs or a quarantine could not be read",
            "5:latent damage is the worst finding: bytes boot does not read fail verification",
            "64:usage error, or a --durability that contradicts a topic's stored durability", "130:cancelled (Ctrl-C)"},
        footer = {"%nExamples:", "  segtool doctor /var/lib/iggy", "  segtool doctor /var/lib/iggy --json | jq "
                + "'.findings[] | select(.kind == \"fence\")'"})
public final class DoctorCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "A data directory (holding streams/), "
            + "a partition directory or a crash dump (DUMP or DUMP::PATH). Default: the open path.")
    Path target;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path resolved = ShellSession.resolve(spec, target);
        Targets t = ShellSession.targets(spec, resolved);
        if (t.segment() != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), resolved + ": names one segment; doctor examines "
                    + "whole partitions: pass " + t.partitions().get(0).directory() + " (or its data directory)");
        }
        // the partitions and their inputs exactly as scan takes them
        List<PartitionPath> partitions = verdict.partitions(spec, t);
        InputsResolver.CommandLine cli = verdict.inputs(spec);
        // a crash dump, named directly or by an address, or the open path being one: its extraction is read-only
        boolean dump = Dumps.inDump(resolved);
        Doctor doctor = new Doctor(verdict.engineOptions(), RecoveryOptions.defaultThreads(),
                new Doctor.Next("segtool", verdict.flags(), verdict.recordFlags(), dump));
        Doctor.Report r;
        try {
            r = doctor.examine(t.path(), partitions, cli);
        } catch (InterruptedException e) {
            throw new Cancelled();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(ScanJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(
                    DoctorJson.report(r, Version.current())));
        } else {
            DoctorText.report(out, r, output.quiet(), output.style());
        }
        out.flush();
        // a partition that could not be read is the report's (stdout) and also one line on stderr, as scan says it,
        // so that it reaches the terminal when the report goes to a file or a pipe
        PrintWriter err = spec.commandLine().getErr();
        for (Finding f : r.findings()) {
            if (f.kind() == Finding.Kind.UNREADABLE_PARTITION) {
                err.println("segtool: " + f.details().get("error"));
            } else if (f.kind() == Finding.Kind.NO_VERDICT && String.valueOf(f.details().get("reason"))
                    .startsWith(segtool.analyzers.inputs.PartitionInputs.UNREADABLE)) {
                err.println("segtool: " + f.details().get("reason"));
            }
        }
        err.flush();
        return r.exitCode();
    }
}
