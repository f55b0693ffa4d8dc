package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/** Restore changes nothing when a file is not in a state the repair left (the server wrote since). */
class RestoreConflictTest {
    @TempDir
    Path root;

    @Test
    void logGrewAfterTheRepair_restoreRefuses_changesNothing() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, o.exitCode());
        Files.write(SegmentFiles.log(p.directory(), 0), new byte[]{1, 2, 3}, StandardOpenOption.APPEND);
        Map<String, byte[]> before = Trees.snapshot(root, true);

        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(o.quarantine(), true, false);
        assertEquals(2, r.exitCode());
        assertFalse(r.result().applied());
        assertTrue(r.result().conflicts().get(0).contains("00000000000000000000.log"), r.result()::toString);
        Trees.assertSame(before, Trees.snapshot(root, true), "a conflict changes nothing, anywhere");
    }

    @Test
    void unfinishedRepair_dryRunSaysThereIsWork() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        int[] steps = {0};
        Repairer.Outcome crashed = FixpointTest.repairer((step, action) -> {
            if (action.startsWith("journal done")) {
                steps[0]++;
                if (steps[0] == 3) {
                    throw new CrashInjectionTest.Crash(step, action);
                }
            }
        }).repair(p, false, true, false);
        assertEquals(3, crashed.exitCode());
        assertTrue(crashed.notes().stream().anyMatch(n -> n.contains("run repair --apply again")),
                crashed.notes()::toString);
        Repairer.Outcome dry = FixpointTest.repairer().repair(p, false, false, false);
        assertEquals(1, dry.exitCode(), dry::toString);
        assertEquals(1, dry.pending().size());
        Repairer.Outcome done = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, done.exitCode());
        assertEquals(1, done.resumed().size());
        Trees.assertClean(p, false, "after finishing");
    }
}
