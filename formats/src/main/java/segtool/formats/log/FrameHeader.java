package segtool.formats.log;

import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;

/**
 * The 48-byte message frame header (F 2.3). Note the ordering trap: {@code user_headers_length} (32) precedes
 * {@code payload_length} (36) in the header, but in the body the payload comes first.
 * <pre>
 *   0 checksum u64 | 8 id u128 | 24 offset_delta u32 | 28 timestamp_delta u32
 *  32 user_headers_length u32 | 36 payload_length u32 | 40 reserved u64, zero
 * </pre>
 */
public record FrameHeader(long checksum, long idLow, long idHigh, long offsetDelta, long timestampDelta,
                          long userHeadersLength, long payloadLength, long reserved) {
    public static final int CHECKSUM_OFFSET = 0;
    public static final int ID_OFFSET = CHECKSUM_OFFSET + Long.BYTES;
    public static final int OFFSET_DELTA_OFFSET = ID_OFFSET + 16;
    public static final int TIMESTAMP_DELTA_OFFSET = OFFSET_DELTA_OFFSET + Integer.BYTES;
    public static final int USER_HEADERS_LENGTH_OFFSET = TIMESTAMP_DELTA_OFFSET + Integer.BYTES;
    public static final int PAYLOAD_LENGTH_OFFSET = USER_HEADERS_LENGTH_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = PAYLOAD_LENGTH_OFFSET + Integer.BYTES;
    public static final int LENGTH = 48;

    public static FrameHeader read(ByteBuffer b, int at) {
        return new FrameHeader(
                LittleEndian.u64(b, at + CHECKSUM_OFFSET),
                LittleEndian.u64(b, at + ID_OFFSET),
                LittleEndian.u64(b, at + ID_OFFSET + Long.BYTES),
                LittleEndian.u32(b, at + OFFSET_DELTA_OFFSET),
                LittleEndian.u32(b, at + TIMESTAMP_DELTA_OFFSET),
                LittleEndian.u32(b, at + USER_HEADERS_LENGTH_OFFSET),
                LittleEndian.u32(b, at + PAYLOAD_LENGTH_OFFSET),
                LittleEndian.u64(b, at + RESERVED_OFFSET));
    }

    /** Frame size: header, payload, user headers. */
    public long frameLength() {
        return LENGTH + payloadLength + userHeadersLength;
    }

    /** The id as an unsigned 128-bit decimal. */
    public String id() {
        return new java.math.BigInteger(1, toBigEndian(idHigh, idLow)).toString();
    }

    private static byte[] toBigEndian(long hi, long lo) {
        byte[] out = new byte[16];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (hi >>> (56 - 8 * i));
            out[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return out;
    }
}
