package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * After {@code repair --apply} the partition is what the next boot accepts without changing anything, in the mode
 * it was repaired in; the quarantine holds every removed byte; {@code restore} brings back the original files.
 */
class FixpointTest {
    @TempDir
    Path root;

    static List<Arguments> shapes() {
        List<Arguments> out = new ArrayList<>();
        for (Shapes.Shape s : Shapes.repairable()) {
            out.add(Arguments.of(s, false));
            out.add(Arguments.of(s, true));
        }
        return out;
    }

    /** One verifying thread: test partitions are small, and a pool per judgement costs more than it saves. */
    static final RecoveryEngine ENGINE = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));

    static Repairer repairer() {
        return repairer(StepHook.NONE);
    }

    static Repairer repairer(StepHook hook) {
        return new Repairer(ENGINE, ServerGuard.Report::idle, new Applier(hook, "test"), p -> true);
    }

    @ParameterizedTest(name = "{0}, enforce_fsync={1}")
    @MethodSource("shapes")
    void repairApply_leavesWhatBootAccepts_andRestoreUndoesIt(Shapes.Shape shape, boolean durable) throws Exception {
        PartitionPath p = Shapes.make(root, shape);
        Path partitions = p.directory().getParent();
        Map<String, byte[]> original = Trees.partitionFiles(p.directory());
        Map<String, byte[]> originalTree = Trees.snapshot(partitions, false);

        Repairer.Outcome dry = repairer().repair(p, durable, false, false);
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> String.valueOf(dry));
        assertEquals(1, dry.exitCode());
        Trees.assertSame(originalTree, Trees.snapshot(partitions, true), "a dry run changes nothing");

        Repairer.Outcome applied = repairer().repair(p, durable, true, false);
        assertEquals(Repairer.Status.APPLIED, applied.status(), () -> applied.error() + " " + applied.notes());
        assertEquals(0, applied.exitCode(), () -> String.valueOf(applied.notes()));
        assertNotNull(applied.quarantine());
        Trees.assertClean(p, durable, shape + " after repair");
        Trees.assertAllBytesHeld(original, p.directory(), shape.name());

        Repairer.Outcome again = repairer().repair(p, durable, true, false);
        assertEquals(Repairer.Status.CLEAN, again.status(), "a second repair finds nothing to do");

        Repairer.RestoreOutcome restored = repairer().restore(applied.quarantine(), true, false);
        assertEquals(0, restored.exitCode(), () -> restored.error() + " " + restored.result());
        Trees.assertSame(originalTree, Trees.snapshot(partitions, false), "restore puts back every byte");
        assertTrue(Files.isDirectory(applied.quarantine()), "restore keeps the quarantine");
        Repairer.RestoreOutcome twice = repairer().restore(applied.quarantine(), true, false);
        assertEquals(0, twice.exitCode());
        assertTrue(twice.result().actions().isEmpty(), () -> "restoring twice does nothing: " + twice.result());
    }
}
