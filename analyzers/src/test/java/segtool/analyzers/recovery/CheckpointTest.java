package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static segtool.formats.Vectors.TA;
import static segtool.formats.Vectors.TB;
import static segtool.formats.Vectors.TC;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;

/** RECOVERY.md section 9: the WAL-checkpoint variant. */
class CheckpointTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, TA, 0);
    private static final IndexEntry EB = new IndexEntry(1, TB, 315);
    private static final IndexEntry EC = new IndexEntry(4, TC, 782);

    private PartitionReport judge(Fixture f, boolean durable, Checkpoint cp) {
        return new RecoveryEngine(RecoveryOptions.defaults().withCheckpoint(cp)).judge(f.partition, durable);
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void checkpointedSegment_indexReplacedLogNeverTruncated(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.abc(), new byte[500])).index(0, EA, EB, EC)
                .log(9, Vectors.c());
        PartitionReport r = judge(f, durable, new Checkpoint(0, 782, 4));
        assertEquals(Outcome.ACCEPTED, r.outcome());
        assertEquals(1, r.segments().size(), "segments at or past N other than C are left out");
        SegmentReport s = r.segments().get(0);
        assertEquals(Status.INDEX_REBUILT, s.status());
        assertEquals(782, s.size());
        assertEquals(3, s.endOffset());
        List<PlannedOp> ops = r.operations();
        assertEquals(2, ops.size());
        assertInstanceOf(PlannedOp.StageIndex.class, ops.get(0));
        assertInstanceOf(PlannedOp.InstallIndex.class, ops.get(1));
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void logShorterThanCheckpoint_storageSizeMismatch(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA);
        PartitionReport r = judge(f, durable, new Checkpoint(0, 2000, 5));
        assertEquals(Refusal.Variant.StorageSizeMismatch, r.refusal().variant());
        assertEquals(Map.of("start_offset", 0L, "on_disk_bytes", 1145L, "expected_bytes", 2000L), r.refusal().fields());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void checkpointInsideARecord_checkpointSizeMismatch(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA);
        PartitionReport r = judge(f, durable, new Checkpoint(0, 900, 5));
        assertEquals(Refusal.Variant.CheckpointSizeMismatch, r.refusal().variant());
        assertEquals(Map.of("start_offset", 0L, "validated_bytes", 782L, "expected_bytes", 900L), r.refusal().fields());
    }

    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void zeroLengthCheckpoint_indexTruncatedNeverFenced(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB);
        PartitionReport r = judge(f, durable, new Checkpoint(0, 0, 0));
        assertEquals(Outcome.ACCEPTED, r.outcome());
        SegmentReport s = r.segments().get(0);
        assertEquals(false, s.recoveredEmpty());
        assertEquals(List.of(new PlannedOp.TruncateIndex(s.index(), 0, 48, 0)), r.operations());
    }
}
