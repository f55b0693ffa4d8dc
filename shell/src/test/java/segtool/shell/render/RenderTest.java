package segtool.shell.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import segtool.analyzers.recovery.Region;
import segtool.shell.options.Numbers;
import segtool.shell.render.SegmentMap.Kind;
import segtool.shell.render.SegmentMap.Span;

/** The map, colour switching, wrapping and number parsing. */
class RenderTest {
    /** The count in its unit, rounded half up to tenths from the exact quotient (BigDecimal: no double on the way). */
    private static String exact(long bytes) {
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        java.math.BigDecimal v = new java.math.BigDecimal(Long.toUnsignedString(bytes));
        java.math.BigDecimal k = java.math.BigDecimal.valueOf(1024);
        int u = -1;
        while (v.compareTo(k) >= 0 && u < units.length - 1) {
            v = v.divide(k);   // exact: a power of two divides into a terminating decimal
            u++;
        }
        return v.setScale(1, java.math.RoundingMode.HALF_UP).toPlainString() + " " + units[u];
    }

    @Test
    void unit_roundsTheExactQuotientHalfUpToTenths() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(15);
        for (int shift = 10; shift <= 60; shift += 10) {
            long one = 1L << shift;
            // whole units, one byte either side, and each tenth's half-way point either side
            for (long k = 1; k < 1100; k += k < 30 ? 1 : 37) {
                for (long b : new long[] {k * one - 1, k * one, k * one + 1, k * one + one / 20 - 1, k * one + one / 20,
                        k * one + one / 20 + 1, k * one + 3 * one / 20}) {
                    if (b >= 1024) {
                        assertEquals(exact(b), Bytes.unit(b), Long.toString(b));
                    }
                }
            }
        }
        for (int i = 0; i < 200_000; i++) {
            long b = random.nextLong() >>> random.nextInt(54);
            if (b >= 1024) {
                assertEquals(exact(b), Bytes.unit(b), Long.toString(b));
            }
        }
        assertEquals("1.0 KiB", Bytes.unit(1024));
        assertEquals("1024.0 KiB", Bytes.unit(1024 * 1024 - 1));
        assertEquals("1.0 MiB", Bytes.unit(1024 * 1024));
        assertEquals("1.1 KiB", Bytes.unit(1024 + 52));   // 1.05078 rounds up
        assertEquals("1.0 KiB", Bytes.unit(1024 + 51));   // 1.04980 rounds down
        assertEquals("16.0 EiB", Bytes.unit(-1L));        // 2^64 - 1, unsigned
        assertEquals("8.0 EiB", Bytes.unit(Long.MIN_VALUE));
        assertEquals(null, Bytes.unit(1023));
        // String.format("%.1f") of the double 2.0499999999999998 said 2.1 (it rounds the shortest decimal, 2.05)
        assertEquals("2.0 PiB", Bytes.unit(2308094809027379L));
    }

    @Test
    void map_oneDamagedByteInAGibibyte_staysVisible() {
        long len = 1L << 30;
        List<Span> spans = List.of(new Span(Kind.VERIFIED, 0, 700_000_000L),
                new Span(Kind.DAMAGED, 700_000_000L, 700_000_001L), new Span(Kind.VERIFIED, 700_000_001L, len));
        String line = SegmentMap.line(spans, len, 70, Style.PLAIN);
        assertEquals(70, line.length());
        assertEquals(1, line.chars().filter(c -> c == 'X').count(), line);
        assertEquals(45, line.indexOf('X'), line);
    }

    @Test
    void map_drawsEveryRegionKindOfTheEngine() {
        for (Region.Kind k : Region.Kind.values()) {
            Kind drawn = Kind.of(k);
            assertEquals(k == Region.Kind.TORN_TAIL ? "torn" : k.name().toLowerCase(), drawn.json(), k.name());
        }
        List<Span> spans = SegmentMap.spans(List.of(new Region(Region.Kind.VERIFIED, 0, 60, ""),
                new Region(Region.Kind.FOREIGN_BATCH, 60, 70, ""), new Region(Region.Kind.FENCED, 70, 100, "")));
        assertEquals("======F###", SegmentMap.line(spans, 100, 10, Style.PLAIN));
    }

    @Test
    void map_colourRepeatsTheCharacters() {
        List<Span> spans = List.of(new Span(Kind.VERIFIED, 0, 50), new Span(Kind.TORN, 50, 100));
        String plain = SegmentMap.line(spans, 100, 10, Style.PLAIN);
        String colour = SegmentMap.line(spans, 100, 10, new Style(true));
        assertEquals("=====-----", plain);
        assertTrue(colour.contains("\u001b[32m=====\u001b[0m"), colour);
        assertEquals(plain, colour.replaceAll("\u001b\\[[0-9;]*m", ""));
        assertFalse(SegmentMap.legend(spans, Style.PLAIN).contains("\u001b"));
        assertEquals("= verified 50 B   - torn (dropped by recovery) 50 B", SegmentMap.legend(spans, Style.PLAIN));
    }

    @Test
    void wrap_keepsCommandsWholeAndIndents() {
        String s = Wrap.labelled("  ", "next", 8, "look here\n$ segtool hexdump /a/very/long/path/that/is/long 1 2",
                30);
        assertEquals("  next    look here\n          $ segtool hexdump /a/very/long/path/that/is/long 1 2", s);
    }

    @Test
    void numbers_unsignedDecimalHexAndTimestamps() {
        Numbers.U64Converter u = new Numbers.U64Converter();
        assertEquals(-1L, u.convert("18446744073709551615"));
        assertEquals(1048576L, u.convert("0x100000"));
        assertEquals(1_000_000L, u.convert("1_000_000"));
        assertThrows(CommandLine.TypeConversionException.class, () -> u.convert("18446744073709551616"));
        assertThrows(CommandLine.TypeConversionException.class, () -> u.convert("-1"));
        Numbers.TimestampConverter t = new Numbers.TimestampConverter();
        assertEquals(1_700_000_000_000_123L, t.convert("2023-11-14T22:13:20.000123Z"));
        assertEquals(1_700_000_000_000_123L, t.convert("1700000000000123"));
        assertEquals("2023-11-14T22:13:20.000123Z", Times.iso(1_700_000_000_000_123L));
        assertEquals("[18446744073709551615]", Times.iso(-1));
    }
}
