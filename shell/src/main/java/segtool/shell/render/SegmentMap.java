package segtool.shell.render;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A one-line picture of a log, scaled to a width: each cell stands for {@code length / cells} bytes and shows the
 * kind of region it covers. A cell touching damage, a survivor, a torn tail or residue shows that, however few bytes
 * it is, so a 1-byte flip in a 1 GiB log stays visible; otherwise the kind covering most of the cell wins. Each kind
 * has its own character, so the map reads the same without colour.
 */
public final class SegmentMap {
    /** Region kinds, in the order the legend lists them. */
    public enum Kind {
        VERIFIED('=', Style.Paint.GREEN, "verified", 0),
        UNREAD('~', Style.Paint.CYAN, "not re-read at boot", 0),
        TORN('-', Style.Paint.YELLOW, "torn (dropped by recovery)", 1),
        DAMAGED('X', Style.Paint.RED, "damaged", 4),
        RESIDUE('?', Style.Paint.MAGENTA, "residue (unclassified)", 2),
        SURVIVOR('S', Style.Paint.BLUE, "survivor (verifies after damage)", 3),
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
    }

    /** {@code [from, to)} of kind {@code kind}. */
    public record Span(Kind kind, long from, long to) {
        public long bytes() {
            return to - from;
        }
    }

    /** A piecewise-constant painting of {@code [0, length)}; later paints override earlier ones. */
    public static final class Canvas {
        private final long length;
        private final TreeMap<Long, Kind> starts = new TreeMap<>();

        public Canvas(long length, Kind background) {
            this.length = length;
            if (length > 0) {
                starts.put(0L, background);
            }
        }

        public Canvas paint(long from, long to, Kind kind) {
            long a = Math.max(0, from);
            long b = Math.min(length, to);
            if (a >= b) {
                return this;
            }
            Map.Entry<Long, Kind> atB = starts.floorEntry(b);
            Kind after = atB == null ? null : atB.getValue();
            starts.subMap(a, true, b, true).clear();
            starts.put(a, kind);
            if (b < length && after != null) {
                starts.put(b, after);
            }
            return this;
        }

        public List<Span> spans() {
            List<Span> out = new ArrayList<>();
            Map.Entry<Long, Kind> prev = null;
            for (Map.Entry<Long, Kind> e : starts.entrySet()) {
                if (prev != null && e.getKey() > prev.getKey()) {
                    add(out, prev.getValue(), prev.getKey(), e.getKey());
                }
                prev = e;
            }
            if (prev != null) {
                add(out, prev.getValue(), prev.getKey(), length);
            }
            return out;
        }

        private static void add(List<Span> out, Kind k, long from, long to) {
            if (!out.isEmpty() && out.get(out.size() - 1).kind() == k) {
                Span last = out.remove(out.size() - 1);
                out.add(new Span(k, last.from(), to));
            } else {
                out.add(new Span(k, from, to));
            }
        }
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
                + v + " B"));
        return parts;
    }
}
