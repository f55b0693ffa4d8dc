package segtool.formats.anchor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/**
 * The 40-byte gap anchor {@code <S>.anchor} (F 6): magic {@code IGGYANCH}, planted start, sealed start, sealed end,
 * and XXH3-64 over bytes {@code [0, 32)}.
 */
public record AnchorRecord(long plantedStart, long sealedStart, long sealedEnd) {
    public static final long MAGIC = 0x48434E4159474749L;
    public static final int MAGIC_OFFSET = 0;
    public static final int PLANTED_START_OFFSET = MAGIC_OFFSET + Long.BYTES;
    public static final int SEALED_START_OFFSET = PLANTED_START_OFFSET + Long.BYTES;
    public static final int SEALED_END_OFFSET = SEALED_START_OFFSET + Long.BYTES;
    public static final int CHECKSUM_OFFSET = SEALED_END_OFFSET + Long.BYTES;
    public static final int LENGTH = 40;

    /** Why bytes are not a valid anchor; {@code null} when they are. */
    public static String problem(byte[] bytes) {
        if (bytes.length != LENGTH) {
            return "anchor is " + bytes.length + " bytes, not " + LENGTH;
        }
        if (LittleEndian.u64(bytes, MAGIC_OFFSET) != MAGIC) {
            return "anchor magic is not IGGYANCH";
        }
        long stored = LittleEndian.u64(bytes, CHECKSUM_OFFSET);
        long computed = Xxh3.hash(bytes, 0, CHECKSUM_OFFSET);
        if (stored != computed) {
            return "anchor checksum mismatch: stored " + Xxh3.hex(stored) + " computed " + Xxh3.hex(computed);
        }
        return null;
    }

    /** The anchor the bytes hold, or null when they prove nothing (treated as absent). */
    public static AnchorRecord decode(byte[] bytes) {
        if (problem(bytes) != null) {
            return null;
        }
        return new AnchorRecord(LittleEndian.u64(bytes, PLANTED_START_OFFSET),
                LittleEndian.u64(bytes, SEALED_START_OFFSET), LittleEndian.u64(bytes, SEALED_END_OFFSET));
    }

    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putLong(plantedStart).putLong(sealedStart).putLong(sealedEnd);
        LittleEndian.putU64(out, CHECKSUM_OFFSET, Xxh3.hash(out, 0, CHECKSUM_OFFSET));
        return out;
    }
}
