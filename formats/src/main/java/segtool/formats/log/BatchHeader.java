package segtool.formats.log;

import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.U64;

/**
 * The 256-byte header of a batch record (FORMAT.md section 2.2). Every u64 is unsigned and kept in a signed long.
 * <pre>
 *   0 partition_id u64 |  8 base_offset    u64 | 16 base_timestamp u64 | 24 origin_timestamp u64
 *  32 batch_length u64 | 40 batch_checksum u64 | 48 message_count  u32 | 52..255 reserved, zero
 * </pre>
 */
public record BatchHeader(long partitionId, long baseOffset, long baseTimestamp, long originTimestamp,
                          long batchLength, long batchChecksum, long messageCount) {
    public static final int PARTITION_ID_OFFSET = 0;
    public static final int BASE_OFFSET_OFFSET = PARTITION_ID_OFFSET + Long.BYTES;
    public static final int BASE_TIMESTAMP_OFFSET = BASE_OFFSET_OFFSET + Long.BYTES;
    public static final int ORIGIN_TIMESTAMP_OFFSET = BASE_TIMESTAMP_OFFSET + Long.BYTES;
    public static final int BATCH_LENGTH_OFFSET = ORIGIN_TIMESTAMP_OFFSET + Long.BYTES;
    public static final int CHECKSUM_OFFSET = BATCH_LENGTH_OFFSET + Long.BYTES;
    public static final int MESSAGE_COUNT_OFFSET = CHECKSUM_OFFSET + Long.BYTES;
    public static final int RESERVED_OFFSET = MESSAGE_COUNT_OFFSET + Integer.BYTES;
    public static final int LENGTH = 256;
    /** Length of the header fields the batch checksum covers: six meta fields, message_count as 4 bytes. */
    public static final int COVERED_META_LENGTH = 44;
    /**
     * {@code MAX_MESSAGE_SIZE_UPPER_BYTES} (F 5): the frozen ceiling on the server's widest framed message. A tool
     * parameter with this default; confirm it against the server build being inspected.
     */
    public static final long MAX_MESSAGE_SIZE_UPPER_BYTES = 268_435_456L;
    /** {@code MAXB} (F 5, R 2.1): the largest {@code batch_length} recovery treats as a plausible record. */
    public static final long MAX_RECOVERABLE_BATCH_BYTES = MAX_MESSAGE_SIZE_UPPER_BYTES + LENGTH;

    /**
     * Why the 256 bytes at {@code at} do not decode as a header (F 2.2), or null if they do. Only the length floor
     * and the reserved bytes are checked: not the checksum, the count, the partition or the MAXB ceiling.
     */
    public static Defect check(ByteBuffer b, int at, long position) {
        long length = LittleEndian.u64(b, at + BATCH_LENGTH_OFFSET);
        if (U64.lt(length, LENGTH)) {
            return Defect.of(Defect.Code.LENGTH_TOO_SMALL, position, 0, LENGTH, length);
        }
        int reservedAt = firstNonZeroReserved(b, at);
        if (reservedAt >= 0) {
            return Defect.of(Defect.Code.RESERVED_NOT_ZERO, position + reservedAt, reservedAt, 0,
                    b.get(at + reservedAt) & 0xFF);
        }
        return null;
    }

    /** True iff the header at {@code at} decodes (F 2.2). */
    public static boolean decodes(ByteBuffer b, int at) {
        return U64.ge(LittleEndian.u64(b, at + BATCH_LENGTH_OFFSET), LENGTH) && firstNonZeroReserved(b, at) < 0;
    }

    /**
     * How many candidate headers from {@code at} on (at most {@code max}, at least 1) surely do not decode (F 2.2),
     * for a search that examines candidates one byte apart; 0 when the header at {@code at} decodes. Two rules:
     * <ul>
     * <li>its {@code batch_length} is below 256, so its bytes 33..39 are zero: so is every following candidate's
     * while those bytes stay zero, and a zero-filled stretch is passed in one word scan;
     * <li>a reserved byte (52..255) is nonzero: with {@code r} the offset of its last nonzero one, the header at
     * {@code at + k} holds that byte among its own reserved bytes for every {@code k <= r - 52}, so {@code r - 51}
     * candidates fail (over noise, about 200 per look instead of one).
     * </ul>
     * The caller must have {@code 256 + max - 1} bytes from {@code at}.
     */
    public static long undecodableRun(ByteBuffer b, int at, long max) {
        if (U64.lt(LittleEndian.u64(b, at + BATCH_LENGTH_OFFSET), LENGTH)) {
            // candidate at + k reads bytes at + k + 33 .. at + k + 39: zero while [at + 40, at + 39 + k] is
            int limit = (int) Math.min(max - 1, Integer.MAX_VALUE - 64L);
            int j = at + 40;
            int end = at + 40 + limit;
            while (j + Long.BYTES <= end && LittleEndian.u64(b, j) == 0) {
                j += Long.BYTES;
            }
            while (j < end && b.get(j) == 0) {
                j++;
            }
            return 1 + (j - at - 40);
        }
        for (int o = LENGTH - Long.BYTES; o >= RESERVED_OFFSET + Integer.BYTES; o -= Long.BYTES) {
            long w = LittleEndian.u64(b, at + o);
            if (w != 0) {
                // little-endian: byte j of the word is bits 8j..8j+7, so the last nonzero byte is the highest
                return Math.min(max, o + 7 - (Long.numberOfLeadingZeros(w) >>> 3) - (RESERVED_OFFSET - 1));
            }
        }
        long w = LittleEndian.u32(b, at + RESERVED_OFFSET);
        if (w != 0) {
            return Math.min(max, RESERVED_OFFSET + 3 - ((Long.numberOfLeadingZeros(w) - 32) >>> 3)
                    - (RESERVED_OFFSET - 1));
        }
        return 0;
    }

    /** Offset within the header of the first nonzero reserved byte, or -1. */
    static int firstNonZeroReserved(ByteBuffer b, int at) {
        if (LittleEndian.u32(b, at + RESERVED_OFFSET) != 0) {
            return firstNonZeroByte(b, at, RESERVED_OFFSET, RESERVED_OFFSET + 4);
        }
        for (int i = RESERVED_OFFSET + 4; i < LENGTH; i += Long.BYTES) {
            if (LittleEndian.u64(b, at + i) != 0) {
                return firstNonZeroByte(b, at, i, i + Long.BYTES);
            }
        }
        return -1;
    }

    private static int firstNonZeroByte(ByteBuffer b, int at, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b.get(at + i) != 0) {
                return i;
            }
        }
        return -1;
    }

    /** Reads the fields without checking them. */
    public static BatchHeader read(ByteBuffer b, int at) {
        return new BatchHeader(
                LittleEndian.u64(b, at + PARTITION_ID_OFFSET),
                LittleEndian.u64(b, at + BASE_OFFSET_OFFSET),
                LittleEndian.u64(b, at + BASE_TIMESTAMP_OFFSET),
                LittleEndian.u64(b, at + ORIGIN_TIMESTAMP_OFFSET),
                LittleEndian.u64(b, at + BATCH_LENGTH_OFFSET),
                LittleEndian.u64(b, at + CHECKSUM_OFFSET),
                LittleEndian.u32(b, at + MESSAGE_COUNT_OFFSET));
    }

    /** {@code base_offset + message_count - 1}, saturating; meaningful only when {@code message_count > 0}. */
    public long endOffset() {
        return U64.addSat(baseOffset, messageCount - 1);
    }

    /** The offset the next record must carry: {@code end_offset + 1}, saturating (R 2.2). */
    public long nextOffset() {
        return messageCount == 0 ? baseOffset : U64.addSat(endOffset(), 1);
    }

    /** Writes the header fields into {@code dst} at {@code at}; the reserved bytes are left as they are. */
    public void write(byte[] dst, int at) {
        LittleEndian.putU64(dst, at + PARTITION_ID_OFFSET, partitionId);
        LittleEndian.putU64(dst, at + BASE_OFFSET_OFFSET, baseOffset);
        LittleEndian.putU64(dst, at + BASE_TIMESTAMP_OFFSET, baseTimestamp);
        LittleEndian.putU64(dst, at + ORIGIN_TIMESTAMP_OFFSET, originTimestamp);
        LittleEndian.putU64(dst, at + BATCH_LENGTH_OFFSET, batchLength);
        LittleEndian.putU64(dst, at + CHECKSUM_OFFSET, batchChecksum);
        LittleEndian.putU32(dst, at + MESSAGE_COUNT_OFFSET, messageCount);
    }
}
