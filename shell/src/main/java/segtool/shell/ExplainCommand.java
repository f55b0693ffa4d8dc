package segtool.shell;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ThreadsOption;
import segtool.shell.options.VerdictOptions;
import segtool.shell.render.ExplainText;
import segtool.shell.render.LatentText;
import segtool.shell.render.Explainer;
import segtool.shell.render.SegmentMap;
import segtool.shell.render.Style;
import segtool.shell.render.Terminals;

/** {@code explain PATH [SEGMENT]}: why boot recovery reaches its verdict, segment by segment, in both modes. */
@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Explain the recovery verdict in plain language, segment by segment, with a map.",
            "%nFirst what the server will do at boot (accept as it is, change files and accept, or refuse, with the "
                + "verdict's name in words), then per segment: a map scaled to the terminal width, what boot does "
                + "to it, which offsets are kept and which bytes are at issue (ranges and counts), the exact plan "
                + "and the next command to run. --detail adds how recovery decides, in the terms of RECOVERY.md: "
                + "what the index claims and what the log proves, where each walk stopped and on which check, the "
                + "probe and its budget, the step-back, the decision step, and what boot leaves unread.",
            "Both durability values are judged; the one the topic has on disk (metadata/, else --durability, default "
                + "replicated) is the verdict and the exit code, "
                + "the other is shown beside it. In a data directory, clean partitions get one line each."},
        footer = {"%nMap legend: = verified, ~ not re-read at boot (durable mode), - torn (dropped by recovery), X damaged, "
                + "F foreign batch (verifies, another partition), O stale or duplicate batch (verifies, out of the "
                + "offset chain), ? residue, S survivor, # fenced (moved aside by recovery), . not examined. The regions come "
                + "from the engine; explain opens no file itself.",
            "%n--json prints schema segtool.explain/2: the segtool.scan/4 report, plus per partition \"facts\" "
                + "(topic/text pairs) and \"other_mode_report\" (the full report under the other durability), and "
                + "per explained segment \"map\" (regions with from/to byte positions), \"survivors\" and \"facts\".",
            "%nExamples:",
            "  segtool explain /var/lib/iggy/local_data/streams/1/topics/1/partitions/1",
            "  segtool explain PARTITION 4096 --durability=persisted   # one segment, persisted topic",
            "  segtool explain PARTITION --detail                      # with the decision steps and walks",
            "  segtool explain PARTITION --json | jq '.partitions[0].facts'"})
public final class ExplainCommand implements Callable<Integer> {
    public static final String SCHEMA = "segtool.explain/2";

    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Data directory, partition directory or segment file. Default: the open path.")
    Path path;

    @Parameters(index = "1", paramLabel = "SEGMENT", arity = "0..1",
            description = "Only this segment: its start offset or file name.")
    String segment;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    ThreadsOption threads;

    @Mixin
    segtool.shell.options.Selection selection;

    @picocli.CommandLine.Option(names = Progress.OPTION, description = Progress.DESCRIPTION)
    boolean progress;

    @Mixin
    OutputOptions output;

    @Option(names = "--detail", description = "Also show how recovery reaches the verdict, in the terms of "
            + "RECOVERY.md: decision steps, walks and the check each stopped at, probes, step-back, budgets (--json "
            + "always carries these facts).")
    boolean detail;

    @Option(names = "--no-latent", description = "Do not verify the bytes boot does not read (durable mode, below "
            + "each segment's last index entry; RECOVERY 11.1). By default explain says where readers will fail "
            + "although the server boots, and exits 5 when that is the worst finding.")
    boolean noLatent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path target = path;
        String only = segment;
        Judged judged = Judged.of(spec, target == null ? List.of() : List.of(target.toString()), selection, verdict,
                output, true, !noLatent, threads.count());
        Long filter = judged.targets().segment();
        if (only != null) {
            filter = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(only.endsWith(".log") || only.endsWith(".index")
                    ? only : only + ".log"));
            if (filter == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "SEGMENT '" + only
                        + "' is not a start offset or segment file name");
            }
        }
        Explainer explainer = new Explainer(verdict.recordFlags());
        RecoveryEngine engine = new RecoveryEngine(threads.apply(verdict.engineOptions()));
        boolean dataDir = judged.targets().kind() == Targets.Kind.DATA_DIRECTORY;
        List<Explainer.PartitionStory> stories = new ArrayList<>();
        final Long wanted = filter;
        for (int k = 0; k < judged.reports().size(); k++) {
            PartitionReport r = judged.reports().get(k);
            if (wanted != null && r.segments().stream().noneMatch(s -> s.start() == wanted)) {
                throw new Targets.NotATarget(r.partition().directory() + ": no segment " + U64.str(wanted));
            }
            LatentDamage.Report latent = judged.latent().get(k);
            boolean brief = dataDir && ExitCode.of(r) == ExitCode.CLEAN && r.otherMode() != null
                    && ExitCode.of(r.otherMode()) == ExitCode.CLEAN && (latent == null || !latent.damaged());
            stories.add(brief ? null : explainer.explain(r, engine.regions(r), filter));
        }
        int exit = judged.exitCode(filter);
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(ScanJson.mapper().writeValueAsString(json(judged, stories, exit)));
            out.flush();
            return exit;
        }
        Style style = output.style();
        int width = Terminals.width(ShellSession.of(spec).terminal());
        for (String line : segtool.shell.render.Wrap.words("Each partition is judged with its own inputs (durability "
                + "and WAL checkpoint, printed with where they came from); the other durability is judged too.",
                width <= 0 ? Integer.MAX_VALUE : width)) {
            out.println(line);
        }
        for (int i = 0; i < stories.size(); i++) {
            PartitionReport r = judged.reports().get(i);
            if (stories.get(i) == null) {
                out.println(r.partition().directory() + ": clean in both modes ("
                        + judged.inputs().get(i).durability().text() + ")");
                continue;
            }
            out.println();
            for (String line : Inputs.lines(judged.inputs().get(i))) {
                out.println(line);
            }
            ExplainText.print(out, stories.get(i), style, width, output.quiet(), detail);
            List<String> latent = LatentText.explain(judged.latent().get(i));
            if (!latent.isEmpty()) {
                out.println();
                for (String line : latent) {
                    String lead = line.substring(0, line.length() - line.stripLeading().length());
                    List<String> parts = width <= 0 ? List.of(line.stripLeading())
                            : segtool.shell.render.Wrap.words(line.stripLeading(), Math.max(20, width - lead.length()
                            - 2));
                    for (int p = 0; p < parts.size(); p++) {
                        out.println((p == 0 ? lead : lead + "  ") + parts.get(p));
                    }
                }
            }
            if (r.outcome() == PartitionReport.Outcome.REFUSED && !output.quiet()) {
                segtool.shell.render.LossText.print(out, segtool.analyzers.salvage.AtStake.survey(r,
                        verdict.maxMessageSizeUpper + 256), r, "", width, verdict.flags(), verdict.recordFlags(),
                        Dumps.inDump(r.partition().directory()));
            }
        }
        out.flush();
        return exit;
    }

    private ObjectNode json(Judged judged, List<Explainer.PartitionStory> stories, int exit) {
        ObjectNode root = ScanJson.report(judged.displayPath(), Version.current(),
                judged.reports(), judged.inputs(), noLatent ? null : judged.latent(), exit);
        root.put("schema", SCHEMA);
        ArrayNode parts = (ArrayNode) root.get("partitions");
        for (int i = 0; i < stories.size(); i++) {
            Explainer.PartitionStory story = stories.get(i);
            ObjectNode p = (ObjectNode) parts.get(i);
            if (story == null) {
                p.putArray("facts");
                continue;
            }
            facts(p.putArray("facts"), story.facts());
            if (story.report().otherMode() != null) {
                p.set("other_mode_report", ScanJson.partition(story.report().otherMode()));
            }
            ArrayNode segs = (ArrayNode) p.get("segments");
            for (Explainer.SegmentStory s : story.segments()) {
                int at = story.report().segments().indexOf(s.segment());
                ObjectNode seg = (ObjectNode) segs.get(at);
                ArrayNode map = seg.putArray("map");
                for (SegmentMap.Span span : s.map()) {
                    ObjectNode m = map.addObject();
                    m.put("region", span.kind().json());
                    ScanJson.u64(m, "from", span.from());
                    ScanJson.u64(m, "to", span.to());
                }
                if (s.survivors() == null) {
                    seg.putNull("survivors");
                } else {
                    ObjectNode sv = seg.putObject("survivors");
                    ScanJson.u64(sv, "from", s.survivors().from());
                    ScanJson.u64(sv, "to", s.survivors().to());
                    sv.put("records", s.survivors().records());
                    ScanJson.u64(sv, "first_offset", s.survivors().firstOffset());
                    ScanJson.u64(sv, "last_offset", s.survivors().lastOffset());
                    sv.put("stop", s.survivors().stop());
                }
                facts(seg.putArray("facts"), s.facts());
            }
        }
        return root;
    }

    private static void facts(ArrayNode into, List<Explainer.Fact> facts) {
        for (Explainer.Fact f : facts) {
            ObjectNode o = into.addObject();
            o.put("topic", f.topic());
            o.put("text", f.text());
        }
    }
}
