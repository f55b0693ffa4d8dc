package segtool.formats.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;

/**
 * Every single-bit flip and every truncation of vector B (467 bytes, frames at 256, 309 and 387) is detected, and
 * by the check F 2.2/2.5 assigns to the flipped region. The expected defect is derived per region from the spec,
 * not from running the verifier.
 */
class CorruptionTest {
    private static final int LENGTH = 467;
    private static final int[] FRAMES = {256, 309, 387};
    private static final long BATCH_CHECKSUM = 0x66EA730CD6D6F3D2L;
    private static final long[] MESSAGE_CHECKSUMS = {0xBBE9AAABF88E3949L, 0x081AC41C6F701FDDL, 0x6E8A2CEC937B6941L};
    private static final int WINDOW = 4096;

    @TempDir
    Path dir;

    private final RecordVerifier verifier = new RecordVerifier();

    @AfterEach
    void close() throws IOException {
        verifier.close();
    }

    /**
     * Replaces the file's content in place. Files.write truncates to zero first, which on ext4 forces the old
     * blocks out to disk (auto_da_alloc) and makes thousands of rewrites slow.
     */
    private static void overwrite(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
            ch.truncate(bytes.length);
        }
    }

    /** The defect F 2.2/2.5 predicts for {@code record} with bit {@code mask} of byte {@code p} flipped. */
    private static Defect expected(byte[] flipped, int p, int mask) {
        if (p < BatchHeader.BATCH_LENGTH_OFFSET) {
            return Defect.of(Defect.Code.BATCH_CHECKSUM_MISMATCH, 0, 0, BATCH_CHECKSUM, 0);
        }
        if (p < BatchHeader.CHECKSUM_OFFSET) {
            long length = LittleEndian.u64(flipped, BatchHeader.BATCH_LENGTH_OFFSET);
            return Long.compareUnsigned(length, 256) < 0
                    ? Defect.of(Defect.Code.LENGTH_TOO_SMALL, 0, 0, 256, length)
                    : Defect.of(Defect.Code.RUNS_PAST_EOF, 0, 0, LENGTH, length);
        }
        if (p < BatchHeader.MESSAGE_COUNT_OFFSET) {
            // The stored field is compared, not hashed: the computed value is the original checksum.
            return Defect.of(Defect.Code.BATCH_CHECKSUM_MISMATCH, 0, 0,
                    LittleEndian.u64(flipped, BatchHeader.CHECKSUM_OFFSET), BATCH_CHECKSUM);
        }
        if (p < BatchHeader.RESERVED_OFFSET) {
            return Defect.of(Defect.Code.FRAME_COUNT_MISMATCH, 0, 0,
                    LittleEndian.u32(flipped, BatchHeader.MESSAGE_COUNT_OFFSET), 3);
        }
        if (p < BatchHeader.LENGTH) {
            return Defect.of(Defect.Code.RESERVED_NOT_ZERO, p, p, 0, mask);
        }
        int i = p >= FRAMES[2] ? 2 : p >= FRAMES[1] ? 1 : 0;
        int f = FRAMES[i];
        int rel = p - f;
        if (rel < FrameHeader.ID_OFFSET) {
            return Defect.of(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, f, i, LittleEndian.u64(flipped, f),
                    MESSAGE_CHECKSUMS[i]);
        }
        if (rel >= FrameHeader.USER_HEADERS_LENGTH_OFFSET && rel < FrameHeader.RESERVED_OFFSET) {
            long end = f + 48L + LittleEndian.u32(flipped, f + FrameHeader.PAYLOAD_LENGTH_OFFSET)
                    + LittleEndian.u32(flipped, f + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
            if (end > LENGTH) {
                return Defect.of(Defect.Code.FRAME_OVERRUNS_BLOB, f, i, LENGTH, end);
            }
            // A shorter frame: the checksum now covers different bytes (the flipped length among them).
            return Defect.of(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, f, i, MESSAGE_CHECKSUMS[i], -1);
        }
        if (rel >= FrameHeader.RESERVED_OFFSET && rel < FrameHeader.LENGTH) {
            return Defect.of(Defect.Code.FRAME_RESERVED_NOT_ZERO, f, i, 0,
                    (long) mask << (8 * (rel - FrameHeader.RESERVED_OFFSET)));
        }
        // id, deltas, payload, user headers: the per-message checksum.
        return Defect.of(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, f, i, MESSAGE_CHECKSUMS[i], -1);
    }

    private static void assertMatches(Defect want, Defect got, String where) {
        assertNotNull(got, where + ": not detected");
        assertEquals(want.code(), got.code(), where + ": " + got.describe());
        assertEquals(want.position(), got.position(), where);
        assertEquals(want.index(), got.index(), where);
        assertEquals(want.expected(), got.expected(), where);
        // The computed hash of damaged bytes is not predictable; everything else is.
        boolean unpredictable = want.code() == Defect.Code.MESSAGE_CHECKSUM_MISMATCH && want.actual() == -1
                || want.code() == Defect.Code.BATCH_CHECKSUM_MISMATCH && want.actual() == 0;
        if (!unpredictable) {
            assertEquals(want.actual(), got.actual(), where);
        }
    }

    @Test
    void everyBitFlip_isDetectedByTheCheckItsRegionBelongsTo() throws IOException {
        byte[] b = Vectors.b();
        Map<Defect.Code, Integer> seen = new EnumMap<>(Defect.Code.class);
        for (int p = 0; p < LENGTH; p++) {
            for (int bit = 0; bit < 8; bit++) {
                int mask = 1 << bit;
                byte[] flipped = b.clone();
                flipped[p] ^= (byte) mask;
                Defect got = verifier.verify(ByteBuffer.wrap(flipped), 0, LENGTH, 0);
                assertMatches(expected(flipped, p, mask), got, "byte " + p + " bit " + bit);
                seen.merge(got.code(), 1, Integer::sum);
            }
        }
        // 32 meta bytes and the 8 stored checksum bytes; 204 reserved; 4 count; 8 reserved bytes per frame.
        assertEquals((32 + 8) * 8, seen.get(Defect.Code.BATCH_CHECKSUM_MISMATCH));
        assertEquals(204 * 8, seen.get(Defect.Code.RESERVED_NOT_ZERO));
        assertEquals(4 * 8, seen.get(Defect.Code.FRAME_COUNT_MISMATCH));
        assertEquals(3 * 8 * 8, seen.get(Defect.Code.FRAME_RESERVED_NOT_ZERO));
        assertEquals(1, seen.get(Defect.Code.LENGTH_TOO_SMALL), "only clearing bit 0 of byte 33 (467 -> 211)");
        assertEquals(8 * 8 - 1, seen.get(Defect.Code.RUNS_PAST_EOF));
        assertEquals((LENGTH - 256 - 3 * 8) * 8, seen.get(Defect.Code.MESSAGE_CHECKSUM_MISMATCH)
                + seen.get(Defect.Code.FRAME_OVERRUNS_BLOB));
        assertEquals(LENGTH * 8, seen.values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void everyBitFlip_isDetectedThroughTheFileAndTheCursor() throws IOException {
        byte[] b = Vectors.b();
        Path file = dir.resolve("00000000000000000001.log");
        for (int p = 0; p < LENGTH; p += (p < 64 ? 1 : 3)) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = b.clone();
                flipped[p] ^= (byte) (1 << bit);
                overwrite(file, flipped);
                String where = "byte " + p + " bit " + bit;
                Defect want = expected(flipped, p, 1 << bit);
                long claimed = LittleEndian.u64(flipped, BatchHeader.BATCH_LENGTH_OFFSET);
                try (SegmentChannel log = SegmentChannel.open(file, WINDOW);
                     LogCursor cursor = new LogCursor(log)) {
                    LogCursor.Batch first = cursor.next();
                    if (want.code() == Defect.Code.LENGTH_TOO_SMALL || want.code() == Defect.Code.RESERVED_NOT_ZERO) {
                        assertNull(first, where);
                        assertMatches(want, cursor.stopReason(), where);
                    } else if (want.code() == Defect.Code.RUNS_PAST_EOF
                            && Long.compareUnsigned(claimed, LENGTH) > 0) {
                        assertNull(first, where);
                        Defect.Code code = Long.compareUnsigned(claimed, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES) > 0
                                ? Defect.Code.LENGTH_OVER_MAX : Defect.Code.RUNS_PAST_EOF;
                        assertEquals(code, cursor.stopReason().code(), where);
                        assertEquals(claimed, cursor.stopReason().actual(), where);
                    } else if (want.code() == Defect.Code.RUNS_PAST_EOF) {
                        // A shorter claimed record frames; its blob cannot hold three whole frames.
                        assertNotNull(first, where);
                        assertEquals(claimed, first.length(), where);
                        assertNotNull(first.defect(), where);
                    } else {
                        assertNotNull(first, where);
                        assertMatches(want, first.defect(), where);
                        assertNull(cursor.next(), where);
                        assertNull(cursor.stopReason(), where);
                    }
                }
            }
        }
    }

    @Test
    void everyTruncation_isDetectedInMemory() throws IOException {
        byte[] b = Vectors.b();
        for (int n = 0; n < LENGTH; n++) {
            Defect d = verifier.verify(ByteBuffer.wrap(Arrays.copyOf(b, n)), 0, n, 0);
            if (n < 256) {
                assertEquals(Defect.Code.HEADER_TRUNCATED, d.code(), "n " + n);
                assertEquals(n, d.actual());
            } else {
                assertEquals(Defect.Code.RUNS_PAST_EOF, d.code(), "n " + n);
                assertEquals(n, d.expected());
                assertEquals(LENGTH, d.actual());
            }
        }
        assertNull(verifier.verify(ByteBuffer.wrap(b), 0, LENGTH, 0));
    }

    @Test
    void everyTruncation_isDetectedThroughATruncatedFile() throws IOException {
        byte[] b = Vectors.b();
        Path file = dir.resolve("00000000000000000001.log");
        for (int n = 0; n <= LENGTH; n++) {
            overwrite(file, Arrays.copyOf(b, n));
            try (SegmentChannel log = SegmentChannel.open(file, WINDOW);
                 LogCursor cursor = new LogCursor(log)) {
                Defect v = verifier.verify(log, 0, LENGTH);
                LogCursor.Batch first = cursor.next();
                if (n == LENGTH) {
                    assertNull(v);
                    assertNull(first.defect());
                    continue;
                }
                assertEquals(Defect.Code.RUNS_PAST_EOF, v.code(), "n " + n);
                assertEquals(n, v.expected());
                assertEquals(LENGTH, v.actual());
                assertNull(first, "n " + n);
                if (n == 0) {
                    assertNull(cursor.stopReason(), "an empty log ends cleanly");
                } else if (n < 256) {
                    assertEquals(Defect.Code.HEADER_TRUNCATED, cursor.stopReason().code(), "n " + n);
                    assertEquals(n, cursor.stopReason().actual());
                } else {
                    assertEquals(Defect.Code.RUNS_PAST_EOF, cursor.stopReason().code(), "n " + n);
                    assertEquals(n, cursor.stopReason().expected());
                }
            }
        }
    }

    @Test
    void everyCutOfTheVectorSegment_keepsTheWholeRecordsBeforeIt() throws IOException {
        byte[] abc = Vectors.abc();
        long[] ends = {315, 782, 1145};
        Path file = dir.resolve("00000000000000000000.log");
        for (int n = 0; n <= abc.length; n++) {
            overwrite(file, Arrays.copyOf(abc, n));
            try (SegmentChannel log = SegmentChannel.open(file, WINDOW);
                 LogCursor cursor = new LogCursor(log)) {
                int whole = 0;
                for (LogCursor.Batch batch; (batch = cursor.next()) != null; ) {
                    assertNull(batch.defect(), "cut " + n);
                    whole++;
                }
                int expectWhole = n >= ends[2] ? 3 : n >= ends[1] ? 2 : n >= ends[0] ? 1 : 0;
                assertEquals(expectWhole, whole, "cut " + n);
                long boundary = expectWhole == 0 ? 0 : ends[expectWhole - 1];
                assertEquals(boundary, cursor.position(), "cut " + n);
                if (n == boundary) {
                    assertNull(cursor.stopReason(), "cut " + n);
                } else {
                    assertEquals(n - boundary < 256 ? Defect.Code.HEADER_TRUNCATED : Defect.Code.RUNS_PAST_EOF,
                            cursor.stopReason().code(), "cut " + n);
                }
            }
        }
    }
}
