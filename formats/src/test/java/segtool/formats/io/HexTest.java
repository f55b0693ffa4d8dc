package segtool.formats.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The hex writers equal the {@code String.format} conversions they replace, for every value. */
class HexTest {
    @Property(tries = 2000)
    void asStringFormat(@ForAll long v, @ForAll @IntRange(min = 1, max = 20) int width) {
        assertEquals(String.format("0x%016x", v), Hex.u64(v));
        assertEquals(String.format("0x%016X", v), Hex.u64Upper(v));
        assertEquals(String.format("%016x", v), Hex.digits(v));
        assertEquals(String.format("%0" + width + "x", v), Hex.padded(v, width));
    }

    @Test
    void edges() {
        for (long v : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xABCDEFL, 1L << 40}) {
            assertEquals(String.format("0x%016X", v), Hex.u64Upper(v));
            assertEquals(String.format("%010x", v), Hex.padded(v, 10));
            assertEquals(String.format("%08x", v), Hex.padded(v, 8));
        }
        for (int b = 0; b < 256; b++) {
            assertEquals(String.format("%02x", b), Hex.appendByte(new StringBuilder(), b).toString());
        }
        assertEquals("0x2D06800538D394C2", Hex.u64Upper(0x2D06800538D394C2L));   // XXH3-64 of the empty input
    }
}
