package segtool.analyzers.archive;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it and can refuse to read past a ceiling. The reader puts one under the
 * decompressor (compressed bytes consumed) and one under the tar parser (tar offsets, and the cap on metadata
 * that commons-compress would otherwise read into memory without bound).
 */
final class CountingInput extends FilterInputStream {
    /** Thrown when a read would cross the ceiling; the reader turns it into a {@link DumpException} with context. */
    static final class CeilingReached extends IOException {
        CeilingReached(long ceiling) {
            super("read past byte " + ceiling);
        }
    }

    private long count;
    private long ceiling = Long.MAX_VALUE;

    CountingInput(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    /** Reads that would go past byte {@code ceiling} of this stream fail with {@link CeilingReached}. */
    void ceiling(long ceiling) {
        this.ceiling = ceiling;
    }

    void clearCeiling() {
        this.ceiling = Long.MAX_VALUE;
    }

    @Override
    public int read() throws IOException {
        if (count >= ceiling) {
            throw new CeilingReached(ceiling);
        }
        int b = in.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (count >= ceiling) {
            throw new CeilingReached(ceiling);
        }
        int n = in.read(b, off, (int) Math.min(len, ceiling - count));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        if (n > 0 && count >= ceiling) {
            throw new CeilingReached(ceiling);
        }
        long skipped = in.skip(Math.min(n, ceiling - count));
        if (skipped > 0) {
            count += skipped;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public synchronized void mark(int readlimit) {
        // Unsupported: a reset would make the count lie.
    }

    @Override
    public synchronized void reset() throws IOException {
        throw new IOException("mark/reset not supported");
    }
}
