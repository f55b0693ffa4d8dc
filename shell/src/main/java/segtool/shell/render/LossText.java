package segtool.shell.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.report.ShellWords;
import segtool.analyzers.salvage.AtStake;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.formats.io.U64;

/**
 * A refusal in plain words about loss: which offsets are at stake and where, then the ways forward in order of
 * loss: restore from a replica or backup, salvage then accept the loss, leave it to the server (RECOVERY 1).
 */
public final class LossText {
    private LossText() {
    }

    /**
     * Prints the lines under {@code indent}, each wrapped to {@code width} columns (0: not wrapped); a command line
     * ({@code $ ...}) is never wrapped, so what follows wraps the same whatever the path's length. {@code verdict}
     * and {@code records}: the command line's options that change a verdict and those that change which records
     * verify ({@code VerdictOptions.flags()}, {@code recordFlags()}), repeated on the repair and salvage commands so
     * that they judge the partition as this run did.
     */
    public static void print(PrintWriter w, AtStake s, PartitionReport r, String indent, int width, String verdict,
                             String records, boolean dump) {
        for (String line : lines(s, r, verdict, records, dump)) {
            if (width <= 0 || line.stripLeading().startsWith("$ ")) {
                w.println(indent + line);
                continue;
            }
            String lead = line.substring(0, line.length() - line.stripLeading().length());
            String hang = indent + lead + (line.stripLeading().matches("\\d\\. .*") ? "   " : "  ");
            List<String> parts = Wrap.words(line.stripLeading(), Math.max(20, width - hang.length()));
            for (int i = 0; i < parts.size(); i++) {
                w.println((i == 0 ? indent + lead : hang) + parts.get(i));
            }
        }
    }

    static String offsets(List<OffsetRanges.Range> ranges) {
        return ranges.stream().map(OffsetRanges.Range::toString).collect(Collectors.joining(", "));
    }

    /** {@code offset 4}, {@code offsets 1..3, 7}, or {@code no offset}. */
    static String words(List<OffsetRanges.Range> ranges) {
        if (ranges.isEmpty()) {
            return "no offset";
        }
        boolean one = ranges.size() == 1 && ranges.get(0).count() == 1;
        return (one ? "offset " : "offsets ") + offsets(ranges);
    }

    private static String seg(long s) {
        return "segment " + U64.str(s);
    }

    /**
     * The lines, without indentation (the commands carry {@code verdict} and {@code records}, as for print). For a
     * partition in a crash dump ({@code dump}), which nothing changes, the accept-loss repair is to be run on an
     * extracted copy (salvage only reads, and is printed as it is).
     */
    public static List<String> lines(AtStake s, PartitionReport r, String verdict, String records, boolean dump) {
        List<String> out = new ArrayList<>();
        out.add("At stake:");
        List<OffsetRanges.Range> lost = new ArrayList<>();
        for (AtStake.Missing m : s.missing()) {
            lost.add(m.offsets());
            String what = words(List.of(m.offsets())) + (m.offsets().count() == 1 ? " is" : " are") + " missing";
            what += switch (m.where()) {
                case INSIDE -> " inside " + seg(m.before()) + (m.fromByte() >= 0 ? " (its bytes ["
                        + U64.str(m.fromByte()) + ", " + U64.str(m.toByte()) + ") hold no record that verifies)"
                        : m.position() >= 0 ? " (the record at byte " + U64.str(m.position()) + " skips them)" : "");
                case BETWEEN -> " between " + seg(m.before()) + " and " + seg(m.after());
                case AT_END -> " at the end of " + seg(m.before()) + " (its index names them)";
                case BEFORE -> " before " + seg(m.after());
            };
            out.add("  " + what + ".");
        }
        if (s.missing().isEmpty()) {
            out.add("  no offset is known to be missing: every offset the files name is held by a record that "
                    + "verifies.");
        }
        out.add("  " + (s.salvageable().isEmpty() ? "no record verifies anywhere in the files"
                : words(s.salvageable()) + (s.salvageable().size() == 1 && s.salvageable().get(0).count() == 1
                ? " is" : " are") + " held by records that verify") + "; clients may already have read any of "
                + "these offsets, the missing ones included.");
        out.add("Options, least loss first:");
        String lostWords = words(lost);
        out.add("  1. Restore from a replica or a backup that holds " + (lost.isEmpty() ? "this partition"
                : lostWords) + ": nothing is lost.");
        out.add("  2. Salvage, then accept the loss; salvage keeps every record that verifies:");
        out.add("       $ segtool salvage " + ShellWords.quote(r.partition().directory()) + " -o OUT --format ndjson"
                + records);
        out.add("     The archive holds " + words(s.salvageable()) + " with their "
                + "original bytes. " + cut(s) + " " + (lost.isEmpty() ? "Nothing else is lost" : "Lost for good: "
                + lostWords) + ". After it the server may hand offsets above the last one it keeps out again "
                + "to new messages; a producer can replay the archive's messages.ndjson under new offsets. segtool "
                + "makes the cut, salvage archive first, quarantine and restore as for any repair (see "
                + "docs/repair.md):");
        out.add(dump ? "       (a crash dump is read-only: extract it, and run repair --accept-loss --apply "
                + "--salvage-to OUT on the copy, or on the node's data directory itself)"
                : "       $ segtool repair " + ShellWords.quote(r.partition().directory()) + verdict
                + " --accept-loss --apply --salvage-to OUT");
        out.add("  3. Leave it to the server: it refuses this partition at boot (" + r.refusal().variant() + ") and "
                + "either moves all its files into a " + r.partition().directory().getFileName() + ".fenced.<n> "
                + "directory or tombstones it with the files left in place; either way it serves none of its "
                + "offsets, the ones that verify included." + recoverable(r));
        return out;
    }

    private static String cut(AtStake s) {
        AtStake.Cut c = s.cut();
        String leaving = words(c.offsetsLeaving());
        return switch (c.plan()) {
            case CUT_LOG -> "The accept-loss cut: truncate " + seg(c.segment()) + "'s log at byte "
                    + U64.str(c.position()) + " and move every later segment aside; " + Bytes.size(c.bytesLeaving())
                    + " and " + leaving + " leave the live partition (the archive keeps them).";
            case MOVE_SEGMENTS_ASIDE -> "The accept-loss cut: move the segments from " + seg(c.segment())
                    + " on aside; " + Bytes.size(c.bytesLeaving()) + " and " + leaving + " leave the live partition "
                    + "(the archive keeps them).";
            case MOVE_EMPTY_ASIDE -> "The accept-loss cut: move the empty " + seg(c.segment()) + " aside (its "
                    + Bytes.size(c.bytesLeaving()) + " hold no record that verifies); the chain is whole without it "
                    + "and every record that verifies stays live.";
            case REBUILD_INDEX -> "The accept-loss cut: rebuild " + seg(c.segment()) + "'s index from what its log "
                    + "proves; every record that verifies stays in place.";
            case NONE -> "The refusal is about sizes, not offsets; restore or re-run the boot that made them.";
        };
    }

    private static String recoverable(PartitionReport r) {
        if (r.refusal() instanceof Refusal.Hole h) {
            return bytesWord(h.recoverableBytes());
        }
        if (r.refusal() instanceof Refusal.EmptyNonTailSegment e) {
            return bytesWord(e.recoverableBytes());
        }
        return "";
    }

    private static String bytesWord(long recoverable) {
        return " Its single-replica boot path decides by recoverable_bytes = " + U64.str(recoverable) + (recoverable
                == 0 ? ": 0 means the chain provably held nothing servable, so the partition may be discarded."
                : ": the chain holds data, so expect the files to be fenced or the partition tombstoned.");
    }
}
