package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * Issue 10 item 4: checkpoint boots end to end (RECOVERY 9). For every section 9 shape, {@code repair
 * --wal-checkpoint} (the Repairer over an engine holding the checkpoint) leaves the files section 9 describes:
 * the checkpointed segment's log never truncated (also when it is longer than {@code Lc}), its index replaced by the
 * rebuilt one or truncated to 0 bytes when {@code Lc = 0}, never fenced; segments at or past {@code N} left out and
 * untouched; earlier segments repaired as sections 4-6 say. The result rescans clean with the same checkpoint, and a
 * crash at every step of the repair is recoverable as on the other repair paths.
 */
class CheckpointRepairTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    static final IndexEntry EC4 = new IndexEntry(4, Vectors.TC, 0);

    static RecoveryEngine engine(Checkpoint cp) {
        return new RecoveryEngine(RecoveryOptions.defaults().withThreads(1).withCheckpoint(cp));
    }

    static Repairer repairer(Checkpoint cp, StepHook hook) {
        return new Repairer(engine(cp), ServerGuard.Report::idle, new Applier(hook, "test"), p -> true);
    }

    /** A section 9 shape: how to build it, the checkpoint, and the files the repair must leave. */
    record Shape(String name, Shapes.Builder builder, Checkpoint cp, Map<String, Long> lengthsAfter,
                 List<String> untouched, Map<String, List<IndexEntry>> indexAfter) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Shape> shapes() {
        List<Shape> out = new ArrayList<>();
        out.add(new Shape("checkpointed log longer than Lc, segments past N", d -> {
            Shapes.log(d, 0, Shapes.concat(Vectors.abc(), new byte[500]));
            Shapes.index(d, 0, Shapes.EA, Shapes.EB, Shapes.EC);
            Shapes.raw(d, SegmentFiles.stem(9) + ".log", Shapes.filled(77, 0xAB));
            Shapes.raw(d, SegmentFiles.stem(9) + ".index", Shapes.filled(5, 0xCD));
        }, new Checkpoint(0, 782, 4), Map.of(log(0), 1645L, index(0), 24L),
                List.of(log(0), log(9), index(9)), Map.of(index(0), List.of(Shapes.EA))));
        out.add(new Shape("checkpointed log exactly Lc", d -> {
            Shapes.log(d, 0, Vectors.abc());
            Shapes.index(d, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        }, new Checkpoint(0, 1145, 5), Map.of(log(0), 1145L, index(0), 24L), List.of(log(0)),
                Map.of(index(0), List.of(Shapes.EA))));
        out.add(new Shape("Lc = 0: index truncated to 0 bytes, log kept, nothing fenced", d -> {
            Shapes.log(d, 0, Shapes.filled(300, 0xAB));
            Shapes.raw(d, SegmentFiles.stem(0) + ".index", Shapes.filled(10, 0xAB));
        }, new Checkpoint(0, 0, 0), Map.of(log(0), 300L, index(0), 0L), List.of(log(0)), Map.of()));
        out.add(new Shape("earlier segment repaired as 4-6, checkpoint tail kept, WAL segment past N", d -> {
            Shapes.log(d, 0, Shapes.concat(Vectors.a(), Vectors.b(), Shapes.filled(100, 0x5A)));
            Shapes.index(d, 0, Shapes.EA, Shapes.EB);
            Shapes.log(d, 4, Shapes.concat(Vectors.c(), new byte[300]));
            Shapes.index(d, 4, EC4, new IndexEntry(5, Vectors.TC + 1, 363));
            Shapes.raw(d, SegmentFiles.stem(5) + ".log", Shapes.filled(40, 0x11));
            Shapes.raw(d, "00000000000000000004.index.staging", Shapes.filled(3, 1));
        }, new Checkpoint(4, 363, 5), Map.of(log(0), 782L, log(4), 663L, index(4), 24L),
                List.of(log(4), log(5)), Map.of(index(4), List.of(EC4))));
        return out;
    }

    static String log(long s) {
        return SegmentFiles.stem(s) + ".log";
    }

    static String index(long s) {
        return SegmentFiles.stem(s) + ".index";
    }

    static List<Arguments> shapesAndModes() {
        List<Arguments> out = new ArrayList<>();
        for (Shape s : shapes()) {
            out.add(Arguments.of(s, false));
            out.add(Arguments.of(s, true));
        }
        return out;
    }

    static void assertCleanWith(Checkpoint cp, PartitionPath p, boolean durable, String context) {
        PartitionReport r = engine(cp).judge(p, durable);
        assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome(), () -> context + ": " + r.refusal() + r.ioError());
        assertEquals(ExitCode.CLEAN, ExitCode.of(r), () -> context + ": " + r.segments().stream()
                .map(s -> s.start() + ":" + s.status()).toList() + " " + r.operations());
        for (SegmentReport s : r.segments()) {
            assertEquals(Status.CLEAN, s.status(), context + ": segment " + s.start());
        }
    }

    @ParameterizedTest(name = "{0}, enforce_fsync={1}")
    @MethodSource("shapesAndModes")
    void repairWithCheckpoint_leavesTheFilesOfSection9_andRescansClean(Shape shape, boolean durable)
            throws Exception {
        PartitionPath p = Shapes.make(tmp, new Shapes.Shape(shape.name(), shape.builder()));
        Path dir = p.directory();
        Map<String, byte[]> original = Trees.partitionFiles(dir);

        PartitionReport before = engine(shape.cp()).judge(p, durable);
        assertEquals(PartitionReport.Outcome.ACCEPTED, before.outcome(), () -> before.refusal() + " " + before.ioError());
        for (SegmentReport s : before.segments()) {
            assertTrue(s.start() == shape.cp().startOffset() || Long.compareUnsigned(s.start(), shape.cp().nextOffset()) < 0,
                    "segment " + s.start() + " is at or past N and must be left out");
            if (s.start() == shape.cp().startOffset()) {
                assertFalse(s.recoveredEmpty(), "the checkpointed segment is never recovered empty");
                assertEquals(shape.cp().length(), s.size(), "its size is Lc");
            }
        }

        Repairer.Outcome o = repairer(shape.cp(), StepHook.NONE).repair(p, durable, true, false);
        assertEquals(0, o.exitCode(), () -> o.status() + " " + o.error() + " " + o.notes());

        Map<String, byte[]> after = Trees.partitionFiles(dir);
        for (Map.Entry<String, Long> e : shape.lengthsAfter().entrySet()) {
            assertEquals((long) e.getValue(), after.get(e.getKey()).length, e.getKey() + " length after repair");
        }
        for (String name : shape.untouched()) {
            assertArrayEquals(original.get(name), after.get(name), name + " must not be touched");
        }
        for (Map.Entry<String, List<IndexEntry>> e : shape.indexAfter().entrySet()) {
            assertArrayEquals(segtool.formats.index.IndexFile.encode(e.getValue()), after.get(e.getKey()),
                    e.getKey() + " is the rebuilt index");
        }
        try (var s = Files.list(dir.getParent())) {
            assertTrue(s.noneMatch(x -> x.getFileName().toString().contains(".fenced.")), "nothing fenced");
        }
        assertFalse(after.keySet().stream().anyMatch(n -> n.endsWith(".staging")), "no scratch file left");
        assertCleanWith(shape.cp(), p, durable, shape.name() + " after repair");
        Trees.assertAllBytesHeld(original, dir, shape.name());
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void checkpointRefusals_repairChangesNothing(boolean durable) throws Exception {
        PartitionPath p = Shapes.make(tmp, new Shapes.Shape("refusals", d -> {
            Shapes.log(d, 0, Vectors.abc());
            Shapes.index(d, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        }));
        Map<String, byte[]> tree = Trees.snapshot(tmp, true);
        for (Checkpoint cp : List.of(new Checkpoint(0, 2000, 5), new Checkpoint(0, 900, 5))) {
            Repairer.Outcome o = repairer(cp, StepHook.NONE).repair(p, durable, true, false);
            assertEquals(Repairer.Status.REFUSED, o.status(), cp + ": " + o.notes());
            assertEquals(2, o.exitCode());
            Trees.assertSame(tree, Trees.snapshot(tmp, true), cp + ": a refused repair changes nothing");
        }
        assertEquals("StorageSizeMismatch", engine(new Checkpoint(0, 2000, 5)).judge(p, durable).refusal()
                .variant().name());
        assertEquals("CheckpointSizeMismatch", engine(new Checkpoint(0, 900, 5)).judge(p, durable).refusal()
                .variant().name());
    }

    /** The richest shape: a sweep deletion, a truncation, index installs, and files the repair must not touch. */
    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void crashAtEveryStep_filesPlusQuarantineHoldEverything_andReRunConverges(boolean durable) throws Exception {
        Shape shape = shapes().get(3);
        Path template = tmp.resolve("template");
        PartitionPath tp = Shapes.make(template, new Shapes.Shape(shape.name(), shape.builder()));
        Map<String, byte[]> original = Trees.partitionFiles(tp.directory());
        Map<String, byte[]> originalTree = Trees.snapshot(template, false);
        Path ref = tmp.resolve("uninterrupted");
        Trees.copy(template, ref);
        Applier counting = new Applier(StepHook.NONE, "test");
        Repairer.Outcome full = new Repairer(engine(shape.cp()), ServerGuard.Report::idle, counting, x -> true)
                .repair(PartitionPath.of(Shapes.partitionDir(ref)), durable, true, false);
        assertEquals(0, full.exitCode(), () -> full.error() + " " + full.notes());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        int steps = counting.steps();
        assertTrue(steps >= 5, "steps: " + steps);
        for (int k = 0; k < steps; k++) {
            String at = "crash before step " + k + " of " + steps;
            Path run = tmp.resolve("run");
            Trees.copy(template, run);
            PartitionPath p = PartitionPath.of(Shapes.partitionDir(run));
            Repairer.Outcome crashed = repairer(shape.cp(), CrashInjectionTest.crashAt(k)).repair(p, durable, true,
                    false);
            assertEquals(Repairer.Status.IO_ERROR, crashed.status(), at);
            Trees.assertAllBytesHeld(original, p.directory(), at);
            assertArrayEquals(original.get(log(5)), Files.readAllBytes(p.directory().resolve(log(5))),
                    at + ": the segment past N is never touched");

            Path undo = tmp.resolve("undo");
            Trees.copy(run, undo);
            for (Path q : Quarantine.of(Shapes.partitionDir(undo))) {
                if (Quarantine.hasManifest(q)) {
                    Repairer.RestoreOutcome r = repairer(shape.cp(), StepHook.NONE).restore(q, true, false);
                    assertEquals(0, r.exitCode(), () -> at + ": restore " + r.error() + " " + r.result());
                }
            }
            Trees.assertSame(originalTree, Trees.snapshot(undo, false), at + ", then restore");
            Trees.delete(undo);

            Repairer.Outcome rerun = repairer(shape.cp(), StepHook.NONE).repair(p, durable, true, false);
            assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error()
                    + " " + rerun.notes());
            Trees.assertSame(expected, Trees.snapshot(run, false), at + ", then a re-run");
            assertCleanWith(shape.cp(), p, durable, at + ", then a re-run");
            Trees.delete(run);
        }
        assertTrue(Arrays.equals(original.get(log(4)), expected.get("streams/1/topics/1/partitions/1/" + log(4))),
                "the checkpointed log is never truncated");
    }

}
