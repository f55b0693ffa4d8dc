package segtool.shell.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import segtool.shell.options.Numbers;
import segtool.shell.render.SegmentMap.Kind;
import segtool.shell.render.SegmentMap.Span;

/** The map, colour switching, wrapping and number parsing. */
class RenderTest {
    @Test
    void map_oneDamagedByteInAGibibyte_staysVisible() {
        long len = 1L << 30;
        List<Span> spans = new SegmentMap.Canvas(len, Kind.VERIFIED).paint(700_000_000L, 700_000_001L, Kind.DAMAGED)
                .spans();
        assertEquals(3, spans.size());
        String line = SegmentMap.line(spans, len, 70, Style.PLAIN);
        assertEquals(70, line.length());
        assertEquals(1, line.chars().filter(c -> c == 'X').count(), line);
        assertEquals(45, line.indexOf('X'), line);
    }

    @Test
    void map_canvasOverridesAndMerges() {
        SegmentMap.Canvas c = new SegmentMap.Canvas(1000, Kind.UNEXAMINED);
        c.paint(0, 600, Kind.VERIFIED).paint(600, 1000, Kind.TORN).paint(100, 200, Kind.UNREAD)
                .paint(100, 200, Kind.VERIFIED);
        assertEquals(List.of(new Span(Kind.VERIFIED, 0, 600), new Span(Kind.TORN, 600, 1000)), c.spans());
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
