package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.Vectors;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;

/**
 * Headers and frames crafted to make a careless reader allocate, wrap or throw. Each must fail with the defect
 * F 2.2/2.4/2.5 names, without an exception and without an allocation sized by the lie.
 */
class AdversarialHeaderTest {
    /** Heap a single check may allocate, well below any length the crafted headers claim. */
    private static final long ALLOCATION_BUDGET = 256 * 1024;

    @TempDir
    Path dir;

    private final RecordVerifier verifier = new RecordVerifier();

    @AfterEach
    void close() throws IOException {
        verifier.close();
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    private Defect verify(byte[] record) throws IOException {
        return verifier.verify(ByteBuffer.wrap(record), 0, record.length, 0);
    }

    private Path file(byte[] bytes) throws IOException {
        Path f = dir.resolve("00000000000000000000.log");
        Files.write(f, bytes);
        return f;
    }

    /** Walks {@code log} with a fresh cursor and returns the batches and the stop reason (as the last element). */
    private static List<Object> walk(Path log) throws IOException {
        List<Object> out = new ArrayList<>();
        try (SegmentChannel ch = SegmentChannel.open(log, 1 << 16); LogCursor cursor = new LogCursor(ch)) {
            for (LogCursor.Batch b; (b = cursor.next()) != null; ) {
                out.add(b);
            }
            out.add(cursor.stopReason());
        }
        return out;
    }

    @ParameterizedTest(name = "batch_length {0}")
    @ValueSource(longs = {0, 1, 255})
    void batchLengthBelowHeader_isLengthTooSmall(long length) throws IOException {
        byte[] a = Vectors.a();
        LittleEndian.putU64(a, BatchHeader.BATCH_LENGTH_OFFSET, length);
        Defect d = verify(a);
        assertEquals(Defect.Code.LENGTH_TOO_SMALL, d.code());
        assertEquals(length, d.actual());
        assertFalse(BatchHeader.decodes(ByteBuffer.wrap(a), 0));
        List<Object> w = walk(file(a));
        assertEquals(1, w.size());
        assertEquals(Defect.Code.LENGTH_TOO_SMALL, ((Defect) w.get(0)).code());
    }

    @ParameterizedTest(name = "batch_length {0}")
    @ValueSource(longs = {-1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, 268_435_713L})
    void hugeBatchLength_isRefusedWithoutAllocating(long length) throws IOException {
        byte[] a = Vectors.a();
        LittleEndian.putU64(a, BatchHeader.BATCH_LENGTH_OFFSET, length);
        assertTrue(BatchHeader.decodes(ByteBuffer.wrap(a), 0), "the header alone does not bound the length");
        Path log = file(a);
        long before = allocated();
        Defect inMemory = verify(a);
        Defect viaFile;
        try (SegmentChannel ch = SegmentChannel.open(log, 1 << 16)) {
            viaFile = verifier.verify(ch, 0, length);
        }
        List<Object> w = walk(log);
        long spent = allocated() - before;
        assertEquals(Defect.Code.RUNS_PAST_EOF, inMemory.code());
        assertEquals(length, inMemory.actual());
        assertEquals(Defect.Code.RUNS_PAST_EOF, viaFile.code());
        assertEquals(315, viaFile.expected());
        assertEquals(length, viaFile.actual());
        assertEquals(1, w.size());
        assertEquals(Defect.Code.LENGTH_OVER_MAX, ((Defect) w.get(0)).code());
        assertEquals(length, ((Defect) w.get(0)).actual());
        // The cursor owns a verifier whose 1 MiB scratch is fixed; nothing else may scale.
        assertTrue(spent < (1 << 20) + ALLOCATION_BUDGET, "allocated " + spent);
    }

    @Test
    void batchLengthPastTheAddressableRange_isADefectNotAnException() throws IOException {
        // A sparse file just over 2 GiB whose first header claims 2^31 + 256 bytes, all present: too long to map
        // as one buffer. Verify(p, n) must answer with a defect, as it does for every other lie.
        long claimed = (1L << 31) + 256;
        Path log = dir.resolve("00000000000000000000.log");
        try (RandomAccessFile raf = new RandomAccessFile(log.toFile(), "rw")) {
            raf.setLength(claimed + 4096);
            byte[] header = new byte[256];
            LittleEndian.putU64(header, BatchHeader.BATCH_LENGTH_OFFSET, claimed);
            raf.write(header);
        }
        try (SegmentChannel ch = SegmentChannel.open(log)) {
            Defect d = verifier.verify(ch, 0, claimed);
            assertEquals(Defect.Code.LENGTH_OVER_MAX, d.code());
            assertEquals(claimed, d.actual());
            assertEquals(Integer.MAX_VALUE, d.expected());
        }
    }

    @Test
    void hugeMessageCountWithSmallBlob_isCountMismatch_andCostsNothingPerClaimedMessage() throws IOException {
        byte[] b = Vectors.b();
        LittleEndian.putU32(b, BatchHeader.MESSAGE_COUNT_OFFSET, 0xFFFFFFFFL);
        long before = allocated();
        Defect d = verify(b);
        long spent = allocated() - before;
        assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, d.code());
        assertEquals(0xFFFFFFFFL, d.expected());
        assertEquals(3, d.actual());
        assertTrue(spent < ALLOCATION_BUDGET, "allocated " + spent);

        byte[] empty = RecordEncoder.encode(1, 0, 1, 0, List.of());
        LittleEndian.putU32(empty, BatchHeader.MESSAGE_COUNT_OFFSET, 0xFFFFFFFFL);
        assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, verify(empty).code());
    }

    @Test
    void manyTinyFramesUnderAHugeCount_costTheSameAsUnderTheTrueCount() throws IOException {
        // 3 MiB of empty 48-byte frames (65,536 of them). The walk's cost follows the frames present, never
        // message_count: claiming 2^32-1 messages allocates what claiming the true count does. Verifying grows the
        // batch-checksum cover to 8 bytes per present frame (doubling: at most twice that in total); decoding
        // makes one short-lived view per frame.
        int frames = 65_536;
        List<Message> messages = new ArrayList<>(frames);
        for (int i = 0; i < frames; i++) {
            messages.add(new Message(i, 0, 0, new byte[0], null));
        }
        byte[] record = RecordEncoder.encode(1, 0, 1, 0, messages);
        long[] honest = walkCost(record, null);
        LittleEndian.putU32(record, BatchHeader.MESSAGE_COUNT_OFFSET, 0xFFFFFFFFL);
        long[] lying = walkCost(record, Defect.Code.FRAME_COUNT_MISMATCH);
        assertTrue(lying[0] < honest[0] + ALLOCATION_BUDGET, "verify: honest " + honest[0] + ", lying " + lying[0]);
        assertTrue(lying[1] < honest[1] + ALLOCATION_BUDGET, "decode: honest " + honest[1] + ", lying " + lying[1]);
        assertTrue(lying[0] < 2 * 8L * 2 * frames + ALLOCATION_BUDGET, "verify allocated " + lying[0]);
        assertTrue(lying[1] < 400L * frames, "decode allocated " + lying[1]);
    }

    /** Heap allocated by framing and verifying, then by decoding (keeping no view), the one record in a log. */
    private long[] walkCost(byte[] record, Defect.Code expected) throws IOException {
        Path log = file(record);
        try (SegmentChannel ch = SegmentChannel.open(log)) {
            long before = allocated();
            try (LogCursor cursor = new LogCursor(ch)) {
                LogCursor.Batch batch = cursor.next();
                long verified = allocated();
                assertEquals(expected, batch.defect() == null ? null : batch.defect().code());
                long[] seen = {0};
                Predicate<MessageView> count = m -> ++seen[0] > 0;
                long decodeStart = allocated();
                Defect walk = cursor.messages(batch, 0, count);
                long decoded = allocated();
                assertEquals(expected, walk == null ? null : walk.code());
                assertEquals((record.length - 256) / 48, seen[0]);
                return new long[]{verified - before, decoded - decodeStart};
            }
        }
    }

    @Test
    void everyReservedHeaderByte_makesTheHeaderUndecodable() throws IOException {
        for (int p = BatchHeader.RESERVED_OFFSET; p < BatchHeader.LENGTH; p++) {
            byte[] a = Vectors.a();
            a[p] = (byte) 0x80;
            Defect d = verify(a);
            assertEquals(Defect.Code.RESERVED_NOT_ZERO, d.code(), "byte " + p);
            assertEquals(p, d.index());
            assertEquals(p, d.position());
            assertEquals(0x80, d.actual());
            assertFalse(BatchHeader.decodes(ByteBuffer.wrap(a), 0));
            assertEquals(Defect.Code.RESERVED_NOT_ZERO, BatchHeader.check(ByteBuffer.wrap(a), 0, 0).code());
        }
        byte[] a = Vectors.a();
        LittleEndian.putU64(a, BatchHeader.BATCH_LENGTH_OFFSET, 3);
        a[100] = 1;
        assertEquals(Defect.Code.LENGTH_TOO_SMALL, verify(a).code(), "both wrong: the length is reported");
    }

    @Test
    void reservedBytesAtTheFirstNonZero_isTheOneReported() {
        byte[] a = Vectors.a();
        a[200] = 3;
        a[53] = 5;
        Defect d = BatchHeader.check(ByteBuffer.wrap(a), 0, 1000);
        assertEquals(53, d.index());
        assertEquals(1053, d.position());
        assertEquals(5, d.actual());
    }

    @ParameterizedTest(name = "payload {0}")
    @ValueSource(longs = {1L << 31, 0xFFFFFFD0L, 0xFFFFFFFFL, 0x80000010L})
    void frameLengthsOverflowing32Bits_overrunTheBlob(long payloadLength) throws IOException {
        // One frame of 48 bytes whose lengths sum to 2^32 (or more): a reader summing in 32 bits sees a frame
        // that ends right after its header, and the stored checksum does match those 40 bytes.
        long userHeadersLength = payloadLength == 0xFFFFFFFFL ? 0xFFFFFFFFL : (1L << 32) - payloadLength;
        byte[] r = RecordEncoder.encode(1, 0, 1, 0, List.of(new Message(1, 0, 0, new byte[0], null)));
        LittleEndian.putU32(r, 256 + FrameHeader.PAYLOAD_LENGTH_OFFSET, payloadLength);
        LittleEndian.putU32(r, 256 + FrameHeader.USER_HEADERS_LENGTH_OFFSET, userHeadersLength);
        LittleEndian.putU64(r, 256, Xxh3.hash(r, 256 + FrameHeader.ID_OFFSET, 40));
        RecordEncoder.restamp(r);
        long before = allocated();
        Defect d = verify(r);
        long spent = allocated() - before;
        assertEquals(Defect.Code.FRAME_OVERRUNS_BLOB, d.code());
        assertEquals(0, d.index());
        assertEquals(256, d.position());
        assertEquals(304, d.expected());
        assertEquals(304 + payloadLength + userHeadersLength, d.actual());
        assertTrue(spent < ALLOCATION_BUDGET, "allocated " + spent);
        List<Object> w = walk(file(r));
        assertEquals(Defect.Code.FRAME_OVERRUNS_BLOB, ((LogCursor.Batch) w.get(0)).defect().code());
        assertNull(w.get(1));
    }

    @Test
    void frameShorterThanItsHeader_isFrameTruncated() throws IOException {
        byte[] r = RecordEncoder.encode(1, 0, 1, 0, List.of(new Message(1, 0, 0, new byte[5], null)));
        // Claim a 53-byte record plus 47 stray bytes: the walk meets 47 bytes where a frame header needs 48.
        byte[] longer = new byte[r.length + 47];
        System.arraycopy(r, 0, longer, 0, r.length);
        LittleEndian.putU64(longer, BatchHeader.BATCH_LENGTH_OFFSET, longer.length);
        Defect d = verify(longer);
        assertEquals(Defect.Code.FRAME_TRUNCATED, d.code());
        assertEquals(1, d.index());
        assertEquals(r.length, d.position());
        assertEquals(47, d.actual());
    }

    @Test
    void extraWholeFrameBeyondTheCount_isCountMismatch() throws IOException {
        byte[] two = RecordEncoder.encode(1, 0, 1, 0, List.of(new Message(1, 0, 0, new byte[3], null),
                new Message(2, 0, 0, new byte[4], null)));
        LittleEndian.putU32(two, BatchHeader.MESSAGE_COUNT_OFFSET, 1);
        Defect d = verify(two);
        assertEquals(Defect.Code.FRAME_COUNT_MISMATCH, d.code());
        assertEquals(1, d.expected());
        assertEquals(2, d.actual());
    }

    @Test
    void validPerMessageChecksumsButStaleBatchChecksum_isBatchChecksumMismatch() throws IOException {
        // The body bytes are bound only through the per-message checksums; re-sealing a frame but not the batch
        // must still fail at the batch checksum.
        byte[] a = Vectors.a();
        a[310] ^= 1;
        LittleEndian.putU64(a, 256, Xxh3.hash(a, 264, a.length - 264));
        Defect d = verify(a);
        assertEquals(Defect.Code.BATCH_CHECKSUM_MISMATCH, d.code());
        assertEquals(0x3879BF7FFB9EFF19L, d.expected());
        RecordEncoder.restamp(a);
        assertNull(verify(a));
    }

    @Test
    void lengthsNeverSizeAnAllocationInTheDecoder() {
        // A frame claiming 2^32-1 payload bytes in a 304-byte record is reported before any copy is sized.
        byte[] r = RecordEncoder.encode(1, 0, 1, 0, List.of(new Message(1, 0, 0, new byte[0], null)));
        LittleEndian.putU32(r, 256 + FrameHeader.PAYLOAD_LENGTH_OFFSET, 0xFFFFFFFFL);
        ByteBuffer buffer = ByteBuffer.wrap(r);
        Predicate<MessageView> all = m -> true;
        long before = allocated();
        Defect d = MessageView.decode(buffer, 0, r.length, 0, Integer.MAX_VALUE, all);
        long spent = allocated() - before;
        assertEquals(Defect.Code.FRAME_OVERRUNS_BLOB, d.code());
        assertTrue(spent < ALLOCATION_BUDGET, "allocated " + spent);
    }
}
