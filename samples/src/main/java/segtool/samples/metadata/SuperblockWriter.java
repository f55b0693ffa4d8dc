package segtool.samples.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import segtool.formats.hash.Xxh3;

/**
 * Writes one superblock slot from METADATA 5.1: the 28-byte header, a 66-byte {@code VsrState} (58 without
 * {@code offset_frontier}), and the XXH3-64 of everything before it.
 */
public final class SuperblockWriter {
    public long sequence = 1;
    public long clusterLow = 0x0011223344556677L;
    public long clusterHigh = 0x0123456789ABCDEFL;
    public int replicaId;
    public int replicaCount = 1;
    public int view = 2;
    public int logView = 2;
    public long commitMax = 5;
    public long checkpointOp;
    public long checkpointChecksum;
    public long offsetFrontier = 5;
    public boolean oldLayout;

    /** The 5.3 example. */
    public static SuperblockWriter example53() {
        return new SuperblockWriter();
    }

    public byte[] file() {
        int len = oldLayout ? 58 : 66;
        ByteBuffer b = ByteBuffer.allocate(28 + len + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0x53424C4B).putShort(4, (short) 1).putLong(8, sequence).putInt(24, len);
        b.putLong(28, clusterLow).putLong(36, clusterHigh);
        b.put(44, (byte) replicaId).put(45, (byte) replicaCount).putInt(46, view).putInt(50, logView);
        b.putLong(54, commitMax).putLong(62, checkpointOp).putLong(70, checkpointChecksum).putLong(78, 0);
        if (!oldLayout) {
            b.putLong(86, offsetFrontier);
        }
        byte[] a = b.array();
        b.putLong(28 + len, Xxh3.hash(a, 0, 28 + len));
        return a;
    }
}
