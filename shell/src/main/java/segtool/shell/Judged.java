package segtool.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.layout.DataDirJudge;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;

/** A PATH resolved and judged: what every verdict-printing command starts from. */
public record Judged(Targets targets, String displayPath, List<PartitionReport> reports) {

    /** Resolves {@code path} (or the shell's open path), judges it, and shows progress on a terminal. */
    public static Judged of(CommandSpec spec, String path, VerdictOptions verdict, OutputOptions output, boolean both)
            throws Exception {
        Path target = ShellSession.resolve(spec, path);
        Targets targets = Targets.resolve(target);
        List<PartitionPath> partitions = new ArrayList<>(targets.partitions());
        if (verdict.partitionId != null) {
            if (partitions.size() != 1) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--partition-id applies to a single partition, but " + target + " holds " + partitions.size());
            }
            partitions.set(0, partitions.get(0).withPartitionId(verdict.partitionId));
        }
        for (PartitionPath p : partitions) {
            if (p.partitionId() < 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), p.directory()
                        + ": the directory name is not a partition id; pass --partition-id N");
            }
        }
        RecoveryOptions options = verdict.engineOptions();
        DataDirJudge judge = new DataDirJudge(options, Runtime.getRuntime().availableProcessors());
        try (Progress progress = Progress.start(output, "judging")) {
            List<PartitionReport> reports = judge.judge(partitions, verdict.enforceFsync, both, progress);
            // An interrupt during a read closes the channel and surfaces as an I/O error in the report; the flag
            // is still set, and it means "cancelled", not "cannot read".
            if (Thread.interrupted()) {
                throw new Cancelled();
            }
            String shown = path != null ? path : String.valueOf(ShellSession.of(spec).openPath());
            return new Judged(targets, shown, reports);
        } catch (InterruptedException e) {
            throw new Cancelled();
        }
    }

    /** The exit code of the verdicts ({@link ExitCode#ofReports}), narrowed to the segment PATH names, if any. */
    public int exitCode() {
        return exitCode(targets.segment());
    }

    /** The exit code of the verdicts narrowed to {@code segment} (null: whole partitions). */
    public int exitCode(Long segment) {
        return ExitCode.ofReports(reports, segment == null ? null : s -> s == segment);
    }
}
