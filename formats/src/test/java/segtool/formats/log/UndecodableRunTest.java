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
 * once, so every candidate it covers must fail F 2.2 (batch_length below 256, or a nonzero reserved byte), none is
 * skipped when the header decodes, and the count is the one the rule gives (worked out here byte by byte).
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

    /** The run the two rules give, byte by byte. */
    private static long expected(ByteBuffer b, int at, long max) {
        if (Long.compareUnsigned(b.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(at + 32), 256) < 0) {
            long k = 1;
            while (k < max && b.get((int) (at + 39 + k)) == 0) {
                k++;
            }
            return k;
        }
        int last = lastNonZeroReserved(b, at);
        return last < 0 ? 0 : Math.min(max, last - (BatchHeader.RESERVED_OFFSET - 1));
    }

    @Property(tries = 400)
    void everyCandidateOfTheRunFailsToDecode_andTheRunIsWhatTheRuleGives(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 100) int zeroPercent, @ForAll boolean direct,
            @ForAll @IntRange(min = 1, max = 256) int max) {
        ByteBuffer b = bytes(seed, zeroPercent, direct);
        for (int at = 0; at + BatchHeader.LENGTH + max - 1 <= b.capacity(); at++) {
            long run = BatchHeader.undecodableRun(b, at, max);
            assertEquals(expected(b, at, max), run, "at " + at);
            assertEquals(run == 0, BatchHeader.decodes(b, at), "at " + at);
            assertTrue(run <= max, "at " + at);
            for (int k = 0; k < run; k++) {
                assertTrue(!BatchHeader.decodes(b, at + k), "candidate " + (at + k) + " of the run from " + at
                        + " decodes");
            }
        }
    }

    @Test
    void theEdgesOfTheRules() {
        ByteBuffer b = ByteBuffer.allocate(1024);
        assertEquals(255, BatchHeader.undecodableRun(b, 0, 255), "all zero: batch_length 0, up to the max");
        b.put(100, (byte) 7);
        assertEquals(61, BatchHeader.undecodableRun(b, 0, 255), "zero batch_length bytes up to byte 99");
        b.put(100, (byte) 0);
        b.put(32 + 1, (byte) 1);   // batch_length 256: at least 256
        assertEquals(0, BatchHeader.undecodableRun(b, 0, 255), "batch_length 256, reserved zero: decodes");
        b.put(BatchHeader.RESERVED_OFFSET, (byte) 1);
        assertEquals(1, BatchHeader.undecodableRun(b, 0, 255), "byte 52 only: this candidate alone");
        b.put(BatchHeader.RESERVED_OFFSET + 3, (byte) 1);
        assertEquals(4, BatchHeader.undecodableRun(b, 0, 255), "byte 55, the u32's last");
        b.put(BatchHeader.RESERVED_OFFSET + 4, (byte) 1);
        assertEquals(5, BatchHeader.undecodableRun(b, 0, 255), "byte 56, the first word's first");
        b.put(BatchHeader.LENGTH - 1, (byte) 0x80);
        assertEquals(BatchHeader.LENGTH - BatchHeader.RESERVED_OFFSET, BatchHeader.undecodableRun(b, 0, 255),
                "byte 255: 204 candidates hold it");
        assertEquals(3, BatchHeader.undecodableRun(b, 0, 3), "never past the max");
    }
}
