package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.naming.PartitionPath;

/**
 * A crash at every mutation of {@code repair --apply} (an exception thrown by the applier's step hook before the
 * k-th write, force, truncate, rename, delete or mkdir), on a partition damaged in every repairable way. After each
 * crash: the files plus the quarantine still hold every original byte; {@code restore} brings the original back;
 * and re-running {@code repair --apply} ends with exactly the files an uninterrupted run leaves.
 */
class CrashInjectionTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    static final class Crash extends RuntimeException {
        Crash(int step, String action) {
            super("injected crash before step " + step + ": " + action, null, false, false);
        }
    }

    static StepHook crashAt(int k) {
        return (step, action) -> {
            if (step == k) {
                throw new Crash(step, action);
            }
        };
    }

    private record Template(Path root, Map<String, byte[]> original, Map<String, byte[]> originalTree,
                            Map<String, byte[]> expected, int steps) {
    }

    /** The damaged partition, its files, and the tree an uninterrupted repair leaves. */
    private Template template(boolean durable) throws IOException {
        Path root = tmp.resolve("template");
        PartitionPath p = Shapes.make(root, new Shapes.Shape("composite", Shapes::composite));
        Map<String, byte[]> original = Trees.partitionFiles(p.directory());
        Map<String, byte[]> originalTree = Trees.snapshot(root, false);
        Path ref = tmp.resolve("reference");
        Trees.copy(root, ref);
        Applier counting = new Applier(StepHook.NONE, "test");
        Repairer.Outcome o = new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle,
                counting, plan -> true).repair(partition(ref), durable, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        Trees.delete(ref);
        return new Template(root, original, originalTree, expected, counting.steps());
    }

    private static PartitionPath partition(Path root) {
        return PartitionPath.of(Shapes.partitionDir(root));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void crashAtEveryStep_filesPlusQuarantineHoldEverything_andReRunConverges(boolean durable) throws Exception {
        Template t = template(durable);
        assertTrue(t.steps() > 40, "the composite plan should take many steps, took " + t.steps());
        for (int k = 0; k < t.steps(); k++) {
            String at = "crash before step " + k + " of " + t.steps();
            Path run = tmp.resolve("run");
            Trees.copy(t.root(), run);
            PartitionPath p = partition(run);
            Repairer.Outcome crashed = FixpointTest.repairer(crashAt(k)).repair(p, durable, true, false);
            assertEquals(Repairer.Status.IO_ERROR, crashed.status(), at);
            assertTrue(crashed.error().contains("injected crash"), at + ": " + crashed.error());
            Trees.assertAllBytesHeld(t.original(), p.directory(), at);

            if (!durable) {
                // restore does not depend on the mode; once is enough
                Trees.assertRestoresOriginal(run, tmp.resolve("undo"), t.originalTree(), at);
            }

            Repairer.Outcome rerun = FixpointTest.repairer().repair(p, durable, true, false);
            assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error()
                    + " " + rerun.notes());
            Trees.assertSame(t.expected(), Trees.snapshot(run, false), at + ", then a re-run");
            Trees.delete(run);
        }
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void crashDuringTheResume_stillConverges(boolean durable) throws Exception {
        Template t = template(durable);
        Random random = new Random(20261129L + (durable ? 1 : 0));
        for (int i = 0; i < 12; i++) {
            int first = random.nextInt(t.steps());
            int second = random.nextInt(Math.max(1, t.steps() - first));
            String at = "crash at step " + first + ", then at step " + second + " of the re-run";
            Path run = tmp.resolve("run");
            Trees.copy(t.root(), run);
            PartitionPath p = partition(run);
            FixpointTest.repairer(crashAt(first)).repair(p, durable, true, false);
            FixpointTest.repairer(crashAt(second)).repair(p, durable, true, false);
            Trees.assertAllBytesHeld(t.original(), p.directory(), at);
            Repairer.Outcome last = FixpointTest.repairer().repair(p, durable, true, false);
            assertEquals(0, last.exitCode(), () -> at + ": " + last.error());
            Trees.assertSame(t.expected(), Trees.snapshot(run, false), at);
            Trees.delete(run);
        }
    }

    /** Restore does not depend on the mode; the lenient repair of the composite touches every kind of file. */
    @Test
    void crashAtEveryStepOfRestore_reRunRestores() throws Exception {
        boolean durable = false;
        Template t = template(durable);
        Path done = tmp.resolve("repaired");
        Trees.copy(t.root(), done);
        Repairer.Outcome o = FixpointTest.repairer().repair(partition(done), durable, true, false);
        Path quarantineName = o.quarantine().getFileName();
        Applier counting = new Applier(StepHook.NONE, "test");
        new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, counting, x -> true)
                .restore(o.quarantine(), true, false);
        int steps = counting.steps();
        assertTrue(steps > 10, "restore steps: " + steps);
        Trees.delete(done);
        for (int k = 0; k < steps; k++) {
            String at = "restore crash before step " + k + " of " + steps;
            Path run = tmp.resolve("run");
            Trees.copy(t.root(), run);
            Repairer.Outcome r = FixpointTest.repairer().repair(partition(run), durable, true, false);
            assertEquals(0, r.exitCode());
            Path q = r.quarantine();
            Repairer.RestoreOutcome crashed = FixpointTest.repairer(crashAt(k)).restore(q, true, false);
            assertEquals(3, crashed.exitCode(), at);
            Trees.assertAllBytesHeld(t.original(), Shapes.partitionDir(run), at);
            Repairer.RestoreOutcome again = FixpointTest.repairer().restore(q, true, false);
            assertEquals(0, again.exitCode(), () -> at + ": " + again.error() + " " + again.result());
            Trees.assertSame(t.originalTree(), Trees.snapshot(run, false), at + ", then restore again");
            Trees.delete(run);
        }
        assertTrue(quarantineName.toString().contains(Quarantine.MARKER));
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void theHookSeesEveryMutation(boolean durable) throws Exception {
        Template t = template(durable);
        Path run = tmp.resolve("run");
        Trees.copy(t.root(), run);
        List<String> actions = new java.util.ArrayList<>();
        FixpointTest.repairer((step, action) -> actions.add(action)).repair(partition(run), durable, true, false);
        assertEquals(t.steps(), actions.size());
        assertTrue(actions.stream().anyMatch(a -> a.startsWith("truncate ")), String.valueOf(actions));
        assertTrue(actions.stream().anyMatch(a -> a.startsWith("rename ") && a.contains(".index.staging")));
        assertTrue(actions.stream().anyMatch(a -> a.startsWith("mkdir ") && a.contains(".fenced.0")));
        assertThrows(Crash.class, () -> crashAt(0).before(0, "x"));
    }
}
