package segtool.analyzers.recovery;

import segtool.formats.io.U64;
import segtool.formats.log.Defect;

/** Where and why a walk over a log stopped. {@code defect} is set for header and verification failures. */
public record Stop(Kind kind, long position, Defect defect, String detail) {
    public enum Kind {
        /** The walk consumed the whole log. */
        END_OF_LOG,
        /** Fewer than 256 bytes remain: no header. */
        HEADER_TRUNCATED,
        /** The 256 bytes do not decode (F 2.2). */
        HEADER_INVALID,
        /** {@code batch_length} exceeds MAX_RECOVERABLE_BATCH_BYTES. */
        LENGTH_OVER_MAX,
        /** {@code position + batch_length} runs past the end of the log. */
        RUNS_PAST_EOF,
        /** The record does not verify (F 2.5). */
        VERIFY_FAILED,
        /** W only: the first record's offset is not the index entry's (a stale entry; not a refusal). */
        INDEX_OFFSET_MISMATCH,
        /** The record verifies but refuses: ForeignBatch or OffsetDiscontinuity; {@code detail} is the refusal. */
        REFUSED
    }

    public boolean atEnd() {
        return kind == Kind.END_OF_LOG;
    }

    /** A plain sentence: {@code batch checksum mismatch at 1048576: stored 0x... computed 0x...}. */
    public String describe() {
        switch (kind) {
            case END_OF_LOG:
                return "reached the end of the log at " + U64.str(position);
            case HEADER_TRUNCATED:
                return "only " + detail + " bytes left at " + U64.str(position) + ", too few for a 256-byte header";
            case LENGTH_OVER_MAX:
                return "batch_length " + detail + " at " + U64.str(position)
                        + " exceeds MAX_RECOVERABLE_BATCH_BYTES";
            case INDEX_OFFSET_MISMATCH:
                return "the record at " + U64.str(position) + " " + detail;
            case REFUSED:
                return "the record at " + U64.str(position) + " verifies and refuses: " + detail;
            case HEADER_INVALID:
            case RUNS_PAST_EOF:
            case VERIFY_FAILED:
                return defect != null ? defect.describe() : detail;
            default:
                throw new AssertionError(kind);
        }
    }
}
