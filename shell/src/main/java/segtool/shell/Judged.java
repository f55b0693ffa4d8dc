package segtool.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.layout.DataDirJudge;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.Selection;
import segtool.shell.options.VerdictOptions;

/**
 * A PATH resolved and judged: what every verdict-printing command starts from. Each partition is judged with the
 * inputs its data directory holds ({@code inputs}, parallel to {@code reports}): the topic's durability and the
 * frontier's checkpoint. A partition whose inputs refuse a verdict gets an {@code io_error} report whose message is
 * that refusal.
 */
public record Judged(Targets targets, String displayPath, List<PartitionReport> reports,
                     List<PartitionInputs> inputs, List<LatentDamage.Report> latent) {

    /** Resolves {@code path} (or the shell's open path), judges it, and shows progress on a terminal. */
    public static Judged of(CommandSpec spec, String path, VerdictOptions verdict, OutputOptions output, boolean both)
            throws Exception {
        return of(spec, path == null ? List.of() : List.of(path), null, verdict, output, both);
    }

    /** As the next, without the latent-damage check. */
    public static Judged of(CommandSpec spec, List<String> paths, Selection selection, VerdictOptions verdict,
                            OutputOptions output, boolean both) throws Exception {
        return of(spec, paths, selection, verdict, output, both, false);
    }

    /**
     * As {@link #of(CommandSpec, String, VerdictOptions, OutputOptions, boolean)} for several PATHs (none: the open
     * path), each resolved on its own and their partitions judged together, narrowed to {@code selection} (null:
     * all). Several PATHs are named from their common parent, so that {@code node-1:s1/t1/p1} and
     * {@code node-2:s1/t1/p1} stay apart; a partition named twice is judged once. With {@code latent}, each
     * verdict's latent-damage check (analyzers' {@link LatentDamage}: the bytes boot does not read, verified);
     * {@code latent} entries are null where it did not run.
     */
    public static Judged of(CommandSpec spec, List<String> paths, Selection selection, VerdictOptions verdict,
                            OutputOptions output, boolean both, boolean latent) throws Exception {
        return of(spec, paths, selection, verdict, output, both, latent, RecoveryOptions.defaultThreads());
    }

    /** As the previous, judging on {@code threads} cores ({@link DataDirJudge}); never changes a verdict. */
    public static Judged of(CommandSpec spec, List<String> paths, Selection selection, VerdictOptions verdict,
                            OutputOptions output, boolean both, boolean latent, int threads) throws Exception {
        List<String> given = paths.isEmpty() ? java.util.Collections.singletonList(null) : paths;
        List<Targets> all = new ArrayList<>();
        for (String path : given) {
            all.add(ShellSession.targets(spec, ShellSession.resolve(spec, path)));
        }
        Targets targets = all.size() == 1 ? all.get(0) : merged(all);
        if (selection != null) {
            targets = selection.apply(targets);
        }
        String path = paths.isEmpty() ? null : String.join(" ", paths);
        List<PartitionPath> partitions = verdict.partitions(spec, targets);
        InputsResolver resolver = new InputsResolver(verdict.inputs(spec));
        RecoveryOptions options = verdict.engineOptions().withCheckpoint(null).withThreads(threads);
        DataDirJudge judge = new DataDirJudge(options, threads);
        Judged result;
        picocli.CommandLine.Model.OptionSpec forced = spec.findOption(Progress.OPTION);
        try (Progress progress = Progress.start(output, "judging", forced != null
                && Boolean.TRUE.equals(forced.getValue()), segtool.shell.render.Terminals.width(
                ShellSession.of(spec).terminal()), System.err)) {
            List<DataDirJudge.WithInputs> judged = judge.judge(partitions, resolver, both, latent, progress);
            // An interrupt during a read closes the channel and surfaces as an I/O error in the report; the flag
            // is still set, and it means "cancelled", not "cannot read".
            if (Thread.interrupted()) {
                throw new Cancelled();
            }
            List<PartitionInputs> inputs = new ArrayList<>();
            List<PartitionReport> reports = new ArrayList<>();
            List<LatentDamage.Report> checked = new ArrayList<>();
            for (DataDirJudge.WithInputs j : judged) {
                PartitionInputs in = j.inputs();
                inputs.add(in);
                reports.add(j.report() != null ? j.report()
                        : PartitionReport.notJudged(in.partition(), false, in.refusalLine()));
                checked.add(j.latent());
            }
            String shown = path != null ? path : String.valueOf(ShellSession.of(spec).openPath());
            result = new Judged(targets, shown, reports, inputs, checked);
        } catch (InterruptedException e) {
            throw new Cancelled();
        }
        // An I/O error reading a partition (not a refusal of its inputs) is the report's (stdout, exit 3) and also
        // one line on stderr, once the progress bar is gone, so that it reaches the terminal when the report goes to
        // a file or a pipe (--json > out.json).
        java.io.PrintWriter err = spec.commandLine().getErr();
        for (PartitionReport r : result.reports) {
            if (r.outcome() == PartitionReport.Outcome.IO_ERROR && r.ioFailure() != null) {
                err.println("segtool: " + r.ioError());
            }
        }
        for (PartitionInputs in : result.inputs) {
            if (in.unreadable()) {
                err.println("segtool: " + in.refusalLine());
            }
        }
        err.flush();
        return result;
    }

    /** Several PATHs as one: their partitions in order (each once), named from the PATHs' common parent. */
    private static Targets merged(List<Targets> all) {
        java.util.Set<Path> seen = new java.util.HashSet<>();
        List<PartitionPath> partitions = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Path base = null;
        for (Targets t : all) {
            Path abs = t.path().toAbsolutePath().normalize();
            Path dir = t.kind() == Targets.Kind.SEGMENT ? abs.getParent() : abs;
            base = base == null ? dir.getParent() : common(base, dir);
            for (PartitionPath p : t.partitions()) {
                if (seen.add(p.directory().toAbsolutePath().normalize())) {
                    partitions.add(p);
                }
            }
            skipped.addAll(t.skipped());
        }
        return new Targets(Targets.Kind.DATA_DIRECTORY, base == null ? Path.of("/") : base, partitions, null,
                skipped);
    }

    private static Path common(Path a, Path b) {
        Path p = a;
        while (p != null && !b.startsWith(p)) {
            p = p.getParent();
        }
        return p;
    }

    /** The exit code of the verdicts ({@link ExitCode#ofReports}), narrowed to the segment PATH names, if any. */
    public int exitCode() {
        return exitCode(targets.segment());
    }

    /**
     * The exit code of the verdicts narrowed to {@code segment} (null: whole partitions). A partition without a
     * verdict counts 2 when the server itself refuses it (or the node), 64 when the command line contradicts the
     * metadata, and 3 when segtool cannot decide its inputs.
     */
    public int exitCode(Long segment) {
        int worst = ExitCode.CLEAN;
        for (int i = 0; i < reports.size(); i++) {
            PartitionInputs in = inputs.get(i);
            int code;
            if (in.judgeable()) {
                code = ExitCode.of(reports.get(i), segment == null ? null : s -> s == segment, latent.get(i));
            } else {
                code = ExitCode.of(in.refusal());
            }
            worst = ExitCode.combine(worst, code);
        }
        return worst;
    }
}
