package segtool.shell.render;

import java.io.PrintWriter;
import java.util.List;
import segtool.analyzers.recovery.PartitionReport;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/** Text form of an explanation: facts under labels, wrapped to the terminal, and each segment's map. */
public final class ExplainText {
    private static final int LABEL = 15;
    private static final String INDENT = "  ";

    private ExplainText() {
    }

    /**
     * Prints the story: the verdict and what boot does, then each segment with its map, what boot does to it, the
     * offsets and bytes at issue, the plan and the next step. With {@code detail}, each part ends with the spec's
     * internals (decision steps, walks, probes, step-back, budgets) under "detail"; {@code quiet} prints only the
     * verdicts.
     */
    public static void print(PrintWriter out, Explainer.PartitionStory story, Style style, int width, boolean quiet,
                             boolean detail) {
        PartitionReport r = story.report();
        out.println(style.bold("Partition " + r.partition().directory()) + identity(r));
        for (Explainer.Fact f : story.facts()) {
            if (f.detail() || quiet && !(f.topic().equals("verdict") || f.topic().equals("other mode"))) {
                continue;
            }
            out.println(paintVerdict(Wrap.labelled(INDENT, f.topic(), LABEL, f.text(), width), f, style));
        }
        if (quiet) {
            return;
        }
        details(out, story.facts(), style, width, detail);
        for (Explainer.SegmentStory s : story.segments()) {
            out.println();
            out.println(style.bold("Segment " + SegmentFiles.stem(s.segment().start())) + "  "
                    + Explainer.label(s.segment()));
            map(out, s, style, width);
            for (Explainer.Fact f : s.facts()) {
                if (!f.detail()) {
                    out.println(paintVerdict(Wrap.labelled(INDENT, f.topic(), LABEL, f.text(), width), f, style));
                }
            }
            details(out, s.facts(), style, width, detail);
        }
    }

    /** The detail facts under a heading, indented one step further; nothing without {@code --detail}. */
    private static void details(PrintWriter out, List<Explainer.Fact> facts, Style style, int width, boolean detail) {
        if (!detail || facts.stream().noneMatch(Explainer.Fact::detail)) {
            return;
        }
        out.println(INDENT + style.bold("detail") + " (how recovery decides, in RECOVERY.md's terms)");
        for (Explainer.Fact f : facts) {
            if (f.detail()) {
                out.println(Wrap.labelled(INDENT + INDENT, f.topic(), LABEL, f.text(), width));
            }
        }
    }

    private static String identity(PartitionReport r) {
        var p = r.partition();
        if (p.isCanonical()) {
            return "  (stream " + segtool.formats.io.U64.str(p.streamId()) + ", topic "
                    + segtool.formats.io.U64.str(p.topicId()) + ", partition "
                    + segtool.formats.io.U64.str(p.partitionId()) + ")";
        }
        return p.hasPartitionId() ? "  (partition " + segtool.formats.io.U64.str(p.partitionId()) + ")" : "";
    }

    private static String paintVerdict(String text, Explainer.Fact f, Style style) {
        if (f.topic().equals("verdict") || f.topic().equals("at boot")) {
            if (text.contains("REFUSED") || text.contains("CANNOT JUDGE")) {
                return style.paint(Style.Paint.RED, text);
            }
        }
        return text;
    }

    /** {@code   map  |====XX??SS....|} with the length under its right end, then the legend. */
    private static void map(PrintWriter out, Explainer.SegmentStory s, Style style, int width) {
        long len = s.map().isEmpty() ? 0 : s.map().get(s.map().size() - 1).to();
        if (len == 0) {
            out.println(INDENT + "map  (empty log)");
            return;
        }
        String prefix = INDENT + "map  ";
        int cells = Math.max(10, width - prefix.length() - 2);
        out.println(prefix + "|" + SegmentMap.line(s.map(), len, cells, style) + "|");
        String end = U64.str(len);
        int gap = Math.max(1, cells + 2 - 1 - end.length());
        out.println(" ".repeat(prefix.length()) + "0" + " ".repeat(gap) + end);
        StringBuilder line = new StringBuilder();
        int visible = 0;
        List<String> plain = SegmentMap.legendParts(s.map(), Style.PLAIN);
        List<String> painted = SegmentMap.legendParts(s.map(), style);
        for (int i = 0; i < plain.size(); i++) {
            if (visible > 0 && prefix.length() + visible + 3 + plain.get(i).length() > width) {
                out.println(" ".repeat(prefix.length()) + line);
                line.setLength(0);
                visible = 0;
            }
            line.append(visible > 0 ? "   " : "").append(painted.get(i));
            visible += (visible > 0 ? 3 : 0) + plain.get(i).length();
        }
        if (visible > 0) {
            out.println(" ".repeat(prefix.length()) + line);
        }
    }
}
