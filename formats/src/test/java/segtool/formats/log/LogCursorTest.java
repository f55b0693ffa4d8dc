package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;

class LogCursorTest {
    @TempDir
    Path dir;

    private Path write(byte[] bytes) throws IOException {
        Path file = dir.resolve("00000000000000000000.log");
        Files.write(file, bytes);
        return file;
    }

    private static byte[] concat(byte[]... parts) {
        return segtool.formats.io.Bytes.concat(parts);
    }

    private record Walk(List<LogCursor.Batch> batches, Defect stop, long position) {
    }

    private static Walk walk(SegmentChannel log, long from, long max) throws IOException {
        try (LogCursor cursor = new LogCursor(log, from, max)) {
            List<LogCursor.Batch> out = new ArrayList<>();
            for (LogCursor.Batch b; (b = cursor.next()) != null; ) {
                out.add(b);
            }
            assertTrue(cursor.stopped());
            assertNull(cursor.next(), "a stopped cursor stays stopped");
            return new Walk(out, cursor.stopReason(), cursor.position());
        }
    }

    private Walk walk(byte[] log) throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(log))) {
            return walk(ch, 0, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
        }
    }

    @Test
    void vectorSegment_yieldsThreeVerifiedBatchesAndEndsCleanly() throws IOException {
        Walk w = walk(Vectors.abc());
        assertEquals(3, w.batches().size());
        assertEquals(List.of(0L, 315L, 782L), w.batches().stream().map(LogCursor.Batch::position).toList());
        assertEquals(List.of(315L, 467L, 363L), w.batches().stream().map(LogCursor.Batch::length).toList());
        assertEquals(List.of(0L, 1L, 4L), w.batches().stream().map(b -> b.header().baseOffset()).toList());
        assertEquals(List.of(Vectors.TA, Vectors.TB, Vectors.TC),
                w.batches().stream().map(b -> b.header().baseTimestamp()).toList());
        w.batches().forEach(b -> assertTrue(b.verified(), () -> b.defect().describe()));
        assertEquals(1145, w.batches().get(2).end());
        assertNull(w.stop());
        assertEquals(1145, w.position());
    }

    @Test
    void emptyLog_endsCleanlyAtZero() throws IOException {
        Walk w = walk(new byte[0]);
        assertEquals(0, w.batches().size());
        assertNull(w.stop());
        assertEquals(0, w.position());
    }

    @Test
    void startingFromAnIndexPosition_walksFromThere() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()))) {
            Walk w = walk(ch, 315, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
            assertEquals(List.of(315L, 782L), w.batches().stream().map(LogCursor.Batch::position).toList());
            assertNull(w.stop());
        }
    }

    @Test
    void startPastEnd_stopsWithHeaderTruncatedInsteadOfThrowing() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()))) {
            for (long from : new long[]{1146, 1L << 40, -1L, Long.MIN_VALUE}) {
                Walk w = walk(ch, from, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
                assertEquals(0, w.batches().size());
                assertEquals(Defect.Code.HEADER_TRUNCATED, w.stop().code(), "from " + from);
                assertEquals(0, w.stop().actual());
                assertEquals(from, w.position());
            }
        }
    }

    @Test
    void startMidRecord_stopsAtTheFirstUnframeableBytes() throws IOException {
        // Position 300 is inside A's frame: bytes 52..255 of a "header" there are not all zero.
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()))) {
            Walk w = walk(ch, 300, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
            assertEquals(0, w.batches().size());
            assertNotNull(w.stop());
            assertEquals(300, w.position());
        }
    }

    @Test
    void tornTail_stopsWithHeaderTruncated() throws IOException {
        byte[] log = Arrays.copyOf(Vectors.abc(), 1145 + 100);
        Walk w = walk(log);
        assertEquals(3, w.batches().size());
        assertEquals(Defect.Code.HEADER_TRUNCATED, w.stop().code());
        assertEquals(1145, w.stop().position());
        assertEquals(100, w.stop().actual());
        assertEquals(1145, w.position());
    }

    @Test
    void zeroRunTail_stopsWithLengthTooSmall() throws IOException {
        Walk w = walk(Arrays.copyOf(Vectors.abc(), 1145 + 4096));
        assertEquals(3, w.batches().size());
        assertEquals(Defect.Code.LENGTH_TOO_SMALL, w.stop().code());
        assertEquals(1145, w.stop().position());
        assertEquals(0, w.stop().actual());
    }

    @Test
    void reservedByte_stopsWithReservedNotZero() throws IOException {
        byte[] log = Vectors.abc();
        log[315 + 200] = 9;
        Walk w = walk(log);
        assertEquals(1, w.batches().size());
        assertEquals(Defect.Code.RESERVED_NOT_ZERO, w.stop().code());
        assertEquals(315 + 200, w.stop().position());
        assertEquals(200, w.stop().index());
        assertEquals(9, w.stop().actual());
        assertEquals(315, w.position());
    }

    @Test
    void lengthRunningPastEnd_stopsWithRunsPastEof() throws IOException {
        byte[] log = Arrays.copyOf(Vectors.abc(), 1145 - 1);
        Walk w = walk(log);
        assertEquals(2, w.batches().size());
        assertEquals(Defect.Code.RUNS_PAST_EOF, w.stop().code());
        assertEquals(782, w.stop().position());
        assertEquals(362, w.stop().expected());
        assertEquals(363, w.stop().actual());
    }

    @Test
    void lengthOverCeiling_stopsWithLengthOverMax_beforeEofIsConsidered() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()))) {
            Walk w = walk(ch, 0, 466);
            assertEquals(1, w.batches().size());
            assertEquals(Defect.Code.LENGTH_OVER_MAX, w.stop().code());
            assertEquals(315, w.stop().position());
            assertEquals(466, w.stop().expected());
            assertEquals(467, w.stop().actual());
        }
        byte[] log = Vectors.abc();
        LittleEndian.putU64(log, 315 + BatchHeader.BATCH_LENGTH_OFFSET, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES + 1);
        Walk w = walk(log);
        assertEquals(Defect.Code.LENGTH_OVER_MAX, w.stop().code());
        assertEquals(BatchHeader.MAX_RECOVERABLE_BATCH_BYTES, w.stop().expected());
    }

    @Test
    void ceilingOutsideAddressableRange_isRefused() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()))) {
            assertThrows(IllegalArgumentException.class, () -> new LogCursor(ch, 0, 255));
            assertThrows(IllegalArgumentException.class, () -> new LogCursor(ch, 0, 1L << 31));
        }
        try (SegmentChannel tiny = SegmentChannel.open(dir.resolve("00000000000000000000.log"), 255)) {
            assertThrows(IllegalArgumentException.class, () -> new LogCursor(tiny));
        }
    }

    @Test
    void recordThatFramesButFailsVerification_isYieldedWithItsDefect_andTheWalkGoesOn() throws IOException {
        byte[] log = Vectors.abc();
        log[315 + 256 + 48] ^= 1;   // first payload byte of B's message 0
        Walk w = walk(log);
        assertEquals(3, w.batches().size());
        assertTrue(w.batches().get(0).verified());
        Defect d = w.batches().get(1).defect();
        assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, d.code());
        assertEquals(315 + 256, d.position());
        assertEquals(0, d.index());
        assertTrue(w.batches().get(2).verified());
        assertNull(w.stop());
    }

    @Test
    void emptyBatch_isFramedAndVerified() throws IOException {
        byte[] empty = RecordEncoder.encode(1, 5, 1_700_000_000_000_789L, 0, List.of());
        Walk w = walk(concat(Vectors.abc(), empty));
        assertEquals(4, w.batches().size());
        LogCursor.Batch e = w.batches().get(3);
        assertEquals(1145, e.position());
        assertEquals(0, e.header().messageCount());
        assertTrue(e.verified());
        assertNull(w.stop());
    }

    @Test
    void messages_decodesEachBatchOfTheSegment() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()), 512);
             LogCursor cursor = new LogCursor(ch, 0, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES)) {
            List<LogCursor.Batch> batches = new ArrayList<>();
            for (LogCursor.Batch b; (b = cursor.next()) != null; ) {
                batches.add(b);
            }
            List<MessageView> all = new ArrayList<>();
            // Decode out of order: each call re-reads its record through the (512-byte) window.
            for (int i : new int[]{2, 0, 1}) {
                assertNull(cursor.messages(batches.get(i), 1 << 20, all::add));
            }
            assertEquals(List.of(4L, 0L, 1L, 2L, 3L), all.stream().map(MessageView::offset).toList());
            assertEquals("hello, iggy", new String(all.get(1).payload()));
            assertEquals("iggy ".repeat(20), new String(all.get(0).plainPayload(1000)));
            assertEquals("second", new String(all.get(3).payload()));
            assertEquals("abc123", all.get(3).headers().headers().get(0).value().display());
        }
    }

    @Test
    void recordLargerThanWindow_isVerifiedAndDecodedThroughAMapping() throws IOException {
        // 140,000 messages: the batch-checksum cover (44 + 8 x 140,000 bytes) spills past the verifier's 1 MiB
        // heap buffer, and the 6.7 MB record is wider than a 1 MiB window.
        int count = 140_000;
        List<Message> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            messages.add(new Message(i + 1, 0, i % 1000, i % 3 == 0 ? new byte[0] : new byte[]{(byte) i}, null));
        }
        byte[] big = RecordEncoder.encode(7, 100, 1_700_000_000_000_000L, 1_600_000_000_000_000L, messages);
        byte[] log = concat(big, Vectors.a());
        LittleEndian.putU64(log, big.length + BatchHeader.PARTITION_ID_OFFSET, 7);
        LittleEndian.putU64(log, big.length + BatchHeader.BASE_OFFSET_OFFSET, 100 + count);
        byte[] tail = Arrays.copyOfRange(log, big.length, log.length);
        RecordEncoder.restamp(tail);
        System.arraycopy(tail, 0, log, big.length, tail.length);
        try (SegmentChannel ch = SegmentChannel.open(write(log), 1 << 20);
             LogCursor cursor = new LogCursor(ch)) {
            LogCursor.Batch first = cursor.next();
            assertNotNull(first);
            assertTrue(first.verified(), () -> first.defect().describe());
            assertEquals(count, first.header().messageCount());
            LogCursor.Batch second = cursor.next();
            assertTrue(second.verified(), () -> second.defect().describe());
            assertEquals(100 + count, second.header().baseOffset());
            assertNull(cursor.next());
            assertNull(cursor.stopReason());

            long[] seen = {0};
            assertNull(cursor.messages(first, 16, m -> {
                assertEquals(100 + seen[0], m.offset());
                assertEquals(1_600_000_000_000_000L + seen[0] % 1000, m.timestamp());
                assertTrue(m.checksumMatches());
                assertEquals(Long.toString(seen[0] + 1), m.id());
                seen[0]++;
                return true;
            }));
            assertEquals(count, seen[0]);
            long[] frames = {0, 256};
            assertNull(cursor.frames(first, f -> {
                assertEquals(frames[0]++, f.index());
                assertEquals(frames[1], f.position());
                frames[1] = f.end();
                return true;
            }), "the frame walk reads a record wider than the window through a mapping, too");
            assertEquals(count, frames[0]);
            assertEquals(first.end(), frames[1]);

            // The verifier reuses its spill file; a corrupted frame deep in the record is still found.
            byte[] bad = log.clone();
            int frame = 256 + 48 * 100_000 + (100_000 - 100_000 / 3 - 1);
            assertEquals(0, LittleEndian.u32(bad, frame + 40));
            bad[frame + 8] ^= 1;
            try (SegmentChannel ch2 = SegmentChannel.open(write(bad), 1 << 20);
                 LogCursor c2 = new LogCursor(ch2)) {
                Defect d = c2.next().defect();
                assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, d.code());
                assertEquals(100_000, d.index());
                assertEquals(frame, d.position());
            }
        }
    }

    @Test
    void nextUnverified_framesTheSameRecordsWithoutVerifying_andVerifyChecksOnDemand() throws IOException {
        byte[] log = Vectors.abc();
        log[315 + 256 + 48] ^= 1;   // first payload byte of B's message 0
        try (SegmentChannel ch = SegmentChannel.open(write(log)); LogCursor cursor = new LogCursor(ch)) {
            List<LogCursor.Batch> framed = new ArrayList<>();
            for (LogCursor.Batch b; (b = cursor.nextUnverified()) != null; ) {
                framed.add(b);
            }
            assertNull(cursor.stopReason());
            assertEquals(List.of(0L, 315L, 782L), framed.stream().map(LogCursor.Batch::position).toList());
            framed.forEach(b -> {
                assertFalse(b.checked());
                assertNull(b.defect(), "not verified, so no defect yet");
                assertFalse(b.verified(), "an unchecked batch does not claim to verify");
            });
            LogCursor.Batch b = cursor.verify(framed.get(1));
            assertTrue(b.checked());
            assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, b.defect().code());
            assertEquals(framed.get(1).header(), b.header());
            LogCursor.Batch a = cursor.verify(framed.get(0));
            assertTrue(a.verified());
            assertSame(a, cursor.verify(a), "a verified batch is not verified again");
        }
    }

    @Test
    void seek_movesTheWalk_andResumesOneThatEnded() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Arrays.copyOf(Vectors.abc(), 1145 + 100)));
             LogCursor cursor = new LogCursor(ch)) {
            cursor.seek(782);
            assertEquals(782, cursor.next().position());
            assertNull(cursor.next());
            assertEquals(Defect.Code.HEADER_TRUNCATED, cursor.stopReason().code());
            cursor.seek(315);
            assertFalse(cursor.stopped());
            assertNull(cursor.stopReason());
            assertEquals(315, cursor.position());
            LogCursor.Batch b = cursor.next();
            assertEquals(315, b.position());
            assertTrue(b.verified());
            cursor.seek(300);   // inside A: no header there
            assertNull(cursor.nextUnverified());
            assertEquals(300, cursor.position());
            assertNotNull(cursor.stopReason());
        }
    }

    @Test
    void stopHeader_isTheWouldBeHeader_onlyWhenItDecoded() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Arrays.copyOf(Vectors.abc(), 1145 - 1)));
             LogCursor cursor = new LogCursor(ch, 782, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES)) {
            assertNull(cursor.nextUnverified());
            assertEquals(Defect.Code.RUNS_PAST_EOF, cursor.stopReason().code());
            assertEquals(363, cursor.stopHeader().batchLength());
            assertEquals(4, cursor.stopHeader().baseOffset());
            cursor.seek(315);
            assertNull(cursor.stopHeader(), "seek forgets the last stop");
        }
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()));
             LogCursor cursor = new LogCursor(ch, 0, 466)) {
            assertNotNull(cursor.nextUnverified());
            assertNull(cursor.nextUnverified());
            assertEquals(Defect.Code.LENGTH_OVER_MAX, cursor.stopReason().code());
            assertEquals(467, cursor.stopHeader().batchLength());
        }
        try (SegmentChannel ch = SegmentChannel.open(write(Arrays.copyOf(Vectors.abc(), 1145 + 4096)));
             LogCursor cursor = new LogCursor(ch, 1145, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES)) {
            assertNull(cursor.nextUnverified());
            assertEquals(Defect.Code.LENGTH_TOO_SMALL, cursor.stopReason().code());
            assertNull(cursor.stopHeader(), "a header that does not decode claims nothing");
        }
    }

    @Test
    void frames_givesEachFramesIndexPositionAndHeader_withoutCopying() throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(write(Vectors.abc()), 512); LogCursor cursor = new LogCursor(ch)) {
            cursor.seek(315);
            LogCursor.Batch b = cursor.nextUnverified();
            List<LogCursor.Frame> frames = new ArrayList<>();
            assertNull(cursor.frames(b, frames::add));
            assertEquals(List.of(0L, 1L, 2L), frames.stream().map(LogCursor.Frame::index).toList());
            assertEquals(List.of(315L + 256, 315L + 309, 315L + 387),
                    frames.stream().map(LogCursor.Frame::position).toList());
            LogCursor.Frame second = frames.get(1);
            assertEquals(6, second.header().payloadLength());
            assertEquals(24, second.header().userHeadersLength());
            assertEquals(315 + 309 + 48, second.payloadPosition());
            assertEquals(315 + 309 + 48 + 6, second.userHeadersPosition());
            assertEquals(frames.get(2).position(), second.end());
            assertEquals(b.end(), frames.get(2).end());
            assertEquals("2", second.header().id());

            List<LogCursor.Frame> first = new ArrayList<>();
            assertNull(cursor.frames(b, f -> first.add(f) && false), "a sink that stops ends the walk cleanly");
            assertEquals(1, first.size());
        }
    }

    @Test
    void frames_ofABrokenBlob_deliverTheWholeFramesThenSayWhy() throws IOException {
        byte[] log = Vectors.abc();
        log[315 + 309 + FrameHeader.RESERVED_OFFSET] = 1;
        try (SegmentChannel ch = SegmentChannel.open(write(log)); LogCursor cursor = new LogCursor(ch)) {
            cursor.seek(315);
            LogCursor.Batch b = cursor.nextUnverified();
            List<LogCursor.Frame> frames = new ArrayList<>();
            Defect d = cursor.frames(b, frames::add);
            assertEquals(1, frames.size());
            assertEquals(Defect.Code.FRAME_RESERVED_NOT_ZERO, d.code());
            assertEquals(315 + 309, d.position());
            assertEquals(1, d.index());
            assertEquals(d, cursor.verify(b).defect(), "the verifier walks the same frames and stops at the same one");
        }
    }

    @Test
    void batchAccessors() {
        LogCursor.Batch b = new LogCursor.Batch(10, new BatchHeader(1, 2, 3, 4, 300, 5, 1), null);
        assertEquals(300, b.length());
        assertEquals(310, b.end());
        assertTrue(b.verified());
        assertFalse(new LogCursor.Batch(10, b.header(), Defect.of(Defect.Code.BATCH_CHECKSUM_MISMATCH, 10, 0, 1, 2))
                .verified());
        assertArrayEquals(new long[]{1, 2}, new long[]{b.header().partitionId(), b.header().baseOffset()});
    }
}
