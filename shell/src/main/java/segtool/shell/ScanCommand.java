package segtool.shell;

import com.github.freva.asciitable.AsciiTable;
import com.github.freva.asciitable.Column;
import com.github.freva.asciitable.ColumnData;
import com.github.freva.asciitable.HorizontalAlign;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.report.ScanJson;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.Selection;
import segtool.shell.options.ThreadsOption;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.Bytes;
import segtool.shell.render.LatentText;
import segtool.shell.render.Terminals;
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
    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "Data directory, partition directory, segment file or crash dump (DUMP or DUMP::PATH); "
                    + "several are judged together. Default: the open path.")
    List<Path> paths;

    @Mixin
    Selection selection;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    ThreadsOption threads;

    @picocli.CommandLine.Option(names = Progress.OPTION, description = Progress.DESCRIPTION)
    boolean progress;

    @Mixin
    OutputOptions output;

    @Option(names = "--no-latent", description = "Do not verify the bytes boot does not read (durable mode, below "
            + "each segment's last index entry; RECOVERY 11.1). By default segtool verifies them as well, reports "
            + "latent damage per segment, and exits 5 when that is the worst finding; the verdict never changes.")
    boolean noLatent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String> given = paths == null ? List.of() : paths.stream().map(Path::toString).toList();
        Judged judged = Judged.of(spec, given, selection, verdict, output, false,
                !noLatent, threads.count());
        PrintWriter out = spec.commandLine().getOut();
        int exit = judged.exitCode();
        if (output.json) {
            out.println(ScanJson.mapper().writeValueAsString(
                    ScanJson.report(judged.displayPath(), Version.current(), judged.reports(),
                            judged.inputs(), noLatent ? null : judged.latent(), exit)));
            out.flush();
            return exit;
        }
        int width = Terminals.width(ShellSession.of(spec).terminal());
        Path base = judged.targets().path();
        boolean many = judged.reports().size() != 1;   // none (an empty data directory) is told as many are
        if (output.quiet()) {
            // -q: one line for each partition that needs attention, worst first, then the count
            List<PartitionReport> rows = new ArrayList<>(judged.reports());
            rows.sort(Comparator.comparingInt(PartitionReport::severity).reversed()
                    .thenComparing(r -> r.partition().directory().toString()));
            for (PartitionReport r : rows) {
                if (!many || ExitCode.of(r) != ExitCode.CLEAN) {
                    out.println(fold(Verdicts.name(r, base) + ": " + Verdicts.summary(r), width));
                }
            }
            latent(out, judged, base, false, width);
            if (many) {
                out.println(Verdicts.tally(judged.reports()));
            }
            out.flush();
            return exit;
        }
        if (many) {
            out.println(partitionTable(judged, base, width));
            for (String line : inputGroups(judged, base)) {
                out.println(fold(line, width));
            }
            for (String line : cutErrors(judged, base)) {
                out.println(fold(line, width));
            }
        } else {
            out.println(segmentTable(judged, width));
        }
        List<String> lines = many ? Inputs.notes(judged.inputs()) : Inputs.lines(judged.inputs().get(0));
        for (String line : lines) {
            out.println(fold(line, width));
        }
        if (many) {
            out.println(Verdicts.tally(judged.reports()));
        } else {
            PartitionReport r = judged.reports().get(0);
            out.println(fold(Verdicts.name(r, base) + ": " + Verdicts.summary(r), width));
        }
        latent(out, judged, base, true, width);
        out.flush();
        return exit;
    }

    /** Each partition's latent damage (RECOVERY 11.1): the summary mark, then (unless -q) each stretch. */
    private static void latent(PrintWriter out, Judged judged, Path base, boolean details, int width) {
        for (int i = 0; i < judged.reports().size(); i++) {
            LatentDamage.Report l = judged.latent().get(i);
            String mark = LatentText.mark(l);
            if (mark == null && (l == null || LatentText.lines(l).isEmpty())) {
                continue;
            }
            String name = Verdicts.name(judged.reports().get(i), base);
            if (mark != null) {
                out.println(name + ": " + mark);
            }
            if (details) {
                for (String line : LatentText.lines(l)) {
                    out.println("  " + line);
                }
            }
        }
    }

    /** Cells wider than this in the table are folded onto more lines, never wider than the terminal. */
    private static final int MIN_FREE = 16;

    private static String partitionTable(Judged judged, Path base, int width) {
        List<PartitionReport> rows = new ArrayList<>(judged.reports());
        Map<PartitionReport, PartitionInputs> inputs = new IdentityHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            inputs.put(rows.get(i), judged.inputs().get(i));
        }
        rows.sort(Comparator.comparingInt(PartitionReport::severity).reversed()
                .thenComparing(r -> r.partition().directory().toString()));
        int name = maxLength(rows, r -> Verdicts.name(r, base), "PARTITION");
        int outcome = maxLength(rows, r -> r.outcome().json(), "OUTCOME");
        int segs = maxLength(rows, r -> Integer.toString(r.segments().size()), "SEGS");
        int mode = maxLength(rows, r -> modeCell(inputs.get(r)), "DURABILITY");
        int verdict = maxLength(rows, r -> verdictCell(r, 1000), "VERDICT");
        int floor = Math.min(verdict, verdictFloor(rows));
        // what the verdict column may use once the others are drawn: drop DURABILITY, then fold the names
        boolean showMode = free(width, name, outcome, segs, mode) >= Math.min(verdict, floor + 10);
        int nameWidth = name;
        if (!showMode && free(width, name, outcome, segs) < floor) {
            nameWidth = Math.max(12, name - (floor - free(width, name, outcome, segs)));
        }
        int verdictWidth = Math.max(floor, showMode ? free(width, name, outcome, segs, mode)
                : free(width, nameWidth, outcome, segs));
        List<ColumnData<PartitionReport>> cols = new ArrayList<>();
        cols.add(new Column().header("PARTITION").headerAlign(HorizontalAlign.LEFT).dataAlign(HorizontalAlign.LEFT)
                .maxWidth(nameWidth + 2).with((PartitionReport r) -> Verdicts.name(r, base)));
        cols.add(new Column().header("OUTCOME").headerAlign(HorizontalAlign.LEFT).dataAlign(HorizontalAlign.LEFT)
                .with((PartitionReport r) -> r.outcome().json()));
        cols.add(new Column().header("SEGS").dataAlign(HorizontalAlign.RIGHT)
                .with((PartitionReport r) -> Integer.toString(r.segments().size())));
        if (showMode) {
            cols.add(new Column().header("DURABILITY").headerAlign(HorizontalAlign.LEFT)
                    .dataAlign(HorizontalAlign.LEFT).with((PartitionReport r) -> modeCell(inputs.get(r))));
        }
        cols.add(new Column().header("VERDICT").headerAlign(HorizontalAlign.LEFT).dataAlign(HorizontalAlign.LEFT)
                .maxWidth(Math.min(verdict, verdictWidth) + 2)
                .with((PartitionReport r) -> verdictCell(r, verdictWidth)));
        return AsciiTable.getTable(AsciiTable.BASIC_ASCII_NO_DATA_SEPARATORS, rows, cols);
    }

    /**
     * The VERDICT cell (OUTCOME already says accepted or refused): what recovery does, or the refusal with its
     * fields, folded in its column; one that would take more than three lines drops its detail (the refusal's
     * fields, an I/O error's reason after its first clause), which {@code explain} and --json keep.
     */
    static String verdictCell(PartitionReport r, int width) {
        String full = Verdicts.summary(r);
        String cell = full.startsWith("accepted: ") ? full.substring("accepted: ".length())
                : full.startsWith("refused: ") ? full.substring("refused: ".length()) : full;
        if (cell.length() <= 3 * (width - 2)) {
            return cell;
        }
        if (r.outcome() == PartitionReport.Outcome.REFUSED && r.refusal() != null) {
            return r.refusal().variant().name() + " ...";
        }
        int colon = cell.indexOf(':', "cannot judge: ".length());
        return (colon > 0 ? cell.substring(0, colon) : cell) + " ...";
    }

    /** The shortest VERDICT column that keeps every refusal's name on one line. */
    private static int verdictFloor(List<PartitionReport> rows) {
        int m = MIN_FREE;
        for (PartitionReport r : rows) {
            if (r.refusal() != null) {
                m = Math.max(m, r.refusal().variant().name().length());
            }
        }
        return Math.min(m, 28);
    }

    /**
     * The inputs below the partition table, one line per durability value and source, naming its partitions (the
     * first four, then a count): {@code durability=persisted (from metadata/snapshot.bin): s0/t0/p0}; then each
     * checkpoint a frontier gave. {@code explain} gives each partition's full lines.
     */
    static List<String> inputGroups(Judged judged, Path base) {
        Map<String, List<String>> groups = new java.util.LinkedHashMap<>();
        List<String> checkpoints = new ArrayList<>();
        for (int i = 0; i < judged.reports().size(); i++) {
            PartitionInputs in = judged.inputs().get(i);
            if (in == null || !in.judgeable()) {
                continue;
            }
            var d = in.durability();
            String key = "durability=" + d.value() + " (from " + d.from() + ")" + (d.overridden()
                    ? " OVERRIDE: metadata says " + (d.metadataDurable() ? "persisted" : "replicated") : "");
            String name = Verdicts.name(judged.reports().get(i), base);
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(name);
            if (in.wal().checkpoint() != null) {
                checkpoints.add(in.wal().text() + ": " + name);
            }
            String open = Inputs.openLine(in, name);
            if (open != null) {
                checkpoints.add(open);
            }
        }
        List<String> out = new ArrayList<>();
        groups.forEach((key, names) -> out.add(key + ": " + (names.size() <= 4 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 4)) + " and " + (names.size() - 4) + " more")));
        out.addAll(checkpoints);
        return out;
    }

    /** Partitions with no verdict whose reason the table cut: the reason whole, one line each. */
    private static List<String> cutErrors(Judged judged, Path base) {
        List<String> out = new ArrayList<>();
        for (PartitionReport r : judged.reports()) {
            if (r.outcome() == PartitionReport.Outcome.IO_ERROR) {
                out.add(Verdicts.name(r, base) + ": " + Verdicts.summary(r));
            }
        }
        return out;
    }

    /** The DURABILITY cell: the value and where it came from, in two words ({@code explain} gives the full line). */
    static String modeCell(PartitionInputs in) {
        if (in == null || !in.judgeable()) {
            return "-";
        }
        String from = switch (in.durability().source()) {
            case SNAPSHOT, JOURNAL -> "metadata";
            case NO_DURABILITY_KEY -> "no key";
            case COMMAND_LINE -> in.durability().overridden() ? "override"
                    : in.durability().from().equals("--durability") ? "--durability" : "default";
        };
        String value = in.durability().durable() ? "persisted" : "replicated";
        return value + " (" + from + ")" + (in.wal().checkpoint() == null ? "" : ", checkpoint");
    }

    /** Columns left for the last cell of a table whose other cells are {@code widths} wide (borders included). */
    static int free(int width, int... widths) {
        int used = 1;
        for (int w : widths) {
            used += w + 3;
        }
        return width - used - 3;
    }

    private static <T> int maxLength(List<T> rows, java.util.function.Function<T, String> cell, String header) {
        int m = header.length();
        for (T r : rows) {
            m = Math.max(m, cell.apply(r).length());
        }
        return m;
    }

    private static String segmentTable(Judged judged, int width) {
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
        int start = maxLength(segs, s -> Verdicts.u64(s.start()), "SEGMENT");
        int status = maxLength(segs, s -> s.status().json(), "STATUS");
        int end = maxLength(segs, s -> s.hasBounds() ? Verdicts.u64(s.endOffset()) : "-", "END");
        int index = maxLength(segs, ScanCommand::indexCell, "INDEX");
        int plan = maxLength(segs, ScanCommand::plan, "PLAN");
        int token = 0;
        for (SegmentReport s : segs) {
            for (String w : plan(s).split(" ")) {
                token = Math.max(token, w.length());
            }
        }
        // byte counts carry a unit (1245 (1.2 KiB)) where that leaves the plan room for its longest word
        boolean human = free(width, start, status, maxLength(segs, s -> Bytes.size(s.logLength()), "LOG BYTES"),
                maxLength(segs, s -> s.hasBounds() ? Bytes.size(s.size()) : "-", "KEPT"), end, index) >= token;
        java.util.function.LongFunction<String> bytes = v -> human ? Bytes.size(v) : Verdicts.u64(v);
        int log = maxLength(segs, s -> bytes.apply(s.logLength()), "LOG BYTES");
        int kept = maxLength(segs, s -> s.hasBounds() ? bytes.apply(s.size()) : "-", "KEPT");
        int planWidth = Math.max(10, free(width, start, status, log, kept, end, index));
        return AsciiTable.getTable(AsciiTable.BASIC_ASCII_NO_DATA_SEPARATORS, segs, List.of(
                new Column().header("SEGMENT").dataAlign(HorizontalAlign.RIGHT).with(s -> Verdicts.u64(s.start())),
                new Column().header("STATUS").headerAlign(HorizontalAlign.LEFT).dataAlign(HorizontalAlign.LEFT)
                        .with(s -> s.status().json()),
                new Column().header("LOG BYTES").dataAlign(HorizontalAlign.RIGHT)
                        .with(s -> bytes.apply(s.logLength())),
                new Column().header("KEPT").dataAlign(HorizontalAlign.RIGHT).with(s -> s.hasBounds()
                        ? bytes.apply(s.size()) : "-"),
                new Column().header("END").dataAlign(HorizontalAlign.RIGHT).with(s -> s.hasBounds()
                        ? Verdicts.u64(s.endOffset()) : "-"),
                new Column().header("INDEX").dataAlign(HorizontalAlign.RIGHT).with(ScanCommand::indexCell),
                new Column().header("PLAN").headerAlign(HorizontalAlign.LEFT).dataAlign(HorizontalAlign.LEFT)
                        .maxWidth(Math.min(plan, planWidth) + 2).with(ScanCommand::plan)));
    }

    private static String indexCell(SegmentReport s) {
        return s.entries() + (s.hasBounds() ? " -> " + s.indexSize() / 24 : "");
    }

    private static String plan(SegmentReport s) {
        if (s.refusal() != null) {
            return s.refusal().variant().name();
        }
        List<String> ops = new ArrayList<>();
        s.operations().forEach(op -> ops.add(op.kind()));
        return ops.isEmpty() ? "-" : String.join(", ", ops);
    }

    /**
     * {@code text} folded at spaces to {@code width}; a line naming a path is printed whole, so it reads (and
     * copies) the same whatever the path's length.
     */
    private static String fold(String text, int width) {
        for (String word : text.split(" ")) {
            if (word.startsWith("/") || word.startsWith("(/")) {
                return text;
            }
        }
        return String.join("\n", segtool.shell.render.Wrap.words(text, width));
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
