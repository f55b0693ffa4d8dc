package segtool.formats;

import java.util.HexFormat;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.UserHeaders;

/**
 * The messages and stamps of FORMAT.md section 8, vectors A, B and C: partition 1, offsets 0-4. Encoded and
 * concatenated they are the segment {@code 00000000000000000000.log} (1,145 bytes; A at 0, B at 315, C at 782) that
 * RECOVERY.md section 10's worked examples damage. Tests and samples build from these.
 */
public final class SpecVectors {
    public static final long TA = 1_700_000_000_000_000L;
    public static final long TB = 1_700_000_000_000_123L;
    public static final long TC = 1_700_000_000_000_456L;
    public static final long ORIGIN_A = 1_699_999_999_000_000L;
    public static final long ORIGIN_B = 1_699_999_999_500_000L;
    public static final long ORIGIN_C = 1_700_000_000_000_400L;

    private SpecVectors() {
    }

    /** Vector A: one message {@code hello, iggy}, no user headers. */
    public static List<Message> messagesA() {
        return List.of(new Message(0xFEDCBA9876543210L, 0x0123456789ABCDEFL, 0, "hello, iggy".getBytes(), null));
    }

    /** Vector B: three messages with String, Bool and Uint32 user headers. */
    public static List<Message> messagesB() {
        byte[] h1 = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("trace-id"),
                UserHeaders.string("abc123"))));
        byte[] h2 = UserHeaders.encode(List.of(
                new UserHeaders.Header(UserHeaders.string("a"), UserHeaders.of(HeaderKind.BOOL, new byte[]{1})),
                new UserHeaders.Header(UserHeaders.string("z"),
                        UserHeaders.of(HeaderKind.UINT32, new byte[]{7, 0, 0, 0}))));
        return List.of(
                new Message(1, 0, 0, "first".getBytes(), null),
                new Message(2, 0, 250, "second".getBytes(), h1),
                new Message(3, 0, 1000, "third".getBytes(), h2));
    }

    /** Vector C: one LZ4-framed payload tagged {@code iggy-compression: lz4}. */
    public static List<Message> messagesC() {
        byte[] payload = HexFormat.of().parseHex("04224d186040820f0000005f696767792005004750696767792000000000");
        byte[] headers = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                UserHeaders.string("lz4"))));
        return List.of(new Message(0xAABBCCDDL, 0, 0, payload, headers));
    }

    public static byte[] a() {
        return RecordEncoder.encode(1, 0, TA, ORIGIN_A, messagesA());
    }

    public static byte[] b() {
        return RecordEncoder.encode(1, 1, TB, ORIGIN_B, messagesB());
    }

    public static byte[] c() {
        return RecordEncoder.encode(1, 4, TC, ORIGIN_C, messagesC());
    }

    /** A ‖ B ‖ C. */
    public static byte[] abc() {
        return segtool.formats.io.Bytes.concat(a(), b(), c());
    }
}
