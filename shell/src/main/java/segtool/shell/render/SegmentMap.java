package segtool.shell.render;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import segtool.analyzers.recovery.Region;

/**
 * A one-line picture of a log's regions as the engine found them ({@link Region}), scaled to a width: each cell
 * stands for {@code length / cells} bytes and shows the kind of region it covers. A cell touching damage, a foreign
 * or stale batch, a survivor, a torn tail or residue shows that, however few bytes it is, so a 1-byte flip in a
 * 1 GiB log stays visible; otherwise the kind covering most of the cell wins. Each kind has its own character, so
 * the map reads the same without colour. Renders only: the regions come from the engine, no file is opened here.
 */
public final class SegmentMap {
    /** Region kinds, in the order the legend lists them. */
    public enum Kind {
        VERIFIED('=', Style.Paint.GREEN, "verified", 0),
        UNREAD('~', Style.Paint.CYAN, "not re-read at boot", 0),
        TORN('-', Style.Paint.YELLOW, "torn (dropped by recovery)", 1),
        PAST_CHECKPOINT('w', Style.Paint.CYAN, "past the WAL checkpoint (the WAL's; kept, not read)", 0),
        DAMAGED('X', Style.Paint.RED, "damaged", 4),
        RESIDUE('?', Style.Paint.MAGENTA, "residue (unclassified)", 2),
        SURVIVOR('S', Style.Paint.BLUE, "survivor (verifies after damage)", 3),
        FOREIGN_BATCH('F', Style.Paint.RED, "foreign batch (verifies, another partition's id)", 4),
        STALE_BATCH('O', Style.Paint.RED, "stale or duplicate batch (verifies, out of the offset chain)", 4),
        FENCED('#', Style.Paint.YELLOW, "fenced (moved aside by recovery)", 0),
        UNEXAMINED('.', Style.Paint.GREY, "not examined", 0);

        public final char symbol;
        final Style.Paint paint;
        public final String label;
        /** Above 0: shown in a cell however few of its bytes it covers; higher wins. */
        final int alert;

        Kind(char symbol, Style.Paint paint, String label, int alert) {
            this.symbol = symbol;
            this.paint = paint;
            this.label = label;
            this.alert = alert;
        }

        public String json() {
            return name().toLowerCase();
        }

        /** How the map draws a region kind of the engine. */
        public static Kind of(Region.Kind k) {
            switch (k) {
                case VERIFIED:
                    return VERIFIED;
                case UNREAD:
                    return UNREAD;
                case TORN_TAIL:
                    return TORN;
                case PAST_CHECKPOINT:
                    return PAST_CHECKPOINT;
                case DAMAGED:
                    return DAMAGED;
                case FOREIGN_BATCH:
                    return FOREIGN_BATCH;
                case STALE_BATCH:
                    return STALE_BATCH;
                case RESIDUE:
                    return RESIDUE;
                case SURVIVOR:
                    return SURVIVOR;
                case FENCED:
                    return FENCED;
                default:
                    return UNEXAMINED;
            }
        }
    }

    /** {@code [from, to)} of kind {@code kind}. */
    public record Span(Kind kind, long from, long to) {
        public long bytes() {
            return to - from;
        }
    }

    /** The spans of the engine's regions of one log, in order. */
    public static List<Span> spans(List<Region> regions) {
        List<Span> out = new ArrayList<>(regions.size());
        for (Region g : regions) {
            out.add(new Span(Kind.of(g.kind()), g.from(), g.to()));
        }
        return out;
    }

    private SegmentMap() {
    }

    /** The map body: exactly {@code cells} characters (none for an empty log). */
    public static String line(List<Span> spans, long length, int cells, Style style) {
        if (length <= 0 || cells <= 0) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        Kind run = null;
        StringBuilder runText = new StringBuilder();
        for (int c = 0; c < cells; c++) {
            long from = boundary(length, c, cells);
            long to = Math.max(from + 1, boundary(length, c + 1, cells));
            Kind k = cellKind(spans, from, Math.min(to, length));
            if (k != run && run != null) {
                out.append(style.paint(run.paint, runText.toString()));
                runText.setLength(0);
            }
            run = k;
            runText.append(k.symbol);
        }
        if (run != null) {
            out.append(style.paint(run.paint, runText.toString()));
        }
        return out.toString();
    }

    private static long boundary(long length, int c, int cells) {
        if (length < (1L << 52)) {
            return length * c / cells;
        }
        return (long) ((double) length * c / cells);
    }

    private static Kind cellKind(List<Span> spans, long from, long to) {
        Kind alert = null;
        Kind most = Kind.UNEXAMINED;
        long mostBytes = -1;
        for (Span s : spans) {
            long a = Math.max(from, s.from());
            long b = Math.min(to, s.to());
            if (a >= b) {
                continue;
            }
            if (s.kind().alert > 0 && (alert == null || s.kind().alert > alert.alert)) {
                alert = s.kind();
            }
            if (b - a > mostBytes) {
                mostBytes = b - a;
                most = s.kind();
            }
        }
        return alert != null ? alert : most;
    }

    /** {@code = verified 1145 B   X damaged 467 B ...}: the kinds present, with their byte totals. */
    public static String legend(List<Span> spans, Style style) {
        return String.join("   ", legendParts(spans, style));
    }

    /** The legend's entries, one per kind present, for wrapping. */
    public static List<String> legendParts(List<Span> spans, Style style) {
        Map<Kind, Long> totals = new EnumMap<>(Kind.class);
        for (Span s : spans) {
            totals.merge(s.kind(), s.bytes(), Long::sum);
        }
        List<String> parts = new ArrayList<>();
        totals.forEach((k, v) -> parts.add(style.paint(k.paint, String.valueOf(k.symbol)) + " " + k.label + " "
                + v + " B" + (Bytes.unit(v) == null ? "" : " (" + Bytes.unit(v) + ")")));
        return parts;
    }
}
