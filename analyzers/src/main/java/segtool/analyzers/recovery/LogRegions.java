package segtool.analyzers.recovery;

import java.util.List;

/**
 * What recovery makes of each byte of one segment's log, in ascending, non-overlapping regions that cover
 * {@code [0, logBytes)}: verified, unread, torn tail, damaged, foreign batch, stale batch, residue, survivor, fenced,
 * or unexamined. {@code logBytes} and {@code indexBytes} are the lengths judged, or the lengths on disk for a
 * segment the load never reached. {@code survivors} is set for the segment an InteriorDamage is about.
 */
public record LogRegions(long start, long logBytes, long indexBytes, List<Region> regions, Survivors survivors) {
    public LogRegions {
        regions = List.copyOf(regions);
    }
}
