package segtool.formats;

import java.util.HexFormat;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.UserHeaders;

/** The test vectors of FORMAT.md section 8, built with the encoder, plus their hex dumps from the spec. */
public final class Vectors {
    public static final long TA = 1_700_000_000_000_000L;
    public static final long TB = 1_700_000_000_000_123L;
    public static final long TC = 1_700_000_000_000_456L;

    private Vectors() {
    }

    public static byte[] hex(String dump) {
        StringBuilder sb = new StringBuilder();
        for (String line : dump.strip().split("\n")) {
            String body = line.contains(":") ? line.substring(line.indexOf(':') + 1) : line;
            sb.append(body.replaceAll("\\s+", ""));
        }
        return HexFormat.of().parseHex(sb.toString());
    }

    public static byte[] a() {
        return RecordEncoder.encode(1, 0, TA, 1_699_999_999_000_000L, List.of(new Message(
                0xFEDCBA9876543210L, 0x0123456789ABCDEFL, 0, "hello, iggy".getBytes(), new byte[0])));
    }

    public static byte[] b() {
        byte[] h1 = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("trace-id"),
                UserHeaders.string("abc123"))));
        byte[] h2 = UserHeaders.encode(List.of(
                new UserHeaders.Header(UserHeaders.string("a"), UserHeaders.of(HeaderKind.BOOL, new byte[]{1})),
                new UserHeaders.Header(UserHeaders.string("z"),
                        UserHeaders.of(HeaderKind.UINT32, new byte[]{7, 0, 0, 0}))));
        return RecordEncoder.encode(1, 1, TB, 1_699_999_999_500_000L, List.of(
                new Message(1, 0, 0, "first".getBytes(), null),
                new Message(2, 0, 250, "second".getBytes(), h1),
                new Message(3, 0, 1000, "third".getBytes(), h2)));
    }

    public static byte[] c() {
        byte[] payload = HexFormat.of().parseHex("04224d186040820f0000005f696767792005004750696767792000000000");
        byte[] headers = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                UserHeaders.string("lz4"))));
        return RecordEncoder.encode(1, 4, TC, 1_700_000_000_000_400L, List.of(
                new Message(0xAABBCCDDL, 0, 0, payload, headers)));
    }

    /** A ‖ B ‖ C: segment 0 of partition 1, 1,145 bytes, offsets 0-4. */
    public static byte[] abc() {
        byte[] a = a();
        byte[] b = b();
        byte[] c = c();
        byte[] out = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }

    public static final String A_HEX = """
            0000: 0100000000000000 0000000000000000 00401e18240a0600 c0fd0e18240a0600
            0020: 3b01000000000000 19ff9efb7fbf7938 0100000000000000 0000000000000000
            0040: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0060: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0080: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00a0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00c0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00e0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0100: 8f53cac3ccb3ed18 1032547698badcfe efcdab8967452301 0000000000000000
            0120: 000000000b000000 0000000000000000 68656c6c6f2c2069 676779
            """;

    public static final String B_HEX = """
            0000: 0100000000000000 0100000000000000 7b401e18240a0600 e09e1618240a0600
            0020: d301000000000000 d2f3d6d60c73ea66 0300000000000000 0000000000000000
            0040: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0060: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0080: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00a0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00c0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00e0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0100: 49398ef8abaae9bb 0100000000000000 0000000000000000 0000000000000000
            0120: 0000000005000000 0000000000000000 6669727374dd1f70 6f1cc41a08020000
            0140: 0000000000000000 0000000000010000 00fa000000180000 0006000000000000
            0160: 0000000000736563 6f6e640208000000 74726163652d6964 0206000000616263
            0180: 31323341697b93ec 2c8a6e0300000000 0000000000000000 00000002000000e8
            01a0: 0300001b00000005 0000000000000000 0000007468697264 0201000000610301
            01c0: 0000000102010000 007a0b0400000007 000000
            """;

    public static final String C_HEX = """
            0000: 0100000000000000 0400000000000000 c8411e18240a0600 90411e18240a0600
            0020: 6b01000000000000 c28e893a401cc3d0 0100000000000000 0000000000000000
            0040: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0060: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0080: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00a0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00c0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            00e0: 0000000000000000 0000000000000000 0000000000000000 0000000000000000
            0100: 18114c6414c349e9 ddccbbaa00000000 0000000000000000 0000000000000000
            0120: 1d0000001e000000 0000000000000000 04224d186040820f 0000005f69676779
            0140: 2005004750696767 7920000000000210 000000696767792d 636f6d7072657373
            0160: 696f6e0203000000 6c7a34
            """;
}
