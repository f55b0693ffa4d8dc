package segtool.shell;

import com.github.freva.asciitable.AsciiTable;
import com.github.freva.asciitable.Column;
import com.github.freva.asciitable.HorizontalAlign;
import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.replica.ReplicaComparison;
import segtool.formats.io.U64;

/** Text of {@code compare} and {@code plan}: one table row per replica of each partition, worst partition first. */
final class ReplicaText {
    private ReplicaText() {
    }

    private record Row(ReplicaComparison.PartitionResult p, ReplicaComparison.ReplicaResult r, boolean first) {
    }

    static String render(ReplicaComparison.Result result) {
        List<Row> rows = new ArrayList<>();
        for (ReplicaComparison.PartitionResult p : result.partitions()) {
            boolean first = true;
            for (ReplicaComparison.ReplicaResult r : p.replicas()) {
                rows.add(new Row(p, r, first));
                first = false;
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(AsciiTable.getTable(AsciiTable.BASIC_ASCII_NO_DATA_SEPARATORS, rows, List.of(
                new Column().header("PARTITION").dataAlign(HorizontalAlign.LEFT)
                        .with(x -> x.first() ? x.p().key().label() + " " + state(x.p()) : ""),
                new Column().header("REPLICA").dataAlign(HorizontalAlign.LEFT).maxWidth(40).with(x -> x.r().replica()),
                new Column().header("VERDICT").dataAlign(HorizontalAlign.LEFT).maxWidth(30).with(ReplicaText::verdict),
                new Column().header("CHAIN OFFSETS").dataAlign(HorizontalAlign.RIGHT).with(ReplicaText::chain),
                new Column().header("CHAIN BYTES").dataAlign(HorizontalAlign.RIGHT).with(x -> x.r().verdict() == null
                        ? "-" : segtool.shell.render.Bytes.size(x.r().verdict().chain().bytes())),
                new Column().header("DIVERGES AT").dataAlign(HorizontalAlign.LEFT).maxWidth(40)
                        .with(ReplicaText::diverges),
                new Column().header("ACTION").dataAlign(HorizontalAlign.LEFT).maxWidth(60).with(ReplicaText::action))));
        sb.append('\n');
        for (ReplicaComparison.PartitionResult p : result.partitions()) {
            if (p.agree()) {
                continue;
            }
            sb.append(p.key().label()).append(": donor ").append(p.donor() == null ? "none" : p.donor()).append('\n');
            if (p.firstDivergence() != null) {
                ReplicaComparison.Divergence d = p.firstDivergence();
                sb.append("  first divergence: ").append(p.firstDivergent()).append(", segment ")
                        .append(U64.str(d.segment())).append(" byte ").append(U64.str(d.position())).append(" offset ")
                        .append(U64.str(d.offset())).append(": ").append(d.field()).append(": donor ")
                        .append(d.donor()).append(", replica ").append(d.replica()).append('\n');
            }
            for (ReplicaComparison.Prefix x : p.prefixes()) {
                sb.append("  ").append(x.replica()).append("'s chain is a prefix of ").append(x.of()).append("'s\n");
            }
            for (ReplicaComparison.ReplicaResult r : p.replicas()) {
                for (ReplicaComparison.Transfer t : r.transfers()) {
                    sb.append("  ").append(r.replica()).append(" takes segment ").append(U64.str(t.segment()))
                            .append(t.from() == t.to() ? " cut to " + segtool.shell.render.Bytes.count(t.to())
                                    : " bytes [" + U64.str(t.from()) + ", " + U64.str(t.to()) + ")")
                            .append(" from ").append(p.donor()).append(" (").append(t.reason()).append(")\n");
                }
            }
            for (ReplicaComparison.Range u : p.uncovered()) {
                sb.append("  no replica's verified chain holds offsets ").append(U64.str(u.first())).append("..")
                        .append(U64.str(u.last())).append(", which verify on some replica\n");
            }
            for (String w : p.warnings()) {
                sb.append("  warning: ").append(w).append('\n');
            }
        }
        return sb.toString();
    }

    static String summary(ReplicaComparison.Result result) {
        int agree = 0;
        int donor = 0;
        int uncovered = 0;
        int unknown = 0;
        for (ReplicaComparison.PartitionResult p : result.partitions()) {
            switch (p.exitCode()) {
                case ReplicaComparison.AGREE -> agree++;
                case ReplicaComparison.DONOR_COVERS -> donor++;
                case ReplicaComparison.UNCOVERED -> uncovered++;
                default -> unknown++;
            }
        }
        return result.partitions().size() + " partitions on " + result.replicas().size() + " replicas: " + agree
                + " agree, " + donor + " differ with a donor holding everything, " + uncovered
                + " with offsets no replica's chain holds" + (unknown > 0 ? ", " + unknown + " not judged (I/O)" : "");
    }

    private static String state(ReplicaComparison.PartitionResult p) {
        switch (p.exitCode()) {
            case ReplicaComparison.AGREE:
                return "agree";
            case ReplicaComparison.DONOR_COVERS:
                return "differ";
            case ReplicaComparison.UNCOVERED:
                return "UNCOVERED";
            default:
                return "I/O ERROR";
        }
    }

    private static String verdict(Row x) {
        if (!x.r().present()) {
            return "absent";
        }
        var v = x.r().verdict();
        return v.refusalVariant() != null ? "refused " + v.refusalVariant() : v.ioError() != null ? "i/o error"
                : v.exitCode() == 0 ? "accepted" : "accepted, changes";
    }

    private static String chain(Row x) {
        var v = x.r().verdict();
        if (v == null || v.chain().offsets() == 0) {
            return "-";
        }
        return U64.str(v.chain().firstOffset()) + ".." + U64.str(v.chain().lastOffset());
    }

    private static String diverges(Row x) {
        ReplicaComparison.Divergence d = x.r().divergence();
        if (d == null) {
            return "-";
        }
        return "seg " + U64.str(d.segment()) + " @" + U64.str(d.position()) + " off " + U64.str(d.offset()) + " "
                + d.field();
    }

    private static String action(Row x) {
        ReplicaComparison.ReplicaResult r = x.r();
        switch (r.action()) {
            case "donor":
                return "donor";
            case "donor-repair":
                return "donor (run repair: beyond its chain boot changes files)";
            case "take":
                return "take " + r.transfers().size() + " segment range" + (r.transfers().size() == 1 ? "" : "s")
                        + " from " + x.p().donor();
            case "repair":
                return "repair locally (the donor holds nothing more)";
            case "unknown":
                return "unknown (not judged)";
            default:
                return "-";
        }
    }
}
