package segtool.analyzers.replica;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The batch records one header walk of a {@code .log} framed, in log order: per batch {@code position},
 * {@code base_offset}, {@code batch_length}, {@code batch_checksum}, {@code message_count} and whether the record
 * verifies (F 2.5). Kept in primitive columns (about 41 bytes a batch) rather than one object per batch.
 */
public final class Batches {
    private long[] position = new long[16];
    private long[] baseOffset = new long[16];
    private long[] length = new long[16];
    private long[] checksum = new long[16];
    private long[] count = new long[16];
    private final BitSet verified = new BitSet();
    private int size;

    public void add(long position, long baseOffset, long length, long checksum, long count, boolean verified) {
        if (size == this.position.length) {
            int n = size * 2;
            this.position = Arrays.copyOf(this.position, n);
            this.baseOffset = Arrays.copyOf(this.baseOffset, n);
            this.length = Arrays.copyOf(this.length, n);
            this.checksum = Arrays.copyOf(this.checksum, n);
            this.count = Arrays.copyOf(this.count, n);
        }
        this.position[size] = position;
        this.baseOffset[size] = baseOffset;
        this.length[size] = length;
        this.checksum[size] = checksum;
        this.count[size] = count;
        this.verified.set(size, verified);
        size++;
    }

    public int size() {
        return size;
    }

    public long position(int i) {
        return position[check(i)];
    }

    public long baseOffset(int i) {
        return baseOffset[check(i)];
    }

    public long length(int i) {
        return length[check(i)];
    }

    public long checksum(int i) {
        return checksum[check(i)];
    }

    public long count(int i) {
        return count[check(i)];
    }

    public boolean verified(int i) {
        return verified.get(check(i));
    }

    /** Where batch {@code i} ends: the next record's position. */
    public long end(int i) {
        return position(i) + length(i);
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i + " of " + size);
        }
        return i;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Batches b) || b.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (b.position[i] != position[i] || b.baseOffset[i] != baseOffset[i] || b.length[i] != length[i]
                    || b.checksum[i] != checksum[i] || b.count[i] != count[i] || b.verified(i) != verified(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return size == 0 ? 0 : Long.hashCode(checksum[size - 1]) * 31 + size;
    }
}
