package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.DecisionStep;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.log.Message;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 10 items 1 and 2: status is by content (RECOVERY 7.2). A rebuild that produces exactly the index already on
 * disk is {@code clean}, exit 0, on the checkpoint path (RECOVERY 9) and for a log that starts with an empty batch
 * (RECOVERY 4.1, 11.2), although the plan still lists the server's re-install; and after {@code repair --apply} such
 * partitions, like every repaired one, rescan clean.
 */
class StatusByContentTest {
    @TempDir
    Path root;

    private static RecoveryEngine engine(Checkpoint cp) {
        RecoveryOptions o = RecoveryOptions.defaults().withThreads(1);
        return new RecoveryEngine(cp == null ? o : o.withCheckpoint(cp));
    }

    private static Repairer repairer(Checkpoint cp) {
        return new Repairer(engine(cp), ServerGuard.Report::idle, new Applier(StepHook.NONE, "test"), p -> true);
    }

    /** A log that begins with an empty batch, as the writer lays it out: its only index entry is at 256. */
    private PartitionPath emptyBatchFirst() throws Exception {
        Path dir = Shapes.partitionDir(root);
        PartitionWriter.Config config = PartitionWriter.Config.of(1).writeEmptyBatches(true)
                .messagesRequiredToSave(1_000);
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            w.append(List.of());
            w.append(List.of(Message.of(1, "first".getBytes()), Message.of(2, "second".getBytes())));
            w.append(List.of(Message.of(3, "third".getBytes())));
        }
        assertEquals(24, Files.size(SegmentFiles.index(dir, 0)), "one chunk, one entry");
        assertEquals(256, readEntry(SegmentFiles.index(dir, 0)).position(),
                "the writer indexes the chunk's first non-empty batch");
        return PartitionPath.of(dir);
    }

    private static IndexEntry readEntry(Path index) throws Exception {
        try (IndexFile f = IndexFile.open(index)) {
            return f.entry(0);
        }
    }

    private static void assertCleanWithReinstall(PartitionReport r, String context) {
        assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome(), context);
        assertEquals(Status.CLEAN, r.segments().get(0).status(), context);
        assertEquals(0, r.severity(), context);
        assertEquals(ExitCode.CLEAN, ExitCode.of(r), context);
        assertTrue(r.operations().stream().anyMatch(op -> op instanceof PlannedOp.InstallIndex),
                () -> context + ": the plan still lists the server's re-install: " + r.operations());
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void logStartingWithAnEmptyBatch_rebuildsToTheSameBytes_clean(boolean durable) throws Exception {
        PartitionPath p = emptyBatchFirst();
        byte[] index = Files.readAllBytes(SegmentFiles.index(p.directory(), 0));
        PartitionReport r = engine(null).judge(p, durable);
        assertEquals(DecisionStep.A2, r.segments().get(0).step(), "entry 0 is not at position 0: structurally inconsistent");
        assertCleanWithReinstall(r, "empty batch first");

        Repairer.Outcome o = repairer(null).repair(p, durable, true, false);
        assertEquals(Repairer.Status.CLEAN, o.status(), "nothing to repair: no byte would change");
        assertEquals(0, o.exitCode());
        assertArrayEquals(index, Files.readAllBytes(SegmentFiles.index(p.directory(), 0)));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void emptyBatchFirstWithATornEntry_isTruncated_thenRescansClean(boolean durable) throws Exception {
        PartitionPath p = emptyBatchFirst();
        Files.write(SegmentFiles.index(p.directory(), 0), new byte[7], StandardOpenOption.APPEND);
        PartitionReport r = engine(null).judge(p, durable);
        assertEquals(Status.TRUNCATED, r.segments().get(0).status(), "an index shortened only by a partial entry");
        assertEquals(1, r.severity());

        Repairer.Outcome o = repairer(null).repair(p, durable, true, false);
        assertEquals(Repairer.Status.APPLIED, o.status(), () -> o.error() + " " + o.notes());
        assertEquals(0, o.exitCode(), () -> String.valueOf(o.notes()));
        Trees.assertClean(p, durable, "after repair");
        assertEquals(24, Files.size(SegmentFiles.index(p.directory(), 0)));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void checkpointPath_rebuiltIndexEqualsTheOneOnDisk_clean(boolean durable) throws Exception {
        Path dir = Shapes.partitionDir(root);
        Files.createDirectories(dir);
        Shapes.log(dir, 0, Vectors.abc());
        Shapes.index(dir, 0, Shapes.EA);
        Checkpoint cp = new Checkpoint(0, 1145, 5);
        PartitionReport r = engine(cp).judge(PartitionPath.of(dir), durable);
        assertEquals(DecisionStep.CHECKPOINT, r.segments().get(0).step());
        assertCleanWithReinstall(r, "checkpoint, index already [(0, tA, 0)]");
        assertInstanceOf(PlannedOp.StageIndex.class, r.operations().get(0));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void checkpointPath_writerIndex_isRebuilt_thenRescansClean(boolean durable) throws Exception {
        Path dir = Shapes.partitionDir(root);
        Files.createDirectories(dir);
        Shapes.log(dir, 0, Vectors.abc());
        Shapes.index(dir, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        Checkpoint cp = new Checkpoint(0, 1145, 5);
        PartitionPath p = PartitionPath.of(dir);
        PartitionReport r = engine(cp).judge(p, durable);
        assertEquals(Status.INDEX_REBUILT, r.segments().get(0).status());
        assertEquals(1, r.severity());

        Repairer.Outcome o = repairer(cp).repair(p, durable, true, false);
        assertEquals(Repairer.Status.APPLIED, o.status(), () -> o.error() + " " + o.notes());
        assertEquals(0, o.exitCode(), () -> String.valueOf(o.notes()));
        PartitionReport after = engine(cp).judge(p, durable);
        assertEquals(Status.CLEAN, after.segments().get(0).status());
        assertEquals(ExitCode.CLEAN, ExitCode.of(after), "repair --apply && scan: exit 0");
        assertEquals(24, Files.size(SegmentFiles.index(dir, 0)));
    }
}
