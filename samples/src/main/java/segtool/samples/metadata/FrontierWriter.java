package segtool.samples.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import segtool.formats.hash.Xxh3;

/**
 * Writes {@code prepares-<rev>/frontier} slots from METADATA 6.3 and 6.5 (magic {@code IGGYWAL3}): fields at their
 * offsets, the magic copy at 208, the sequence at 216, and the checksum XXH3-64 of bytes 16-4096 at 8.
 */
public final class FrontierWriter {
    public String magic = "IGGYWAL3";
    public long group;
    public long incarnation = 1;
    public long generation;
    public long length = 4096;
    public long checkpoint = 3;
    public long head = 3;
    public int anchorKnown = 1;
    public int checkpointPrepare = 1;
    public int certifiedView = 1;
    public int segmentReferences = 1;
    /** Segment state, written when non-null: max_size, next_generation, tail[4], checkpoint[4]. */
    public long[] segments = {1L << 30, 1, 0, 0, 1145, 5, 0, 0, 1145, 5};

    /** The 6.9 example: partition (0,0,0), revision 1, checkpoint op 3, segment 0 holding 1,145 bytes, offsets 0-4. */
    public static FrontierWriter example69() {
        return new FrontierWriter();
    }

    /** Checkpoint {@code (C, Lc, N)} with the tail at the same position. */
    public FrontierWriter checkpoint(long c, long lc, long n) {
        segments = new long[] {1L << 30, 1, 0, c, lc, n, 0, c, lc, n};
        return this;
    }

    /** No segment state: byte 99 = 0, bytes 128-208 zero. */
    public FrontierWriter noSegments() {
        segments = null;
        return this;
    }

    public byte[] slot(long sequence) {
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        byte[] m = magic.getBytes(StandardCharsets.ISO_8859_1);
        b.put(0, m);
        b.putLong(16, group).putLong(24, incarnation).putLong(32, generation).putLong(40, length);
        b.putLong(48, checkpoint).putLong(56, 0xA5A5).putLong(72, head).putLong(80, 0xA5A5);
        b.put(96, (byte) anchorKnown).put(97, (byte) checkpointPrepare).put(98, (byte) certifiedView);
        b.put(99, (byte) (segments == null ? 0 : 1)).put(100, (byte) segmentReferences);
        if (segments != null) {
            for (int i = 0; i < 10; i++) {
                b.putLong(128 + 8 * i, segments[i]);
            }
        }
        b.put(208, m);
        b.putLong(216, sequence);
        byte[] a = b.array();
        b.putLong(8, Xxh3.hash(a, 16, 4096 - 16));
        return a;
    }

    /** Two slots: sequence {@code s0} in slot 0 and {@code s1} in slot 1. */
    public byte[] file(long s0, long s1) {
        byte[] out = new byte[8192];
        System.arraycopy(slot(s0), 0, out, 0, 4096);
        System.arraycopy(slot(s1), 0, out, 4096, 4096);
        return out;
    }
}
