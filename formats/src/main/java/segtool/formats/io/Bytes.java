package segtool.formats.io;

/** Small byte-array helpers for building records and files in memory. */
public final class Bytes {
    private Bytes() {
    }

    /** The arrays one after another. */
    public static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n = Math.addExact(n, p.length);
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
