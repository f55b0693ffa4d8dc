package segtool.shell;

import com.github.freva.asciitable.AsciiTable;
import com.github.freva.asciitable.Column;
import com.github.freva.asciitable.HorizontalAlign;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.report.ScanJson;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.Verdicts;

/** {@code scan PATH}: the verdict boot recovery would reach, per partition or per segment, worst first. */
@Command(name = "scan", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Predict the server's boot-recovery verdict for a data directory, partition or segment.",
            "%nNothing is changed. A data directory gets one row per partition, worst first; a partition or "
                + "segment gets one row per segment.",
            "Each partition is judged with the durability its topic has on disk (metadata/snapshot.bin advanced by "
                + "metadata/journal.wal) and the checkpoint its prepares-<created_revision>/frontier holds; both are "
                + "printed with where they came from. Without metadata/, --durability (default replicated) is used "
                + "and that is said on every verdict. Where the server itself refuses (a stored enforce_fsync = "
                + "true, unreadable metadata, a PrepareWal refusal) or the spec leaves a case open, the partition "
                + "gets one line instead of a verdict."},
        footer = {"%nExamples:",
            "  segtool scan /var/lib/iggy/local_data",
            "  segtool scan PARTITION --durability=persisted --json"})
public final class ScanCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Data directory, partition directory, segment file or crash dump. Default: the open path.")
    Path path;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Judged judged = Judged.of(spec, path == null ? null : path.toString(), verdict, output, false);
        PrintWriter out = spec.commandLine().getOut();
        int exit = judged.exitCode();
        if (output.json) {
            out.println(ScanJson.mapper().writeValueAsString(
                    ScanJson.report(judged.displayPath(), Version.current(), verdict.durable(), judged.reports(),
                            judged.inputs(), exit)));
            out.flush();
            return exit;
        }
        if (!output.quiet()) {
            out.println(judged.reports().size() > 1
                    ? partitionTable(judged, judged.targets().path()) : segmentTable(judged));
        }
        if (judged.reports().size() == 1) {
            for (String line : Inputs.lines(judged.inputs().get(0))) {
                out.println(line);
            }
        } else {
            for (String line : Inputs.notes(judged.inputs())) {
                out.println(line);
            }
        }
        if (judged.reports().size() == 1) {
            PartitionReport r = judged.reports().get(0);
            out.println(Verdicts.name(r, judged.targets().path()) + ": " + Verdicts.summary(r));
        } else {
            out.println(Verdicts.tally(judged.reports()));
        }
        out.flush();
        return exit;
    }

    private static String partitionTable(Judged judged, java.nio.file.Path base) {
        List<PartitionReport> rows = new ArrayList<>(judged.reports());
        java.util.Map<PartitionReport, segtool.analyzers.inputs.PartitionInputs> inputs = new java.util.IdentityHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            inputs.put(rows.get(i), judged.inputs().get(i));
        }
        rows.sort(Comparator.comparingInt(PartitionReport::severity).reversed()
                .thenComparing(r -> r.partition().directory().toString()));
        return AsciiTable.getTable(AsciiTable.BASIC_ASCII_NO_DATA_SEPARATORS, rows, List.of(
                new Column().header("PARTITION").dataAlign(HorizontalAlign.LEFT).with(r -> Verdicts.name(r, base)),
                new Column().header("OUTCOME").dataAlign(HorizontalAlign.LEFT).with(r -> r.outcome().json()),
                new Column().header("SEGMENTS").dataAlign(HorizontalAlign.RIGHT)
                        .with(r -> Integer.toString(r.segments().size())),
                new Column().header("INPUTS").dataAlign(HorizontalAlign.LEFT).maxWidth(110)
                        .with(r -> Inputs.cell(inputs.get(r))),
                new Column().header("VERDICT").dataAlign(HorizontalAlign.LEFT).maxWidth(90)
                        .with(Verdicts::summary)));
    }

    private static String segmentTable(Judged judged) {
        List<String[]> rows = new ArrayList<>();
        List<SegmentReport> segs = new ArrayList<>();
        for (PartitionReport r : judged.reports()) {
            for (SegmentReport s : r.segments()) {
                if (judged.targets().segment() == null || judged.targets().segment() == s.start()) {
                    segs.add(s);
                }
            }
        }
        segs.sort(Comparator.comparingInt((SegmentReport s) -> rank(s.status())).reversed()
                .thenComparing(s -> s.start(), Long::compareUnsigned));
        return AsciiTable.getTable(AsciiTable.BASIC_ASCII_NO_DATA_SEPARATORS, segs, List.of(
                new Column().header("SEGMENT").dataAlign(HorizontalAlign.RIGHT).with(s -> Verdicts.u64(s.start())),
                new Column().header("STATUS").dataAlign(HorizontalAlign.LEFT).with(s -> s.status().json()),
                new Column().header("LOG BYTES").dataAlign(HorizontalAlign.RIGHT)
                        .with(s -> Verdicts.u64(s.logLength())),
                new Column().header("KEPT").dataAlign(HorizontalAlign.RIGHT).with(s -> s.hasBounds()
                        ? Verdicts.u64(s.size()) : "-"),
                new Column().header("END OFFSET").dataAlign(HorizontalAlign.RIGHT).with(s -> s.hasBounds()
                        ? Verdicts.u64(s.endOffset()) : "-"),
                new Column().header("INDEX").dataAlign(HorizontalAlign.RIGHT).with(s -> s.entries() + (s.hasBounds()
                        ? " -> " + s.indexSize() / 24 : "")),
                new Column().header("PLAN").dataAlign(HorizontalAlign.LEFT).maxWidth(60).with(ScanCommand::plan)));
    }


    private static String plan(SegmentReport s) {
        if (s.refusal() != null) {
            return s.refusal().variant().name();
        }
        List<String> ops = new ArrayList<>();
        s.operations().forEach(op -> ops.add(op.kind()));
        return ops.isEmpty() ? "-" : String.join(", ", ops);
    }

    static int rank(SegmentReport.Status status) {
        switch (status) {
            case IO_ERROR:
                return 6;
            case REFUSED:
                return 5;
            case RECOVERED_EMPTY:
                return 4;
            case TRUNCATED:
                return 3;
            case INDEX_REBUILT:
                return 2;
            case NOT_EXAMINED:
                return 1;
            default:
                return 0;
        }
    }
}
