package segtool.analyzers.inspect;

import java.io.IOException;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;

/**
 * Where to start walking a log to reach an offset or a timestamp, as the server's readers use the index: the last
 * entry at or below the target (a lower-bound hint, F 3.2), confirmed by the engine's Matches against the batch
 * header it points at. An entry that does not match is not trusted, and the walk starts at byte 0.
 */
public final class Seek {
    private Seek() {
    }

    /**
     * The starting point: an entry (index -1 when none was usable) and the position to walk from, with a note.
     * {@code mismatch} is true when the note reports an inconsistency: the entry to start from does not match its
     * batch (not when the index simply has no entry at or below the target).
     */
    public record Start(long entry, IndexEntry indexEntry, long position, String note, boolean mismatch) {
    }

    /** The last entry whose offset is at or below {@code offset}. */
    public static Start byOffset(SegmentReader segment, long offset) throws IOException {
        long best = -1;
        IndexEntry bestEntry = null;
        for (long i = 0; i < segment.entries(); i++) {
            if ((i & 1023) == 0) {
                Cancel.check();
            }
            IndexEntry e = segment.entry(i);
            if (U64.le(e.offset(), offset) && (bestEntry == null || U64.gt(e.offset(), bestEntry.offset()))) {
                best = i;
                bestEntry = e;
            }
        }
        return confirm(segment, best, bestEntry);
    }

    /**
     * The entry to walk from to find the first batch with {@code base_timestamp >= timestamp}: the entry before the
     * first entry whose timestamp reaches it (timestamps need not be monotone, so the first such entry counts).
     */
    public static Start byTimestamp(SegmentReader segment, long timestamp) throws IOException {
        long best = -1;
        IndexEntry bestEntry = null;
        for (long i = 0; i < segment.entries(); i++) {
            if ((i & 1023) == 0) {
                Cancel.check();
            }
            IndexEntry e = segment.entry(i);
            if (U64.ge(e.timestamp(), timestamp)) {
                break;
            }
            best = i;
            bestEntry = e;
        }
        return confirm(segment, best, bestEntry);
    }

    private static Start confirm(SegmentReader segment, long i, IndexEntry e) throws IOException {
        if (e == null) {
            return new Start(-1, null, 0, "no index entry at or below the target; walked from byte 0", false);
        }
        IndexMapping m = segment.check(e, false);
        if (!m.matches()) {
            return new Start(-1, null, 0, "index entry " + i + " does not match its batch (" + m.mismatch()
                    + "); walked from byte 0", true);
        }
        return new Start(i, e, e.position(), null, false);
    }
}
