package segtool.formats.legacy;

import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;

/**
 * The message record of the Iggy builds that wrote a log before the batch format of FORMAT 2: no batch header, each
 * message a 64-byte header followed by its payload and user headers, and a sparse index of 16-byte entries. FORMAT.md
 * does not specify this generation; segtool decodes only enough of it to recognise it and refuse, never to judge it.
 *
 * <pre>
 *  0  u64  checksum
 *  8  u128 id
 * 24  u64  offset (absolute)
 * 32  u64  timestamp
 * 40  u64  origin_timestamp
 * 48  u32  user_headers_length
 * 52  u32  payload_length
 * 56  u64  reserved, zero
 * 64  payload, then user headers
 * </pre>
 *
 * The index entry of that generation is {@code u32 relative offset, u32 position, u64 timestamp}.
 */
public final class LegacyMessage {
    public static final int HEADER = 64;
    public static final int INDEX_ENTRY = 16;

    private LegacyMessage() {
    }

    /** The absolute offset the header at {@code at} carries. */
    public static long offset(ByteBuffer b, int at) {
        return LittleEndian.u64(b, at + 24);
    }

    /** The timestamp (microseconds since the epoch) the header at {@code at} carries. */
    public static long timestamp(ByteBuffer b, int at) {
        return LittleEndian.u64(b, at + 32);
    }

    /**
     * The record length ({@code 64 + payload + user headers}) of the header at {@code at}, or -1 when its reserved
     * word is not zero; {@code b} must hold the 64 header bytes there.
     */
    public static long length(ByteBuffer b, int at) {
        if (LittleEndian.u64(b, at + 56) != 0) {
            return -1;
        }
        return HEADER + LittleEndian.u32(b, at + 48) + LittleEndian.u32(b, at + 52);
    }
}
