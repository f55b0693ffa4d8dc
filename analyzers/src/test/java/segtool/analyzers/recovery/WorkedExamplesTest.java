package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static segtool.formats.Vectors.TA;
import static segtool.formats.Vectors.TB;
import static segtool.formats.Vectors.TC;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.log.Defect;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;

/** RECOVERY.md section 10: every worked example, both modes, with the exact numbers the spec states. */
class WorkedExamplesTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, TA, 0);
    private static final IndexEntry EB = new IndexEntry(1, TB, 315);
    private static final IndexEntry EC = new IndexEntry(4, TC, 782);

    private Fixture v1(long partitionId) throws Exception {
        return new Fixture(root, partitionId).log(0, Vectors.abc()).index(0, EA, EB, EC);
    }

    private static SegmentReport only(PartitionReport r) {
        assertEquals(1, r.segments().size());
        return r.segments().get(0);
    }

    private static void assertRefusal(PartitionReport r, Refusal.Variant variant, Map<String, Long> fields) {
        assertEquals(Outcome.REFUSED, r.outcome(), () -> "expected a refusal, got " + r.outcome());
        assertEquals(variant, r.refusal().variant());
        assertEquals(fields, r.refusal().fields());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v1_asWritten_clean(boolean durable) throws Exception {
        PartitionReport r = v1(1).judge(durable);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = only(r);
        assertEquals(Status.CLEAN, s.status());
        assertEquals(4, s.endOffset());
        assertEquals(1145, s.size());
        assertEquals(72, s.indexSize());
        assertEquals(TA, s.startTimestamp());
        assertEquals(TC, s.endTimestamp());
        assertTrue(s.operations().isEmpty());
        assertEquals(0, r.severity());
    }

    @Test
    void v2_zeroTail_lenientTruncatesAndRebuilds() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.abc(), new byte[100])).index(0, EA, EB, EC);
        PartitionReport r = f.judge(false);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = only(r);
        assertEquals(Status.TRUNCATED, s.status());
        assertEquals(1145, s.size());
        assertEquals(4, s.endOffset());
        assertEquals(List.of(EA), s.rebuiltEntries());
        assertEquals(24, s.indexSize());
        ProbeResult probe = s.probes().get(0);
        assertEquals(1145, probe.damagePosition());
        assertEquals(100, probe.residue());
        assertEquals(0, probe.candidates());
        // "A probe over a residue of 100 bytes grows the limits by 200 units and 400 verify bytes"
        assertEquals(200, r.budget().limitUnits());
        assertEquals(400, r.budget().limitVerify());
        assertEquals(0, r.budget().spentUnits());
        List<PlannedOp> ops = r.operations();
        assertInstanceOf(PlannedOp.StageIndex.class, ops.get(0));
        PlannedOp.TruncateLog cut = assertInstanceOf(PlannedOp.TruncateLog.class, ops.get(1));
        assertEquals(1245, cut.from());
        assertEquals(1145, cut.to());
        assertInstanceOf(PlannedOp.InstallIndex.class, ops.get(2));
        assertEquals(3, ops.size());
    }

    @Test
    void v2_zeroTail_durableTruncatesAndKeepsIndex() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.abc(), new byte[100])).index(0, EA, EB, EC);
        PartitionReport r = f.judge(true);
        SegmentReport s = only(r);
        assertEquals(Status.TRUNCATED, s.status());
        assertEquals(SegmentReport.Result.KEEP, s.result());
        assertEquals(1145, s.size());
        assertEquals(72, s.indexSize());
        assertEquals(List.of(new PlannedOp.TruncateLog(s.log(), 0, 1245, 1145)), r.operations());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v3_entryAtLogEnd_rebuildsToOneEntry(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC, new IndexEntry(5, TC + 1, 1145));
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = only(r);
        assertEquals(Status.INDEX_REBUILT, s.status());
        assertEquals(List.of(EA), s.rebuiltEntries());
        assertEquals(1145, s.size());
        assertEquals(4, s.endOffset());
        assertEquals(3, s.anchorSearch().provableEntries());
        assertEquals(782, s.anchorSearch().provablePosition());
        assertEquals(1, s.stepBack());
        assertEquals(durable, s.anchorSearch().charged());
        assertTrue(r.operations().stream().noneMatch(op -> op instanceof PlannedOp.TruncateLog));
    }

    @Test
    void v4_twoEntriesPastEnd_lenientRebuilds_durableRefuses() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc())
                .index(0, EA, EB, EC, new IndexEntry(5, TC + 1, 1145), new IndexEntry(6, TC + 2, 1200));
        PartitionReport lenient = f.judge(false);
        assertEquals(Outcome.ACCEPTED, lenient.outcome());
        assertEquals(List.of(EA), only(lenient).rebuiltEntries());
        assertEquals(2, only(lenient).stepBack());
        assertRefusal(f.judge(true), Refusal.Variant.FsyncedLogLoss, Map.of("start_offset", 0L, "entry_count", 5L,
                "provable_entries", 3L, "provable_position", 782L, "searched_entries", 2L));
    }

    @Test
    void v5_tornLastBatch_lenientRebuilds_durableKeeps() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.prefix(Vectors.abc(), 900)).index(0, EA);
        SegmentReport l = only(f.judge(false));
        assertEquals(SegmentReport.Result.REBUILT, l.result());
        assertEquals(Status.TRUNCATED, l.status());
        assertEquals(3, l.endOffset());
        assertEquals(782, l.size());
        assertEquals(List.of(EA), l.rebuiltEntries());
        assertEquals(Stop.Kind.HEADER_TRUNCATED, l.rebuild().stop().kind());

        SegmentReport d = only(f.judge(true));
        assertEquals(SegmentReport.Result.KEEP, d.result());
        assertEquals(Status.TRUNCATED, d.status());
        assertEquals(3, d.endOffset());
        assertEquals(782, d.size());
        assertEquals(24, d.indexSize());
    }

    @Test
    void v6_flipInB_lenientInteriorDamage_durableClean() throws Exception {
        byte[] log = Vectors.abc();
        log[620] ^= 0x01;
        Fixture f = new Fixture(root, 1).log(0, log).index(0, EA, EB, EC);
        assertRefusal(f.judge(false), Refusal.Variant.InteriorDamage,
                Map.of("start_offset", 0L, "damage_position", 315L, "survivor_position", 782L));
        PartitionReport d = f.judge(true);
        assertEquals(Outcome.ACCEPTED, d.outcome());
        assertEquals(Status.CLEAN, only(d).status());
        assertEquals(4, only(d).endOffset());
        assertEquals(List.of(Region.unread(0, 782, only(d).unread().get(0).note())), only(d).unread());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v7_flipInB_singleEntry_interiorDamageBothModes(boolean durable) throws Exception {
        byte[] log = Vectors.abc();
        log[620] ^= 0x01;
        Fixture f = new Fixture(root, 1).log(0, log).index(0, EA);
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.InteriorDamage,
                Map.of("start_offset", 0L, "damage_position", 315L, "survivor_position", 782L));
        assertEquals(Status.REFUSED, only(r).status());
        assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, stopOf(only(r)).defect().code());
    }

    private static Stop stopOf(SegmentReport s) {
        return s.rebuild() != null ? s.rebuild().stop() : s.fromLast().stop();
    }

    private Fixture v8() throws Exception {
        byte[] abc = Vectors.abc();
        return new Fixture(root, 1).log(0, Fixture.prefix(abc, 782)).index(0, EA)
                .log(4, Vectors.c()).index(4, new IndexEntry(4, TC, 0));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v8_twoSegments_accepted(boolean durable) throws Exception {
        PartitionReport r = v8().judge(durable);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        assertEquals(2, r.segments().size());
        assertEquals(3, r.segments().get(0).endOffset());
        assertEquals(4, r.segments().get(1).start());
        assertEquals(4, r.segments().get(1).endOffset());
        assertEquals(Status.CLEAN, r.segments().get(0).status());
        assertEquals(Status.CLEAN, r.segments().get(1).status());
        assertEquals(782 + 363, r.recoverableBytes());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v9_tornFirstSegment_hole(boolean durable) throws Exception {
        Fixture f = v8().log(0, Fixture.prefix(Vectors.abc(), 415));
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.Hole, Map.of("previous_start", 0L, "previous_end", 0L, "next_start", 4L,
                "recoverable_bytes", 678L));
        SegmentReport s0 = r.segments().get(0);
        assertEquals(315, s0.size());
        assertEquals(0, s0.endOffset());
        assertEquals(durable ? SegmentReport.Result.KEEP : SegmentReport.Result.REBUILT, s0.result());
        // pass A staged the rebuilt index in lenient mode; no .log or .index byte changes
        List<PlannedOp> ops = r.operations();
        assertEquals(durable ? 0 : 1, ops.size());
        if (!durable) {
            assertInstanceOf(PlannedOp.StageIndex.class, ops.get(0));
        }
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v10_wrongPartition_foreignBatchFromLastEntry(boolean durable) throws Exception {
        assertRefusal(v1(2).judge(durable), Refusal.Variant.ForeignBatch,
                Map.of("start_offset", 0L, "batch_partition_id", 1L, "position", 782L));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void v11_garbage_recoveredEmptyAndFenced(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.filled(300, 0xAB)).rawIndex(0, Fixture.filled(10, 0xAB));
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = only(r);
        assertEquals(Status.RECOVERED_EMPTY, s.status());
        assertEquals(0, s.endOffset());
        assertEquals(0, s.size());
        PlannedOp.Fence fence = assertInstanceOf(PlannedOp.Fence.class, r.operations().get(0));
        assertEquals(f.dir.resolveSibling("1.fenced.0"), fence.fenceDirectory());
        assertEquals(300, fence.logBytes());
        assertEquals(10, fence.indexBytes());
        assertEquals(1, r.operations().size());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void budgetExample_overlappingHeaders_unverifiedResidue(boolean durable) throws Exception {
        byte[] valid = RecordEncoder.encode(1, 0, TA, TA, List.of(Message.of(1, new byte[24]),
                Message.of(2, new byte[24])));
        assertEquals(400, valid.length);
        byte[] residue = new byte[64 * 256];
        for (int k = 0; k < 64; k++) {
            segtool.formats.io.LittleEndian.putU64(residue, k * 256 + 8, 100);
            segtool.formats.io.LittleEndian.putU64(residue, k * 256 + 32, 8192);
            segtool.formats.io.LittleEndian.putU32(residue, k * 256 + 48, k + 1);
        }
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(valid, residue));
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.UnverifiedResidue, Map.of("start_offset", 0L, "damage_position", 400L,
                "residue_bytes", 16384L, "candidates_examined", 2304L, "budget_units", 32768L,
                "verified_bytes", 73728L, "verify_budget_bytes", 65536L));
        assertNull(only(r).rebuiltEntries() == null ? null : null);
    }
}
