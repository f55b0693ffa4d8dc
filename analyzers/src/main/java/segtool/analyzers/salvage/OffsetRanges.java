package segtool.analyzers.salvage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.formats.io.U64;

/**
 * A set of unsigned 64-bit values kept as merged, inclusive ranges {@code [first, last]}. Memory grows with the
 * number of gaps, not with the number of values or of the batches that added them.
 */
public final class OffsetRanges {
    /** One inclusive range of offsets. */
    public record Range(long first, long last) {
        /** How many offsets the range holds (saturating at 2^64-1). */
        public long count() {
            return U64.addSat(last - first, 1);
        }

        /** {@code 1..3}, or {@code 7} for a single offset. */
        @Override
        public String toString() {
            return first == last ? U64.str(first) : U64.str(first) + ".." + U64.str(last);
        }
    }

    private final TreeMap<Long, Long> ranges = new TreeMap<>(Long::compareUnsigned);

    /** Adds {@code [first, last]} (unsigned, {@code first <= last}), merging with touching or overlapping ranges. */
    public void add(long first, long last) {
        if (U64.gt(first, last)) {
            throw new IllegalArgumentException(U64.str(first) + " > " + U64.str(last));
        }
        long from = first;
        long to = last;
        Map.Entry<Long, Long> below = ranges.floorEntry(first);
        if (below != null && (U64.ge(below.getValue(), first) || below.getValue() != U64.MAX
                && below.getValue() + 1 == first)) {
            from = below.getKey();
            to = U64.gt(below.getValue(), to) ? below.getValue() : to;
            ranges.remove(below.getKey());
        }
        while (true) {
            Map.Entry<Long, Long> next = to == U64.MAX ? null : ranges.ceilingEntry(from);
            if (next == null || U64.gt(next.getKey(), to + 1)) {
                break;
            }
            to = U64.gt(next.getValue(), to) ? next.getValue() : to;
            ranges.remove(next.getKey());
        }
        ranges.put(from, to);
    }

    public void addAll(OffsetRanges other) {
        for (Range r : other.list()) {
            add(r.first(), r.last());
        }
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The ranges in ascending order. */
    public List<Range> list() {
        List<Range> out = new ArrayList<>(ranges.size());
        ranges.forEach((a, b) -> out.add(new Range(a, b)));
        return out;
    }

    /** The values of {@code [first, last]} that are not in this set, as ranges. */
    public List<Range> missingWithin(long first, long last) {
        List<Range> out = new ArrayList<>();
        if (U64.gt(first, last)) {
            return out;
        }
        long cursor = first;
        boolean done = false;
        for (Range r : list()) {
            if (U64.lt(r.last(), cursor)) {
                continue;
            }
            if (U64.gt(r.first(), last)) {
                break;
            }
            if (U64.gt(r.first(), cursor)) {
                out.add(new Range(cursor, r.first() - 1));
            }
            if (r.last() == U64.MAX || U64.ge(r.last(), last)) {
                done = true;
                break;
            }
            cursor = r.last() + 1;
        }
        if (!done) {
            out.add(new Range(cursor, last));
        }
        return out;
    }

    /** Total number of offsets held (saturating). */
    public long count() {
        long n = 0;
        for (Range r : list()) {
            n = U64.addSat(n, r.count());
        }
        return n;
    }

    @Override
    public String toString() {
        return list().toString();
    }
}
