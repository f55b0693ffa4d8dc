package segtool.analyzers.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A piecewise-constant painting of {@code [0, length)} with region kinds; later paints override earlier ones and
 * adjacent ranges of one kind merge. Memory grows with the number of paints, never with the length.
 */
public final class RegionCanvas {
    private final long length;
    private final TreeMap<Long, Region.Kind> starts = new TreeMap<>();

    public RegionCanvas(long length, Region.Kind background) {
        this.length = length;
        if (length > 0) {
            starts.put(0L, background);
        }
    }

    /** Paints {@code [from, to)} clipped to the canvas; an empty range paints nothing. */
    public RegionCanvas paint(long from, long to, Region.Kind kind) {
        long a = Math.max(0, from);
        long b = Math.min(length, to);
        if (a >= b) {
            return this;
        }
        Map.Entry<Long, Region.Kind> atB = starts.floorEntry(b);
        Region.Kind after = atB == null ? null : atB.getValue();
        starts.subMap(a, true, b, true).clear();
        starts.put(a, kind);
        if (b < length && after != null) {
            starts.put(b, after);
        }
        return this;
    }

    /** The regions in ascending order, covering {@code [0, length)}; notes are empty. */
    public List<Region> regions() {
        List<Region> out = new ArrayList<>();
        Map.Entry<Long, Region.Kind> prev = null;
        for (Map.Entry<Long, Region.Kind> e : starts.entrySet()) {
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

    private static void add(List<Region> out, Region.Kind k, long from, long to) {
        if (!out.isEmpty() && out.get(out.size() - 1).kind() == k) {
            Region last = out.remove(out.size() - 1);
            out.add(new Region(k, last.from(), to, ""));
        } else {
            out.add(new Region(k, from, to, ""));
        }
    }
}
