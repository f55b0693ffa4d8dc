package segtool.formats.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserHeadersTest {

    private static byte[] le(int size, long value) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value);
        return Arrays.copyOf(b.array(), size);
    }

    private static UserHeaders.Item item(HeaderKind kind, byte[] bytes) {
        return UserHeaders.of(kind, bytes);
    }

    private static final byte[] ALL_ONES_16 = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    private static final byte[] TOP_BIT_16 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80};

    /** One value of every kind, with its expected display. */
    private static List<Object[]> samples() {
        List<Object[]> s = new ArrayList<>();
        s.add(new Object[]{item(HeaderKind.RAW, new byte[]{0x0a, (byte) 0xff}), "0x0aff", "raw"});
        s.add(new Object[]{UserHeaders.string("žluť"), "žluť", "string"});
        s.add(new Object[]{item(HeaderKind.BOOL, new byte[]{0}), "false", "bool"});
        s.add(new Object[]{item(HeaderKind.INT8, new byte[]{(byte) 0x80}), "-128", "int8"});
        s.add(new Object[]{item(HeaderKind.INT16, le(2, -2)), "-2", "int16"});
        s.add(new Object[]{item(HeaderKind.INT32, le(4, Integer.MIN_VALUE)), "-2147483648", "int32"});
        s.add(new Object[]{item(HeaderKind.INT64, le(8, Long.MIN_VALUE)), "-9223372036854775808", "int64"});
        s.add(new Object[]{item(HeaderKind.INT128, ALL_ONES_16), "-1", "int128"});
        s.add(new Object[]{item(HeaderKind.UINT8, new byte[]{(byte) 0xff}), "255", "uint8"});
        s.add(new Object[]{item(HeaderKind.UINT16, le(2, 0xffff)), "65535", "uint16"});
        s.add(new Object[]{item(HeaderKind.UINT32, le(4, 0xffffffffL)), "4294967295", "uint32"});
        s.add(new Object[]{item(HeaderKind.UINT64, le(8, -1L)), "18446744073709551615", "uint64"});
        s.add(new Object[]{item(HeaderKind.UINT128, TOP_BIT_16), "170141183460469231731687303715884105728",
                "uint128"});
        s.add(new Object[]{item(HeaderKind.FLOAT32, le(4, Float.floatToIntBits(1.5f))), "1.5", "float32"});
        s.add(new Object[]{item(HeaderKind.FLOAT64, le(8, Double.doubleToLongBits(-2.25))), "-2.25", "float64"});
        s.add(new Object[]{new UserHeaders.Item(16, new byte[]{1}), "0x01", "kind16"});
        s.add(new Object[]{new UserHeaders.Item(200, new byte[]{1, 2, 3}), "0x010203", "kind200"});
        s.add(new Object[]{new UserHeaders.Item(255, new byte[255]), "0x" + "00".repeat(255), "kind255"});
        return s;
    }

    @Test
    void everyKindAsKeyAndValue_roundTripsAndDisplays() {
        List<UserHeaders.Header> headers = new ArrayList<>();
        for (Object[] s : samples()) {
            UserHeaders.Item it = (UserHeaders.Item) s[0];
            assertEquals(s[1], it.display(), (String) s[2]);
            assertEquals(s[2], it.kindName());
            headers.add(new UserHeaders.Header(UserHeaders.string("k-" + s[2]), it));
            headers.add(new UserHeaders.Header(it, UserHeaders.string("v-" + s[2])));
        }
        byte[] section = UserHeaders.encode(headers);
        UserHeaders.Decoded d = UserHeaders.decode(section);
        assertNull(d.problem());
        assertEquals(headers.size(), d.headers().size());
        for (int i = 0; i < headers.size(); i++) {
            UserHeaders.Header want = headers.get(i);
            UserHeaders.Header got = d.headers().get(i);
            assertEquals(want.key().code(), got.key().code(), "pair " + i);
            assertArrayEquals(want.key().bytes(), got.key().bytes(), "pair " + i);
            assertEquals(want.value().code(), got.value().code(), "pair " + i);
            assertArrayEquals(want.value().bytes(), got.value().bytes(), "pair " + i);
        }
        assertArrayEquals(section, UserHeaders.encode(d.headers()), "re-encoding is byte-exact");
    }

    @Test
    void unknownKinds_passThroughAsUnknown() {
        assertEquals(HeaderKind.UNKNOWN, HeaderKind.of(16));
        assertEquals(HeaderKind.UNKNOWN, HeaderKind.of(255));
        assertEquals(HeaderKind.UNKNOWN, HeaderKind.of(0));
        for (HeaderKind k : HeaderKind.values()) {
            if (k != HeaderKind.UNKNOWN) {
                assertEquals(k, HeaderKind.of(k.code()));
            }
        }
    }

    @Test
    void fixedSizeKindWithWrongLength_displaysAsHexInsteadOfThrowing() {
        assertEquals("0x0102", item(HeaderKind.UINT32, new byte[]{1, 2}).display());
        assertEquals("0x", item(HeaderKind.INT64, new byte[0]).display());
        assertEquals("0x02", item(HeaderKind.BOOL, new byte[]{2}).display());
    }

    @Test
    void emptySection_hasNoHeadersAndNoProblem() {
        UserHeaders.Decoded d = UserHeaders.decode(new byte[0]);
        assertEquals(0, d.headers().size());
        assertNull(d.problem());
    }

    @Test
    void everyCut_decodesTheWholePairsBeforeIt_andNamesTheProblem() {
        byte[] section = UserHeaders.encode(List.of(
                new UserHeaders.Header(UserHeaders.string("a"), item(HeaderKind.BOOL, new byte[]{1})),
                new UserHeaders.Header(UserHeaders.string("zz"), item(HeaderKind.UINT32, le(4, 7)))));
        int firstPair = 5 + 1 + 5 + 1;
        int firstItemOfSecond = firstPair + 5 + 2;
        assertEquals(firstItemOfSecond + 5 + 4, section.length);
        for (int n = 0; n < section.length; n++) {
            UserHeaders.Decoded d = UserHeaders.decode(Arrays.copyOf(section, n));
            int wholePairs = n >= firstPair ? 1 : 0;
            assertEquals(wholePairs, d.headers().size(), "cut " + n);
            if (n == 0 || n == firstPair) {
                assertNull(d.problem(), "a cut at a pair boundary is a shorter valid section");
            } else if (n == 6 || n == firstItemOfSecond) {
                assertEquals("odd number of items (a key without a value)", d.problem(), "cut " + n);
            } else {
                assertNotNull(d.problem(), "cut " + n);
                assertTrue(d.problem().endsWith("truncated") || d.problem().contains("runs past"),
                        "cut " + n + ": " + d.problem());
            }
        }
    }

    @Test
    void kindZero_isAProblem() {
        byte[] section = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("a"),
                UserHeaders.string("b"))));
        section[6] = 0;
        UserHeaders.Decoded d = UserHeaders.decode(section);
        assertEquals("item at 6 has kind 0", d.problem());
        assertEquals(0, d.headers().size());
    }

    @Test
    void oddItemCount_isAProblem() {
        byte[] section = {2, 1, 0, 0, 0, 'k', 2, 1, 0, 0, 0, 'v', 2, 1, 0, 0, 0, 'x'};
        UserHeaders.Decoded d = UserHeaders.decode(section);
        assertEquals(1, d.headers().size());
        assertEquals("odd number of items (a key without a value)", d.problem());
    }

    @Test
    void hugeItemLength_isAProblemNotAnAllocation() {
        byte[] section = {2, -1, -1, -1, -1, 'k'};
        UserHeaders.Decoded d = UserHeaders.decode(section);
        assertEquals("item at 0 runs past the section (4294967295 bytes)", d.problem());
        byte[] nearIntMax = {2, -2, -1, -1, 127, 'k'};
        assertEquals("item at 0 runs past the section (2147483646 bytes)", UserHeaders.decode(nearIntMax).problem());
    }

    @Test
    void shortItemHeader_isTruncated() {
        assertEquals("item at 0 truncated", UserHeaders.decode(new byte[]{2, 1, 0, 0}).problem());
    }

    @Test
    void compressionLookup_isCaseInsensitiveOnTheValueOnly() {
        List<UserHeaders.Header> upper = List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                UserHeaders.string("LZ4")));
        assertEquals("lz4", Payloads.compression(upper));
        List<UserHeaders.Header> rawValue = List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                item(HeaderKind.RAW, "lz4".getBytes())));
        assertNull(Payloads.compression(rawValue), "the value must be a String");
        assertNull(Payloads.compression(List.of()));
    }
}
