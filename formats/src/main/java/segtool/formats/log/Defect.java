package segtool.formats.log;

import segtool.formats.hash.Xxh3;
import segtool.formats.io.U64;

/**
 * Why a record failed verification (F 2.5) or a header failed to decode (F 2.2): a stable code, where, and the
 * stored and computed values. {@code position} is absolute in the log; {@code index} is the frame index for frame
 * defects, or the header byte offset for reserved bytes.
 */
public record Defect(Code code, long position, long index, long expected, long actual) {
    public enum Code {
        /** Fewer than 256 bytes remain at the position. */
        HEADER_TRUNCATED,
        /** {@code batch_length < 256}. */
        LENGTH_TOO_SMALL,
        /** A byte in {@code [52, 256)} is not zero. */
        RESERVED_NOT_ZERO,
        /** {@code batch_length > MAX_RECOVERABLE_BATCH_BYTES}. */
        LENGTH_OVER_MAX,
        /** {@code position + batch_length} runs past the end of the log. */
        RUNS_PAST_EOF,
        /** A frame header would not fit in what is left of the blob. */
        FRAME_TRUNCATED,
        /** A frame's 8 reserved bytes are not zero. */
        FRAME_RESERVED_NOT_ZERO,
        /** A frame runs past the end of the blob. */
        FRAME_OVERRUNS_BLOB,
        /** The blob does not hold exactly {@code message_count} frames. */
        FRAME_COUNT_MISMATCH,
        /** A per-message XXH3 does not match. */
        MESSAGE_CHECKSUM_MISMATCH,
        /** The batch XXH3 over the header meta and frame checksums does not match. */
        BATCH_CHECKSUM_MISMATCH
    }

    public static Defect of(Code code, long position, long index, long expected, long actual) {
        return new Defect(code, position, index, expected, actual);
    }

    /** One plain line, e.g. {@code batch checksum mismatch at 1048576: stored 0x... computed 0x...}. */
    public String describe() {
        String at = U64.str(position);
        switch (code) {
            case HEADER_TRUNCATED:
                return "header truncated at " + at + ": " + U64.str(actual) + " of 256 bytes present";
            case LENGTH_TOO_SMALL:
                return "batch_length " + U64.str(actual) + " below 256 at " + at;
            case RESERVED_NOT_ZERO:
                return "reserved header byte " + index + " is 0x" + Long.toHexString(actual) + " (must be 0) at " + at;
            case LENGTH_OVER_MAX:
                return "batch_length " + U64.str(actual) + " exceeds the maximum " + U64.str(expected) + " at " + at;
            case RUNS_PAST_EOF:
                return "batch_length " + U64.str(actual) + " runs past end of log at " + at + " ("
                        + U64.str(expected) + " bytes left)";
            case FRAME_TRUNCATED:
                return "frame " + index + " header truncated at " + at + " (" + U64.str(actual)
                        + " bytes left in blob)";
            case FRAME_RESERVED_NOT_ZERO:
                return "frame " + index + " reserved bytes not zero at " + at + ": 0x" + Long.toHexString(actual);
            case FRAME_OVERRUNS_BLOB:
                return "frame " + index + " at " + at + " runs past the blob: ends at " + U64.str(actual)
                        + ", blob ends at " + U64.str(expected);
            case FRAME_COUNT_MISMATCH:
                return "message_count " + U64.str(expected) + " but the blob holds " + U64.str(actual)
                        + " whole frames at " + at;
            case MESSAGE_CHECKSUM_MISMATCH:
                return "message " + index + " checksum mismatch at " + at + ": stored " + Xxh3.hex(expected)
                        + " computed " + Xxh3.hex(actual);
            case BATCH_CHECKSUM_MISMATCH:
                return "batch checksum mismatch at " + at + ": stored " + Xxh3.hex(expected) + " computed "
                        + Xxh3.hex(actual);
            default:
                throw new AssertionError(code);
        }
    }
}
