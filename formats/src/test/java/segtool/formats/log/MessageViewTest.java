package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import segtool.formats.Vectors;
import segtool.formats.io.LittleEndian;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

class MessageViewTest {
    private static final int CAP = 1 << 20;

    private record Decoded(List<MessageView> messages, Defect defect) {
    }

    private static Decoded decode(byte[] record, int length, int maxCopy) {
        List<MessageView> out = new ArrayList<>();
        Defect d = MessageView.decode(ByteBuffer.wrap(record), 0, length, 1000, maxCopy, out::add);
        return new Decoded(out, d);
    }

    private static Decoded decode(byte[] record) {
        return decode(record, record.length, CAP);
    }

    @Test
    void vectorB_decodesOffsetsTimestampsIdsAndSections() {
        Decoded d = decode(Vectors.b());
        assertNull(d.defect());
        List<MessageView> m = d.messages();
        assertEquals(3, m.size());
        assertEquals(List.of(1L, 2L, 3L), m.stream().map(MessageView::offset).toList());
        long origin = 1_699_999_999_500_000L;
        assertEquals(List.of(origin, origin + 250, origin + 1000), m.stream().map(MessageView::timestamp).toList());
        assertEquals(List.of("1", "2", "3"), m.stream().map(MessageView::id).toList());
        assertEquals(List.of(1000L + 256, 1000L + 309, 1000L + 387), m.stream().map(MessageView::position).toList());
        assertEquals(List.of(0L, 1L, 2L), m.stream().map(MessageView::index).toList());
        assertEquals("first", new String(m.get(0).payload()));
        assertEquals(0, m.get(0).userHeaders().length);
        assertArrayEquals(HexFormat.of().parseHex("020800000074726163652d69640206000000616263313233"),
                m.get(1).userHeaders());
        assertEquals("third", new String(m.get(2).payload()));
        assertEquals(2, m.get(2).headers().headers().size());
        m.forEach(v -> assertTrue(v.checksumMatches()));
        m.forEach(v -> assertTrue(v.payloadComplete() && v.userHeadersComplete()));
        assertEquals(0xBBE9AAABF88E3949L, m.get(0).frame().checksum());
    }

    @Test
    void vectorA_idIsUnsigned128BitDecimal() {
        MessageView v = decode(Vectors.a()).messages().get(0);
        assertEquals("1512366075204170947332355369683137040", v.id());
        assertEquals(0, v.offset());
        assertEquals(1_699_999_999_000_000L, v.timestamp());
    }

    @Test
    void highIdBit_andSaturatingOffsetAndTimestamp() {
        byte[] r = RecordEncoder.encode(1, -2L, 5, -10L, List.of(
                new Message(-1L, -1L, 0, new byte[0], null),
                new Message(0, Long.MIN_VALUE, 9, new byte[0], null),
                new Message(0, 0, 0xFFFFFFFFL, new byte[0], null)));
        List<MessageView> m = decode(r).messages();
        assertEquals("340282366920938463463374607431768211455", m.get(0).id());
        assertEquals("170141183460469231731687303715884105728", m.get(1).id());
        assertEquals(-2L, m.get(0).offset());
        assertEquals(-1L, m.get(1).offset());
        assertEquals(-1L, m.get(2).offset(), "base_offset + 2 saturates at 2^64-1");
        assertEquals(-1L, m.get(1).timestamp());
        assertEquals(-1L, m.get(2).timestamp(), "origin + 2^32-1 saturates");
        assertEquals(-10L, m.get(0).timestamp());
    }

    @Test
    void vectorC_plainPayloadDecompresses_andCapApplies() throws Payloads.DecodeException {
        MessageView v = decode(Vectors.c()).messages().get(0);
        assertEquals(30, v.payload().length);
        assertEquals("iggy ".repeat(20), new String(v.plainPayload(100)));
        assertThrows(Payloads.DecodeException.class, () -> v.plainPayload(99));
        MessageView plain = decode(Vectors.a()).messages().get(0);
        assertEquals("hello, iggy", new String(plain.plainPayload(0)), "no compression header: bytes as stored");
    }

    @Test
    void unknownCompression_isReportedNotGuessed() {
        byte[] h = UserHeaders.encode(List.of(new UserHeaders.Header(UserHeaders.string("iggy-compression"),
                UserHeaders.string("zstd"))));
        byte[] r = RecordEncoder.encode(1, 0, 1, 1, List.of(new Message(1, 0, 0, new byte[]{1, 2}, h)));
        MessageView v = decode(r).messages().get(0);
        Payloads.DecodeException e = assertThrows(Payloads.DecodeException.class, () -> v.plainPayload(CAP));
        assertEquals("unsupported compression 'zstd'", e.getMessage());
    }

    @Test
    void maxCopy_cutsSections_andKeepsFullLengthsInTheFrame() {
        Decoded d = decode(Vectors.c(), 363, 10);
        MessageView v = d.messages().get(0);
        assertNull(d.defect());
        assertEquals(10, v.payload().length);
        assertEquals(10, v.userHeaders().length);
        assertEquals(30, v.frame().payloadLength());
        assertEquals(29, v.frame().userHeadersLength());
        assertFalse(v.payloadComplete());
        assertFalse(v.userHeadersComplete());
        assertTrue(v.checksumMatches(), "the checksum is computed over the stored bytes, not the copy");
        assertTrue(v.headers().problem().contains("cut at 10 of 29"));
        Payloads.DecodeException e = assertThrows(Payloads.DecodeException.class, () -> v.plainPayload(CAP));
        assertEquals("message cut at 10 of 30 payload and 10 of 29 user-header bytes for display", e.getMessage());

        MessageView zero = decode(Vectors.b(), 467, 0).messages().get(1);
        assertEquals(0, zero.payload().length);
        assertEquals(6, zero.frame().payloadLength());
    }

    @Test
    void sinkReturningFalse_stopsTheWalk() {
        List<MessageView> seen = new ArrayList<>();
        Defect d = MessageView.decode(ByteBuffer.wrap(Vectors.b()), 0, 467, 0, CAP, m -> {
            seen.add(m);
            return seen.size() < 2;
        });
        assertNull(d);
        assertEquals(2, seen.size());
    }

    @Test
    void damagedMessage_isFlaggedNotDropped() {
        byte[] b = Vectors.b();
        b[309 + 48] ^= 0x20;   // 's' of "second"
        Decoded d = decode(b);
        assertNull(d.defect(), "the frames still tile the blob");
        assertEquals(List.of(true, false, true), d.messages().stream().map(MessageView::checksumMatches).toList());
        assertEquals("Second", new String(d.messages().get(1).payload()));
    }

    @Test
    void recordAtNonZeroIndexOfALargerBuffer() {
        byte[] abc = Vectors.abc();
        List<MessageView> out = new ArrayList<>();
        assertNull(MessageView.decode(ByteBuffer.wrap(abc), 315, 467, 315, CAP, out::add));
        assertEquals(List.of(315L + 256, 315L + 309, 315L + 387), out.stream().map(MessageView::position).toList());
        out.forEach(v -> assertTrue(v.checksumMatches()));
    }

    @Test
    void shortRecord_isHeaderTruncated() {
        Decoded d = decode(Vectors.a(), 255, CAP);
        assertEquals(Defect.Code.HEADER_TRUNCATED, d.defect().code());
        assertEquals(255, d.defect().actual());
        assertThrows(IllegalArgumentException.class,
                () -> MessageView.decode(ByteBuffer.wrap(Vectors.a()), 0, 315, 0, -1, m -> true));
    }

    @Test
    void truncatedBlob_deliversWholeFramesThenReportsTheBrokenOne() {
        byte[] b = Vectors.b();
        for (int length = 256; length < 467; length++) {
            Decoded d = decode(b, length, CAP);
            int whole = length >= 387 ? 2 : length >= 309 ? 1 : 0;
            assertEquals(whole, d.messages().size(), "length " + length);
            int frameStart = whole == 2 ? 387 : whole == 1 ? 309 : 256;
            if (length == frameStart) {
                assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, d.defect().code(), "length " + length);
                assertEquals(3, d.defect().expected());
                assertEquals(whole, d.defect().actual());
            } else if (length - frameStart < 48) {
                assertEquals(Defect.Code.FRAME_TRUNCATED, d.defect().code(), "length " + length);
                assertEquals(1000 + frameStart, d.defect().position());
                assertEquals(length - frameStart, d.defect().actual());
            } else {
                assertEquals(Defect.Code.FRAME_OVERRUNS_BLOB, d.defect().code(), "length " + length);
                assertEquals(whole, d.defect().index());
            }
        }
    }

    @Test
    void frameLengthsSummingTo2To32_overrunInsteadOfWrapping() {
        // One 48-byte frame whose two u32 lengths add up to exactly 2^32 (and 2^33 - 2). Summed in 32 bits they
        // would wrap to 0 and the frame would "end" right after its header with a valid checksum over [8, 48).
        for (long[] lengths : new long[][]{{1L << 31, 1L << 31}, {0xFFFFFFD0L, 0x30}, {0xFFFFFFFFL, 0xFFFFFFFFL}}) {
            byte[] r = RecordEncoder.encode(1, 0, 1, 1, List.of(new Message(1, 0, 0, new byte[0], null)));
            LittleEndian.putU32(r, 256 + FrameHeader.PAYLOAD_LENGTH_OFFSET, lengths[0]);
            LittleEndian.putU32(r, 256 + FrameHeader.USER_HEADERS_LENGTH_OFFSET, lengths[1]);
            LittleEndian.putU64(r, 256, segtool.formats.hash.Xxh3.hash(r, 256 + 8, 40));
            Decoded d = decode(r);
            assertEquals(Defect.Code.FRAME_OVERRUNS_BLOB, d.defect().code(), Arrays.toString(lengths));
            assertEquals(1000 + 256 + 48 + lengths[0] + lengths[1], d.defect().actual());
            assertEquals(1000 + 304, d.defect().expected());
            assertEquals(0, d.messages().size());
        }
    }

    @Test
    void frameReserved_stopsTheWalk() {
        byte[] b = Vectors.b();
        b[309 + 47] = 1;
        Decoded d = decode(b);
        assertEquals(1, d.messages().size());
        assertEquals(Defect.Code.FRAME_RESERVED_NOT_ZERO, d.defect().code());
        assertEquals(1, d.defect().index());
        assertEquals(1L << 56, d.defect().actual());
    }

    @Test
    void countMismatch_deliversAllFramesThenReports() {
        byte[] b = Vectors.b();
        LittleEndian.putU32(b, BatchHeader.MESSAGE_COUNT_OFFSET, 0xFFFFFFFFL);
        Decoded d = decode(b);
        assertEquals(3, d.messages().size());
        assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, d.defect().code());
        assertEquals(0xFFFFFFFFL, d.defect().expected());
        assertEquals(3, d.defect().actual());
    }

    @Test
    void emptyBatch_hasNoFrames() {
        byte[] e = RecordEncoder.encode(1, 5, 1_700_000_000_000_789L, 0, List.of());
        Decoded d = decode(e);
        assertNull(d.defect());
        assertEquals(0, d.messages().size());
        LittleEndian.putU32(e, BatchHeader.MESSAGE_COUNT_OFFSET, 1);
        assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, decode(e).defect().code());
    }
}
