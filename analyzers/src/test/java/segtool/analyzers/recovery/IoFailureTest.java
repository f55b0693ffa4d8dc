package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.analyzers.report.ScanJson;
import segtool.formats.Vectors;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.naming.SegmentFiles;

/**
 * Issue 10 item 3: an I/O failure is typed and belongs to a segment (RECOVERY 7.3). The partition's outcome is
 * io_error, the segment whose file could not be read has status io_error (not not_examined), segments judged before
 * it keep their status, and the report names the path, the operation and the OS reason. The unreadable file here is
 * a symbolic link to itself: every stat through it fails with ELOOP, for root too.
 */
class IoFailureTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, Vectors.TA, 0);
    private static final IndexEntry EC4 = new IndexEntry(4, Vectors.TC, 0);

    /** Segment 0 = A ‖ B (offsets 0-3), segment 4 = C: a healthy two-segment chain. */
    private Fixture twoSegments() throws Exception {
        return new Fixture(root, 1).log(0, Fixture.concat(Vectors.a(), Vectors.b())).index(0, EA)
                .log(4, Vectors.c()).index(4, EC4);
    }

    private static void loop(Path p) throws Exception {
        Files.deleteIfExists(p);
        Files.createSymbolicLink(p, p.getFileName());
    }

    private static void assertFailure(PartitionReport r, Path path, String operation, String kind) {
        assertEquals(Outcome.IO_ERROR, r.outcome(), () -> String.valueOf(r.refusal()));
        IoFailure f = r.ioFailure();
        assertEquals(path, f.path());
        assertEquals(operation, f.operation());
        assertEquals(kind, f.kind());
        // ELOOP: the JDK's text for it begins with the C library's strerror
        assertTrue(f.reason().startsWith("Too many levels of symbolic links"), f.reason());
        assertEquals(path + ": " + kind + " (" + operation + "): " + f.reason(), r.ioError());
        JsonNode json = ScanJson.partition(r);
        assertEquals("io_error", json.get("outcome").asText());
        assertEquals(path.toString(), json.get("io_failure").get("path").asText());
        assertEquals(operation, json.get("io_failure").get("operation").asText());
        assertEquals(f.reason(), json.get("io_failure").get("reason").asText());
    }

    private static List<Status> statuses(PartitionReport r) {
        return r.segments().stream().map(s -> s.status()).toList();
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void logIsASymlinkLoop_thatSegmentIsIoError(boolean durable) throws Exception {
        Fixture f = twoSegments();
        Path log = SegmentFiles.log(f.dir, 4);
        loop(log);
        PartitionReport r = f.judge(durable);
        assertFailure(r, log, IoFailure.STAT, "cannot read file metadata");
        assertEquals(List.of(Status.CLEAN, Status.IO_ERROR), statuses(r));
        JsonNode seg = ScanJson.partition(r).get("segments").get(1);
        assertEquals("io_error", seg.get("status").asText());
        assertTrue(seg.get("after").isNull(), "an unread segment has no bounds");
        assertEquals(3, r.severity());
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void indexIsASymlinkLoop_laterSegmentsNotExamined(boolean durable) throws Exception {
        Fixture f = twoSegments();
        Path index = SegmentFiles.index(f.dir, 0);
        loop(index);
        PartitionReport r = f.judge(durable);
        assertFailure(r, index, IoFailure.STAT, "cannot read file metadata");
        assertEquals(List.of(Status.IO_ERROR, Status.NOT_EXAMINED), statuses(r));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void anchorIsASymlinkLoop_theLaterSegmentOfThePairIsIoError(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.a(), Vectors.b())).index(0, EA)
                .log(10, Vectors.c()).index(10, new IndexEntry(10, Vectors.TC, 0));
        // the record C carries base_offset 4: segment 10 refuses before the anchor matters unless it starts at 4,
        // so plant the gap between 4 and a segment at 10 holding no bytes
        Files.write(SegmentFiles.log(f.dir, 10), new byte[0]);
        Files.write(SegmentFiles.index(f.dir, 10), new byte[0]);
        Path anchor = SegmentFiles.anchor(f.dir, 10);
        Files.write(anchor, new AnchorRecord(10, 0, 3).encode());
        assertEquals(Outcome.ACCEPTED, f.judge(durable).outcome(), "the anchor admits the gap");
        loop(anchor);
        PartitionReport r = f.judge(durable);
        assertFailure(r, anchor, IoFailure.READ, "cannot read file");
        assertEquals(List.of(Status.CLEAN, Status.IO_ERROR), statuses(r));
    }

    /**
     * RECOVERY 9.2: the checkpointed segment's index is ignored by pass A, so an unreadable one neither pre-empts the
     * section 9 refusals nor fails a boot whose pass C renames the rebuilt index over it; only the truncation that
     * Lc = 0 asks for stats it, and fails (found by the differential test's long mode, seed 20269268).
     */
    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void checkpointedSegmentsIndexIsASymlinkLoop_onlyPassCsTruncationFails(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc());
        Path index = SegmentFiles.index(f.dir, 0);
        loop(index);
        RecoveryOptions o = RecoveryOptions.defaults().withThreads(1);

        PartitionReport shortLog = new RecoveryEngine(o.withCheckpoint(new Checkpoint(0, 2000, 5))).judge(f.partition,
                durable);
        assertEquals(Outcome.REFUSED, shortLog.outcome(), () -> String.valueOf(shortLog.ioError()));
        assertEquals(Refusal.Variant.StorageSizeMismatch, shortLog.refusal().variant());

        PartitionReport midRecord = new RecoveryEngine(o.withCheckpoint(new Checkpoint(0, 900, 5)))
                .judge(f.partition, durable);
        assertEquals(Refusal.Variant.CheckpointSizeMismatch, midRecord.refusal().variant());

        PartitionReport renamed = new RecoveryEngine(o.withCheckpoint(new Checkpoint(0, 1145, 5)))
                .judge(f.partition, durable);
        assertEquals(Outcome.ACCEPTED, renamed.outcome(), () -> String.valueOf(renamed.ioError()));
        assertEquals(List.of(Status.INDEX_REBUILT), statuses(renamed));
        assertTrue(renamed.operations().stream().anyMatch(op -> op instanceof PlannedOp.InstallIndex));

        PartitionReport truncated = new RecoveryEngine(o.withCheckpoint(new Checkpoint(0, 0, 0)))
                .judge(f.partition, durable);
        assertFailure(truncated, index, IoFailure.STAT, "cannot read file metadata");
        assertEquals(List.of(Status.IO_ERROR), statuses(truncated));
    }
}
