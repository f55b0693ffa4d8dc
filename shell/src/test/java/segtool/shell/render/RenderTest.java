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
