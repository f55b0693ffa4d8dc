package segtool.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static segtool.samples.Records.header;
import static segtool.samples.Records.verifyAt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.naming.SegmentFiles;
import segtool.samples.Expected.Partition;
import segtool.samples.Expected.Segment;
import segtool.samples.Expected.Status;

/**
 * Byte-level checks that each sample holds the damage its hand-written verdict assumes. These read bytes and verify
 * records; they never decide what recovery does.
 */
class ShapesTest {
    @TempDir
    static Path out;

    @BeforeAll
    static void generate() throws IOException {
        SampleGenerator.generateAll(out);
    }

    private static Path dir(String shape) {
        return out.resolve(shape).resolve(Gallery.PARTITION_1);
    }

    private static byte[] log(String shape, long start) throws IOException {
        return Files.readAllBytes(SegmentFiles.log(dir(shape), start));
    }

    private static List<IndexEntry> index(String shape, long start) throws IOException {
        byte[] bytes = Files.readAllBytes(SegmentFiles.index(dir(shape), start));
        List<IndexEntry> out = new ArrayList<>();
        for (int at = 0; at + IndexEntry.LENGTH <= bytes.length; at += IndexEntry.LENGTH) {
            out.add(IndexEntry.read(ByteBuffer.wrap(bytes), at));
        }
        return out;
    }

    private static final List<IndexEntry> I3 = List.of(new IndexEntry(0, SpecVectors.TA, 0),
            new IndexEntry(1, SpecVectors.TB, 315), new IndexEntry(4, SpecVectors.TC, 782));

    @Test
    void healthy_isFormatVectorsABCWithThreeChunkIndex() throws IOException {
        byte[] log = log("healthy", 0);
        assertEquals(1145, log.length);
        int[] at = {0, 315, 782};
        long[] checksums = {0x3879BF7FFB9EFF19L, 0x66EA730CD6D6F3D2L, 0xD0C31C403A898EC2L};
        for (int i = 0; i < 3; i++) {
            assertNull(verifyAt(log, at[i]));
            assertEquals(checksums[i], header(log, at[i]).batchChecksum(), "FORMAT 8 batch checksum of record " + i);
        }
        assertEquals(I3, index("healthy", 0));
    }

    @Test
    void tornTail_zerosStartExactlyWhereTheLastBatchEnds() throws IOException {
        byte[] log = log("torn-tail", 0);
        assertEquals(1245, log.length);
        assertNull(verifyAt(log, 782));
        assertEquals(1145, 782 + header(log, 782).batchLength());
        for (int i = 1145; i < log.length; i++) {
            assertEquals(0, log[i], "byte " + i);
        }
        assertEquals(I3, index("torn-tail", 0));
    }

    @Test
    void indexPartialEntry_hasThreeWholeEntriesAndTenTornBytes() throws IOException {
        assertEquals(82, Files.size(SegmentFiles.index(dir("index-partial-entry"), 0)));
        assertEquals(I3, index("index-partial-entry", 0));
    }

    @Test
    void indexPastEnd_entriesPointAtOrPastTheEndOfTheLog() throws IOException {
        List<IndexEntry> one = index("index-past-end-stepback-1", 0);
        assertEquals(4, one.size());
        assertEquals(1145, one.get(3).position());
        assertEquals(1145, log("index-past-end-stepback-1", 0).length);
        List<IndexEntry> two = index("index-past-end-stepback-2", 0);
        assertEquals(5, two.size());
        assertEquals(List.of(1145L, 1200L), List.of(two.get(3).position(), two.get(4).position()));
    }

    @Test
    void indexRebuilt_entriesRegress() throws IOException {
        List<IndexEntry> e = index("index-rebuilt", 0);
        assertTrue(e.get(2).offset() < e.get(1).offset() && e.get(2).position() < e.get(1).position());
        assertEquals(I3.get(0), e.get(0));
    }

    @Test
    void recoveredEmpty_holdsOnlyRot() throws IOException {
        byte[] log = log("recovered-empty", 0);
        byte[] index = Files.readAllBytes(SegmentFiles.index(dir("recovered-empty"), 0));
        assertArrayEquals(Damage.repeated(300, 0xAB), log);
        assertArrayEquals(Damage.repeated(10, 0xAB), index);
        assertFalse(BatchHeader.decodes(ByteBuffer.wrap(log), 0));
    }

    @Test
    void interiorDamage_flippedByteBreaksBOnlyAndCSurvives() throws IOException {
        for (String shape : List.of("interior-damage", "interior-damage-below-last-entry")) {
            byte[] log = log(shape, 0);
            assertNull(verifyAt(log, 0), shape);
            Defect d = verifyAt(log, 315);
            assertNotNull(d, shape);
            assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, d.code(), shape);
            assertTrue(BatchHeader.decodes(ByteBuffer.wrap(log), 315), shape + ": B's header stays intact");
            assertNull(verifyAt(log, 782), shape);
        }
        assertEquals(List.of(I3.get(0)), index("interior-damage", 0));
        assertEquals(I3, index("interior-damage-below-last-entry", 0));
    }

    @Test
    void unverifiedResidue_isTheBudgetExampleOfRecovery10() throws IOException {
        byte[] log = log("unverified-residue", 0);
        assertEquals(400 + 64 * 256, log.length);
        assertNull(verifyAt(log, 0));
        BatchHeader first = header(log, 0);
        assertEquals(400, first.batchLength());
        assertEquals(2, first.messageCount());
        for (int k = 0; k < 64; k++) {
            int at = 400 + 256 * k;
            BatchHeader h = header(log, at);
            assertEquals(new BatchHeader(0, 100, 0, 0, 8192, 0, k + 1), h, "fake header " + k);
            assertTrue(BatchHeader.decodes(ByteBuffer.wrap(log), at));
        }
        assertFalse(Files.exists(SegmentFiles.index(dir("unverified-residue"), 0)), "index must be absent");
    }

    @Test
    void offsetDiscontinuity_restampedBatchVerifiesWithAGap() throws IOException {
        byte[] log = log("offset-discontinuity", 0);
        assertNull(verifyAt(log, 315));
        assertEquals(3, header(log, 315).endOffset());
        assertNull(verifyAt(log, 782));
        assertEquals(7, header(log, 782).baseOffset());
        assertEquals(1, header(log, 782).partitionId());
    }

    @Test
    void foreignBatch_verifiesAndCarriesAnotherPartitionId() throws IOException {
        byte[] log = log("foreign-batch", 0);
        assertNull(verifyAt(log, 782));
        assertEquals(2, header(log, 782).partitionId());
        assertEquals(4, header(log, 782).baseOffset());
        assertTrue(dir("foreign-batch").endsWith(Path.of("partitions", "1")));
    }

    @Test
    void fsyncedLogLoss_logEndsInsideB() throws IOException {
        assertEquals(500, log("fsynced-log-loss", 0).length);
        assertEquals(I3, index("fsynced-log-loss", 0));
    }

    @Test
    void fsyncedRebuildShortfall_secondChunkHoldsBAndCAndTheLogEndsInsideC() throws IOException {
        byte[] log = log("fsynced-rebuild-shortfall", 0);
        assertEquals(900, log.length);
        assertNull(verifyAt(log, 315));
        assertEquals(List.of(I3.get(0), I3.get(1), new IndexEntry(5, SpecVectors.TC + 1_000, 1145)),
                index("fsynced-rebuild-shortfall", 0));
    }

    @Test
    void hole_segmentZeroEndsInsideBAndSegmentFourIsC() throws IOException {
        byte[] log0 = log("hole", 0);
        assertEquals(415, log0.length);
        assertNull(verifyAt(log0, 0));
        byte[] log4 = log("hole", 4);
        assertEquals(363, log4.length);
        assertNull(verifyAt(log4, 0));
        assertEquals(List.of(new IndexEntry(4, SpecVectors.TC, 0)), index("hole", 4));
        assertFalse(Files.exists(SegmentFiles.anchor(dir("hole"), 4)));
    }

    @Test
    void anchoredGap_anchorNamesBothSidesOfTheGap() throws IOException {
        Path anchor = SegmentFiles.anchor(dir("anchored-gap"), 10);
        AnchorRecord a = AnchorRecord.decode(Files.readAllBytes(anchor));
        assertEquals(new AnchorRecord(10, 0, 3), a);
        byte[] log0 = log("anchored-gap", 0);
        assertEquals(3, header(log0, 315).endOffset());
        byte[] log10 = log("anchored-gap", 10);
        assertNull(verifyAt(log10, 0));
        assertEquals(10, header(log10, 0).baseOffset());
    }

    @Test
    void emptyNonTailSegment_firstLogIsEmptyButItsIndexStays() throws IOException {
        assertEquals(0, log("empty-non-tail-segment", 0).length);
        assertEquals(List.of(I3.get(0)), index("empty-non-tail-segment", 0));
        assertNull(verifyAt(log("empty-non-tail-segment", 4), 0));
    }

    @Test
    void nonCanonicalNames_strayLogHoldsAValidBatchAtFiveAndCanonicalFiveIsAbsent() throws IOException {
        Path dir = dir("non-canonical-names");
        byte[] stray = Files.readAllBytes(dir.resolve("5.log"));
        assertNull(verifyAt(stray, 0));
        assertEquals(5, header(stray, 0).baseOffset());
        assertFalse(Files.exists(SegmentFiles.log(dir, 5)));
        assertTrue(Files.exists(SegmentFiles.indexStaging(dir, 0)));
        assertTrue(Files.exists(SegmentFiles.index(dir, 7)));
        assertTrue(Files.exists(SegmentFiles.anchor(dir, 7)));
        assertFalse(Files.exists(SegmentFiles.log(dir, 7)));
    }

    /** Ties the hand-written sizes to the bytes: a clean segment's recovered size is its whole log and index. */
    @Test
    void everyCleanSegment_expectedSizesEqualTheFileLengths() throws IOException {
        int checked = 0;
        for (Gallery.Sample sample : Gallery.all()) {
            for (Partition p : sample.expected()) {
                Path dir = out.resolve(sample.name()).resolve(p.path());
                for (Expected.Mode mode : List.of(p.lenient(), p.durable())) {
                    for (Segment s : mode.segments()) {
                        if (s.status() == Status.CLEAN) {
                            String where = sample.name() + " " + p.path() + " segment " + s.startOffset();
                            assertEquals(s.size(), Files.size(SegmentFiles.log(dir, s.startOffset())), where);
                            assertEquals(s.indexSize(), Files.size(SegmentFiles.index(dir, s.startOffset())), where);
                            checked++;
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 20, "checked " + checked);
    }

    @Test
    void everyExpectation_isWellFormed() {
        for (Gallery.Sample sample : Gallery.all()) {
            for (Partition p : sample.expected()) {
                for (Expected.Mode mode : List.of(p.lenient(), p.durable())) {
                    String where = sample.name() + " " + p.path();
                    boolean refusedSegment = mode.segments().stream().anyMatch(s -> s.status() == Status.REFUSED);
                    assertEquals(mode.refusal() != null, refusedSegment, where + ": a refusal names one segment");
                    if (mode.refusal() != null) {
                        long named = mode.refusal().segmentStartOffset();
                        assertTrue(mode.segments().stream().anyMatch(s -> s.status() == Status.REFUSED
                                && s.startOffset() == named), where);
                    }
                    for (Segment s : mode.segments()) {
                        boolean hasSizes = s.status() != Status.REFUSED && s.status() != Status.NOT_EXAMINED;
                        assertEquals(hasSizes, s.size() != null && s.endOffset() != null && s.indexSize() != null,
                                where);
                    }
                }
            }
        }
    }
}
