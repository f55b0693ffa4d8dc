package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static segtool.formats.Vectors.TA;
import static segtool.formats.Vectors.TB;
import static segtool.formats.Vectors.TC;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.Vectors;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;

/** RECOVERY.md section 7: every refusal variant and every non-refusal outcome, in both modes. */
class OutcomeCatalogueTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, TA, 0);
    private static final IndexEntry EB = new IndexEntry(1, TB, 315);
    private static final IndexEntry EC = new IndexEntry(4, TC, 782);

    private static void assertRefusal(PartitionReport r, Refusal.Variant variant, Map<String, Long> fields) {
        assertEquals(Outcome.REFUSED, r.outcome(), () -> "expected " + variant + ", got " + r.outcome() + " "
                + r.segments().stream().map(s -> s.status().json()).toList());
        assertEquals(variant, r.refusal().variant());
        assertEquals(fields, r.refusal().fields());
    }

    private static byte[] batch(long pid, long base, long ts, int messages) {
        Message[] m = new Message[messages];
        for (int i = 0; i < messages; i++) {
            m[i] = Message.of(base + i + 1, ("message " + (base + i)).getBytes());
        }
        return RecordEncoder.encode(pid, base, ts, ts - 5, List.of(m));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void offsetDiscontinuity_firstRecordBelowFileName(boolean durable) throws Exception {
        // segment named 10 holds a batch starting at 0: R() has no exception at the first batch
        Fixture f = new Fixture(root, 1).log(10, Vectors.abc());
        assertRefusal(f.judge(durable), Refusal.Variant.OffsetDiscontinuity, Map.of("start_offset", 10L,
                "expected_offset", 10L, "found_offset", 0L, "position", 0L));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void offsetDiscontinuity_verifiedGapAfterAcceptedRecord(boolean durable) throws Exception {
        byte[] a = batch(1, 0, TA, 2);
        byte[] b = batch(1, 5, TB, 1);
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(a, b)).index(0, new IndexEntry(0, TA, 0));
        assertRefusal(f.judge(durable), Refusal.Variant.OffsetDiscontinuity, Map.of("start_offset", 0L,
                "expected_offset", 2L, "found_offset", 5L, "position", (long) a.length));
    }

    @Test
    void staleLastEntry_offsetMismatchAtAnchorIsNotARefusal() throws Exception {
        // the last entry names offset 3 at B's position: W(last) stops silently; lenient rebuilds
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, new IndexEntry(3, TB, 315));
        PartitionReport r = f.judge(false);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = r.segments().get(0);
        assertEquals(Stop.Kind.INDEX_OFFSET_MISMATCH, s.fromLast().stop().kind());
        assertEquals(Status.INDEX_REBUILT, s.status());
        assertEquals(4, s.endOffset());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void foreignBatch_inByteZeroWalk(boolean durable) throws Exception {
        byte[] a = batch(1, 0, TA, 2);
        byte[] b = batch(7, 2, TB, 1);
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(a, b));
        assertRefusal(f.judge(durable), Refusal.Variant.ForeignBatch, Map.of("start_offset", 0L,
                "batch_partition_id", 7L, "position", (long) a.length));
    }

    @Test
    void fsyncedRebuildShortfall_durableOnly() throws Exception {
        byte[] log = Fixture.concat(Vectors.abc(), Fixture.filled(300, 0xAB));
        Fixture f = new Fixture(root, 1).log(0, log).index(0, EA, EB, new IndexEntry(5, TC + 1, 1300));
        assertRefusal(f.judge(true), Refusal.Variant.FsyncedRebuildShortfall, Map.of("start_offset", 0L,
                "entry_count", 3L, "walked_position", 1145L, "durable_position", 1300L));
        PartitionReport lenient = f.judge(false);
        assertEquals(Outcome.ACCEPTED, lenient.outcome());
        assertEquals(Status.TRUNCATED, lenient.segments().get(0).status());
        assertEquals(1145, lenient.segments().get(0).size());
        assertEquals(1, lenient.segments().get(0).stepBack());
    }

    /**
     * Ten back-to-back plausible headers, each claiming a record that runs to the end of the log, with an index
     * entry on each and a last entry past the end. The anchor search grows the verify budget by 4 x 256 bytes per
     * entry but is charged 256, 512, 768, ... : the 8th probe (entry 3) overdraws it (9,216 > 8,192).
     */
    private Fixture overlappingHeaders() throws Exception {
        byte[] good = batch(1, 0, TA, 1);
        int g = good.length;
        int m = 10;
        byte[] log = Fixture.concat(good, new byte[256 * m]);
        IndexEntry[] entries = new IndexEntry[m + 2];
        entries[0] = new IndexEntry(0, TA, 0);
        for (int j = 0; j < m; j++) {
            int at = g + 256 * j;
            LittleEndian.putU64(log, at, 1);
            LittleEndian.putU64(log, at + 8, j + 1);
            LittleEndian.putU64(log, at + 32, log.length - at);
            LittleEndian.putU32(log, at + 48, 1);
            entries[j + 1] = new IndexEntry(j + 1, TA + j + 1, at);
        }
        entries[m + 1] = new IndexEntry(m + 5, TA + 99, log.length + 10);
        return new Fixture(root, 1).log(0, log).index(0, entries);
    }

    @Test
    void unverifiedResidue_fromAnchorSearch_durable() throws Exception {
        Fixture f = overlappingHeaders();
        long g = batch(1, 0, TA, 1).length;
        assertRefusal(f.judge(true), Refusal.Variant.UnverifiedResidue, Map.of("start_offset", 0L,
                "damage_position", g + 512, "residue_bytes", 2048L, "candidates_examined", 0L,
                "budget_units", 4096L, "verified_bytes", 9216L, "verify_budget_bytes", 8192L));
    }

    @Test
    void unverifiedResidue_fromProbe_lenient() throws Exception {
        Fixture f = overlappingHeaders();
        long g = batch(1, 0, TA, 1).length;
        PartitionReport r = f.judge(false);
        assertRefusal(r, Refusal.Variant.UnverifiedResidue, Map.of("start_offset", 0L,
                "damage_position", g, "residue_bytes", 2560L, "candidates_examined", 1792L,
                "budget_units", 5120L, "verified_bytes", 10752L, "verify_budget_bytes", 10240L));
        // the lenient evidence-only anchor search did not touch the shared budget
        assertTrue(r.segments().get(0).anchorSearch().exhausted());
    }

    @Test
    void fsyncedLogLoss_whenSearchFindsOnlyEntryZero() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.prefix(Vectors.abc(), 400)).index(0, EA, EB, EC);
        assertRefusal(f.judge(true), Refusal.Variant.FsyncedLogLoss, Map.of("start_offset", 0L, "entry_count", 3L,
                "provable_entries", 1L, "provable_position", 0L, "searched_entries", 2L));
        PartitionReport lenient = f.judge(false);
        assertEquals(Status.TRUNCATED, lenient.segments().get(0).status());
        assertEquals(315, lenient.segments().get(0).size());
        assertEquals(2, lenient.segments().get(0).stepBack());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void emptyNonTailSegment(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.filled(300, 0xAB))
                .log(4, Vectors.c()).index(4, new IndexEntry(4, TC, 0));
        assertRefusal(f.judge(durable), Refusal.Variant.EmptyNonTailSegment, Map.of("empty_start", 0L,
                "next_start", 4L, "recoverable_bytes", 363L));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void hole_overlapIsAlwaysAHole(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .log(3, batch(1, 3, TC + 10, 1));
        assertRefusal(f.judge(durable), Refusal.Variant.Hole, Map.of("previous_start", 0L, "previous_end", 4L,
                "next_start", 3L, "recoverable_bytes", 1145L + batch(1, 3, TC + 10, 1).length));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void anchoredGap_admitted(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .log(10, batch(1, 10, TC + 10, 2)).index(10, new IndexEntry(10, TC + 10, 0));
        Files.write(SegmentFiles.anchor(f.dir, 10), new AnchorRecord(10, 0, 4).encode());
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        assertNotNull(r.segments().get(1).anchoredGap());
        assertEquals(11, r.segments().get(1).endOffset());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void anchoredGap_wrongSealedEndIsAHole(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .log(10, batch(1, 10, TC + 10, 2)).index(10, new IndexEntry(10, TC + 10, 0));
        Files.write(SegmentFiles.anchor(f.dir, 10), new AnchorRecord(10, 0, 3).encode());
        assertRefusal(f.judge(durable), Refusal.Variant.Hole, Map.of("previous_start", 0L, "previous_end", 4L,
                "next_start", 10L, "recoverable_bytes", 1145L + batch(1, 10, TC + 10, 2).length));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void partialTrailingEntry_indexFlooredCountsAsTruncated(boolean durable) throws Exception {
        byte[] index = Fixture.concat(segtool.formats.index.IndexFile.encode(List.of(EA, EB, EC)), new byte[7]);
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).rawIndex(0, index);
        PartitionReport r = f.judge(durable);
        SegmentReport s = r.segments().get(0);
        assertEquals(Status.TRUNCATED, s.status());
        assertEquals(1145, s.size());
        assertEquals(List.of(new PlannedOp.TruncateIndex(s.index(), 0, 79, 72)), r.operations());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void structurallyInconsistentIndex_rebuiltWithoutDurableChecks(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EC, EB);
        PartitionReport r = f.judge(durable);
        SegmentReport s = r.segments().get(0);
        assertEquals(DecisionStep.A2, s.step());
        assertEquals(Status.INDEX_REBUILT, s.status());
        assertEquals(2, s.scan().firstBadEntry());
        assertInstanceOf(PlannedOp.InstallIndex.class, r.operations().get(1));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void sweep_stagingAndOrphansDeletedAndNonCanonicalFlagged(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .file("00000000000000000000.index.staging", new byte[24])
                .file("00000000000000000099.index", new byte[24])
                .file("00000000000000000099.anchor", new byte[40])
                .file("5.log", new byte[0]);
        PartitionReport r = f.judge(durable);
        List<String> swept = r.swept().stream().map(d -> d.path().getFileName().toString()).sorted().toList();
        assertEquals(List.of("00000000000000000000.index.staging", "00000000000000000099.anchor",
                "00000000000000000099.index"), swept);
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("5.log: non-canonical")), r.warnings()::toString);
        // 5.log contributes S=5, read at 00000000000000000005.log, which is missing: an empty tail segment...
        // ...but 0..4 then 5: contiguous, and the empty segment is last: accepted.
        assertEquals(Outcome.ACCEPTED, r.outcome());
        assertEquals(2, r.segments().size());
        assertEquals(Status.RECOVERED_EMPTY, r.segments().get(1).status());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void lenientOnlyEmptyRecords_recoveredEmpty(boolean durable) throws Exception {
        byte[] empty = RecordEncoder.encode(1, 0, TA, 0, List.of());
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(empty, empty));
        PartitionReport r = f.judge(durable);
        assertEquals(Status.RECOVERED_EMPTY, r.segments().get(0).status());
        assertEquals(2, r.segments().get(0).rebuild().emptyRecords());
    }

    @Test
    void missingDirectory_hasNoSegments() {
        Fixture dummy = null;
        PartitionReport r = new RecoveryEngine().judge(segtool.formats.naming.PartitionPath.of(
                root.resolve("streams/1/topics/1/partitions/9")), false);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        assertTrue(r.segments().isEmpty());
        assertEquals(null, dummy);
    }

    @Test
    void unreadableLog_isAnIoErrorNotDamage() throws Exception {
        Fixture f = new Fixture(root, 1).index(0, EA);
        Files.createDirectory(SegmentFiles.log(f.dir, 0));
        PartitionReport r = f.judge(false);
        assertEquals(Outcome.IO_ERROR, r.outcome());
        assertTrue(r.ioError().contains("00000000000000000000.log"), r.ioError());
    }

    @Test
    void sweep_namesFollowRustPathRules() throws Exception {
        // ".log" has no extension (a leading dot starts no extension); "..log" is a log with stem "."; "+7.log"
        // parses as 7 and is read at 00000000000000000007.log, which holds a healthy C-shaped segment
        Fixture f = new Fixture(root, 1).log(4, Vectors.c()).index(4, new IndexEntry(4, TC, 0))
                .file(".log", new byte[10]).file("..log", new byte[10]).file(".index", new byte[24]);
        PartitionReport r = f.judge(false);
        assertEquals(List.of(4L), r.segments().stream().map(s -> s.start()).toList());
        assertEquals(List.of(), r.swept().stream().map(d -> d.path().getFileName().toString()).toList());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("..log: log name is not a start offset")),
                r.warnings()::toString);
    }
}
