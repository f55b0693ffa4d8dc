package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchHeader#undecodableRun}: the searches of the damage probe and of salvage skip that many candidates at
 * once, so every candidate it covers must fail F 2.2's reserved-bytes rule, and the count must be the one the last
 * nonzero reserved byte gives (worked out here byte by byte).
 */
class UndecodableRunTest {
    /** Bytes that are zero with the given chance in percent, so that all-zero reserved stretches occur too. */
    private static ByteBuffer bytes(long seed, int zeroPercent, boolean direct) {
        Random r = new Random(seed);
        byte[] a = new byte[768];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextInt(100) < zeroPercent ? 0 : (byte) (1 + r.nextInt(255));
        }
        if (!direct) {
            return ByteBuffer.wrap(a);
        }
        ByteBuffer d = ByteBuffer.allocateDirect(a.length);
        d.put(a).clear();
        return d;
    }

    private static int lastNonZeroReserved(ByteBuffer b, int at) {
        for (int r = BatchHeader.LENGTH - 1; r >= BatchHeader.RESERVED_OFFSET; r--) {
            if (b.get(at + r) != 0) {
                return r;
            }
        }
        return -1;
    }

    @Property(tries = 400)
    void everyCandidateOfTheRunFailsTheReservedRule_andTheRunIsTheLastNonzeroBytesReach(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 100) int zeroPercent, @ForAll boolean direct) {
        ByteBuffer b = bytes(seed, zeroPercent, direct);
        for (int at = 0; at + 2 * BatchHeader.LENGTH <= b.capacity(); at++) {
            int run = BatchHeader.undecodableRun(b, at);
            int last = lastNonZeroReserved(b, at);
            assertEquals(last < 0 ? 0 : last - (BatchHeader.RESERVED_OFFSET - 1), run, "at " + at);
            assertEquals(run == 0, BatchHeader.firstNonZeroReserved(b, at) < 0, "at " + at);
            for (int k = 0; k < run; k++) {
                assertTrue(BatchHeader.firstNonZeroReserved(b, at + k) >= 0, "candidate " + (at + k)
                        + " of the run from " + at + " has all-zero reserved bytes");
            }
            if (run > 0) {
                // the run is exact: the candidate just past it no longer holds that byte
                int next = at + run;
                assertTrue(next + BatchHeader.RESERVED_OFFSET > at + last);
            }
        }
    }

    @Test
    void theEdgesOfTheReservedStretch() {
        ByteBuffer b = ByteBuffer.allocate(512);
        assertEquals(0, BatchHeader.undecodableRun(b, 0), "all zero: may decode");
        b.put(BatchHeader.RESERVED_OFFSET, (byte) 1);
        assertEquals(1, BatchHeader.undecodableRun(b, 0), "byte 52 only: this candidate alone");
        b.put(BatchHeader.RESERVED_OFFSET + 3, (byte) 1);
        assertEquals(4, BatchHeader.undecodableRun(b, 0), "byte 55, the u32's last");
        b.put(BatchHeader.RESERVED_OFFSET + 4, (byte) 1);
        assertEquals(5, BatchHeader.undecodableRun(b, 0), "byte 56, the first word's first");
        b.put(BatchHeader.LENGTH - 1, (byte) 0x80);
        assertEquals(BatchHeader.LENGTH - BatchHeader.RESERVED_OFFSET, BatchHeader.undecodableRun(b, 0),
                "byte 255: 204 candidates hold it");
        ByteBuffer fields = ByteBuffer.allocate(512);
        for (int i = 0; i < BatchHeader.RESERVED_OFFSET; i++) {
            fields.put(i, (byte) 0xFF);
        }
        assertEquals(0, BatchHeader.undecodableRun(fields, 0), "bytes 0..51 are fields, not reserved");
    }
}
