package segtool.analyzers.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentLog;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.writer.PartitionWriter;

/**
 * Listings (batches, messages) verify batch after batch through the walk's ring of windows on several cores; every
 * answer equals the sequential Verify(p, n), in order, out of order, and past damage.
 */
class SegmentReaderVerifyTest {
    @TempDir
    Path root;

    @Test
    void listingVerification_onSeveralCores_answersAsASequentialCheck() throws Exception {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1), 30_000, 10, 300, 7);
        Path log = dir.resolve("00000000000000000000.log");
        Path index = dir.resolve("00000000000000000000.index");
        byte[] bytes = Files.readAllBytes(log);
        int record = (int) segtool.formats.io.LittleEndian.u64(bytes, BatchHeader.BATCH_LENGTH_OFFSET);
        bytes[record * 40 + BatchHeader.LENGTH + 70] ^= 1;          // a payload byte of batch 40
        bytes[record * 200 + BatchHeader.CHECKSUM_OFFSET] ^= 1;     // the batch checksum of batch 200
        Files.write(log, bytes);

        List<Long> positions = new ArrayList<>();
        List<Long> lengths = new ArrayList<>();
        List<Defect> want = new ArrayList<>();
        try (SegmentLog seq = SegmentLog.open(log, 0, 1, bytes.length, RecoveryOptions.defaults().withThreads(1))) {
            for (long p = 0; p < bytes.length; p += record) {
                positions.add(p);
                lengths.add((long) record);
                want.add(seq.verify(p, record));
            }
        }
        assertNotNull(want.get(40));
        assertNotNull(want.get(200));
        assertNull(want.get(41));

        String before = System.getProperty("segtool.threads");
        System.setProperty("segtool.threads", "3");
        try (SegmentReader reader = SegmentReader.open(log, index, 0, 1, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES)) {
            List<Defect> got = new ArrayList<>();
            reader.seek(0);
            for (SegmentReader.Batch b; (b = reader.next()) != null; ) {
                got.add(reader.verify(b));
            }
            assertEquals(want, got);
            // out of order (a find, a listing from an offset): the ring starts again where it is asked
            for (int k : new int[] {2_500, 3, 4, 40, 200, 199, 201, 1_500}) {
                assertEquals(want.get(k), reader.verify(reader.at(positions.get(k))), "batch " + k);
            }
        } finally {
            if (before == null) {
                System.clearProperty("segtool.threads");
            } else {
                System.setProperty("segtool.threads", before);
            }
        }
    }
}
