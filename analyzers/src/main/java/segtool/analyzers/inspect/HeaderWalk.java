package segtool.analyzers.inspect;

import java.io.IOException;
import segtool.formats.log.BatchHeader;

/**
 * A walk over batch headers only (no checksums): from a position to the end of the log or to the first header that
 * does not decode or does not fit, counting as it goes. Cheap enough for listings and statistics; it proves nothing
 * about checksums, and its users say so.
 */
public final class HeaderWalk {
    private HeaderWalk() {
    }

    /** What the walk saw over {@code [from, to)}; offsets and timestamps are -1 when no batch had messages. */
    public record Summary(long from, long to, long batches, long emptyBatches, long messages, long firstOffset,
                          long lastOffset, long firstTimestamp, long lastTimestamp, long minTimestamp,
                          long maxTimestamp, long maxBatchLength, String stop) {
        public boolean reachedEnd() {
            return stop == null;
        }
    }

    public static Summary walk(SegmentReader log, long from) throws IOException {
        long batches = 0;
        long empty = 0;
        long messages = 0;
        long first = -1;
        long last = -1;
        long firstTs = -1;
        long lastTs = -1;
        long minTs = -1;
        long maxTs = -1;
        long maxLen = 0;
        log.seek(from);
        while (true) {
            if ((batches & 255) == 0) {
                Cancel.check();
            }
            SegmentReader.Batch b = log.next();
            if (b == null) {
                break;
            }
            BatchHeader h = b.header();
            batches++;
            maxLen = Math.max(maxLen, h.batchLength());
            if (h.messageCount() == 0) {
                empty++;
            } else {
                messages += h.messageCount();
                if (first == -1) {
                    first = h.baseOffset();
                    firstTs = h.baseTimestamp();
                }
                last = h.endOffset();
                lastTs = h.baseTimestamp();
                minTs = minTs == -1 ? h.baseTimestamp() : Math.min(minTs, h.baseTimestamp());
                maxTs = Math.max(maxTs, h.baseTimestamp());
            }
        }
        return new Summary(from, log.position(), batches, empty, messages, first, last, firstTs, lastTs, minTs, maxTs,
                maxLen, log.problem());
    }
}
