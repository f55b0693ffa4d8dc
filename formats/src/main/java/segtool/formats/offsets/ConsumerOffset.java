package segtool.formats.offsets;

import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/**
 * A consumer or consumer-group offset file (F 7): {@code [0,8)} the offset, {@code [8,16)} XXH3-64 of {@code [0,8)}.
 * Fewer than 8 bytes is torn; 8 to 15 a bare legacy offset; 16 or more checksummed (only 16 read).
 */
public record ConsumerOffset(Kind kind, long offset) {
    public enum Kind { TORN, LEGACY, CHECKSUMMED, CORRUPT }

    public static ConsumerOffset decode(byte[] bytes) {
        if (bytes.length < 8) {
            return new ConsumerOffset(Kind.TORN, 0);
        }
        long offset = LittleEndian.u64(bytes, 0);
        if (bytes.length < 16) {
            return new ConsumerOffset(Kind.LEGACY, offset);
        }
        boolean ok = LittleEndian.u64(bytes, 8) == Xxh3.hash(bytes, 0, 8);
        return new ConsumerOffset(ok ? Kind.CHECKSUMMED : Kind.CORRUPT, offset);
    }

    public static byte[] encode(long offset) {
        byte[] out = new byte[16];
        LittleEndian.putU64(out, 0, offset);
        LittleEndian.putU64(out, 8, Xxh3.hash(out, 0, 8));
        return out;
    }
}
