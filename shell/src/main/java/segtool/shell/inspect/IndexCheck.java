package segtool.shell.inspect;

import java.io.IOException;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.LogCursor;

/**
 * Whether an index entry describes the batch at its position: Matches(o, t, p) of RECOVERY 2.3 (header fields only,
 * what boot checks), and, separately, whether that batch verifies (what boot does not check below the last entry in
 * durable mode).
 */
public final class IndexCheck {
    private IndexCheck() {
    }

    /** The answer for one entry. {@code mismatch} null means Matches holds; {@code defect} is the checksum verdict. */
    public record Mapping(String mismatch, Defect defect, boolean verified) {
        public boolean matches() {
            return mismatch == null;
        }

        public String describe() {
            if (mismatch != null) {
                return "no: " + mismatch;
            }
            if (!verified) {
                return "yes (header)";
            }
            return defect == null ? "yes, verifies" : "header yes, record does not verify: " + defect.describe();
        }
    }

    /**
     * Checks entry {@code e} against the log. {@code partitionId} -1 skips the partition comparison (unknown id).
     * With {@code verify}, a matching batch is also verified (F 2.5).
     */
    public static Mapping check(LogReader log, IndexEntry e, long partitionId, boolean verify) throws IOException {
        long p = e.position();
        if (U64.gt(U64.addSat(p, BatchHeader.LENGTH), log.length())) {
            return new Mapping("position " + U64.str(p) + " leaves no room for a header in a log of "
                    + U64.str(log.length()) + " bytes", null, false);
        }
        LogCursor.Batch batch = log.at(p);
        BatchHeader h = batch != null ? batch.header() : log.cursor().stopHeader();
        if (h == null) {
            return new Mapping("no header at " + U64.str(p) + ": " + log.problem(), null, false);
        }
        if (partitionId >= 0 && h.partitionId() != partitionId) {
            return new Mapping("batch at " + U64.str(p) + " carries partition_id " + U64.str(h.partitionId())
                    + ", not " + partitionId, null, false);
        }
        if (h.baseOffset() != e.offset()) {
            return new Mapping("batch at " + U64.str(p) + " has base_offset " + U64.str(h.baseOffset())
                    + ", entry says " + U64.str(e.offset()), null, false);
        }
        if (h.baseTimestamp() != e.timestamp()) {
            return new Mapping("batch at " + U64.str(p) + " has base_timestamp " + U64.str(h.baseTimestamp())
                    + ", entry says " + U64.str(e.timestamp()), null, false);
        }
        if (h.messageCount() == 0) {
            return new Mapping("batch at " + U64.str(p) + " is empty (message_count 0)", null, false);
        }
        if (batch == null) {
            return new Mapping(log.problem(), null, false);
        }
        if (!verify) {
            return new Mapping(null, null, false);
        }
        return new Mapping(null, log.cursor().verify(batch).defect(), true);
    }
}
