package segtool.samples;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.UserHeaders;
import segtool.formats.writer.PartitionWriter;

/**
 * The messages and timestamps of FORMAT.md section 8 vectors A, B and C. Appended in order through a
 * {@link PartitionWriter} of partition 1 starting at offset 0, they give the records A (315 bytes at 0), B (467 at
 * 315) and C (363 at 782) byte for byte, so the worked examples of RECOVERY.md section 10 apply to the samples.
 */
final class SpecVectors {
    static final long TA = 1_700_000_000_000_000L;
    static final long TB = 1_700_000_000_000_123L;
    static final long TC = 1_700_000_000_000_456L;

    private SpecVectors() {
    }

    /** Vector A: one message, {@code hello, iggy}, no user headers. Offset 0 when appended first. */
    static void appendA(PartitionWriter w) throws IOException {
        w.append(List.of(new Message(0xFEDCBA9876543210L, 0x0123456789ABCDEFL, 0, "hello, iggy".getBytes(),
                null)), TA, 1_699_999_999_000_000L);
    }

    /** Vector B: three messages with String, Bool and Uint32 user headers. Offsets 1-3 after A. */
    static void appendB(PartitionWriter w) throws IOException {
        byte[] h1 = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("trace-id"),
                UserHeaders.string("abc123"))));
        byte[] h2 = UserHeaders.encode(List.of(
                new UserHeaders.Header(UserHeaders.string("a"), UserHeaders.of(HeaderKind.BOOL, new byte[]{1})),
                new UserHeaders.Header(UserHeaders.string("z"),
                        UserHeaders.of(HeaderKind.UINT32, new byte[]{7, 0, 0, 0}))));
        w.append(List.of(
                new Message(1, 0, 0, "first".getBytes(), null),
                new Message(2, 0, 250, "second".getBytes(), h1),
                new Message(3, 0, 1000, "third".getBytes(), h2)), TB, 1_699_999_999_500_000L);
    }

    /** Vector C: one LZ4-framed payload tagged {@code iggy-compression: lz4}. Offset 4 after A and B. */
    static void appendC(PartitionWriter w) throws IOException {
        appendC(w, TC);
    }

    /** Vector C's message stamped with another base timestamp (and the same 56-microsecond origin lead). */
    static void appendC(PartitionWriter w, long baseTimestamp) throws IOException {
        w.append(List.of(cMessage()), baseTimestamp, baseTimestamp - 56);
    }

    static Message cMessage() {
        byte[] payload = HexFormat.of().parseHex("04224d186040820f0000005f696767792005004750696767792000000000");
        byte[] headers = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                UserHeaders.string("lz4"))));
        return new Message(0xAABBCCDDL, 0, 0, payload, headers);
    }
}
