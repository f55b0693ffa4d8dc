package segtool.formats.index;

import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;

/**
 * One 24-byte sparse-index entry (F 3.1): the {@code base_offset}, {@code base_timestamp} and log position of the
 * batch that starts a flushed chunk. All three are unsigned.
 * <pre>
 *   0 offset u64 | 8 timestamp u64 | 16 position u64
 * </pre>
 */
public record IndexEntry(long offset, long timestamp, long position) {
    public static final int OFFSET_OFFSET = 0;
    public static final int TIMESTAMP_OFFSET = OFFSET_OFFSET + Long.BYTES;
    public static final int POSITION_OFFSET = TIMESTAMP_OFFSET + Long.BYTES;
    public static final int LENGTH = 24;

    public static IndexEntry read(ByteBuffer b, int at) {
        return new IndexEntry(LittleEndian.u64(b, at + OFFSET_OFFSET), LittleEndian.u64(b, at + TIMESTAMP_OFFSET),
                LittleEndian.u64(b, at + POSITION_OFFSET));
    }

    public void write(byte[] dst, int at) {
        LittleEndian.putU64(dst, at + OFFSET_OFFSET, offset);
        LittleEndian.putU64(dst, at + TIMESTAMP_OFFSET, timestamp);
        LittleEndian.putU64(dst, at + POSITION_OFFSET, position);
    }

    public byte[] toBytes() {
        byte[] out = new byte[LENGTH];
        write(out, 0);
        return out;
    }
}
