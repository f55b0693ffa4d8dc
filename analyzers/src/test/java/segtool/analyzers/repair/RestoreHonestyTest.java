package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.naming.PartitionPath;

/**
 * Issue 17.3: {@code restore} claims only what it verified. With the journal lost or cut short it used to undo only
 * the operations the journal named, say "nothing to restore; ... already holds the original bytes" and exit 0 while
 * the log stayed truncated. Now each file's state decides, and the partition is checked against the manifest's
 * original lengths and hashes before anything is claimed.
 */
class RestoreHonestyTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    private Path partition;
    private Path quarantine;
    private Map<String, byte[]> original;

    private void repaired(Path root, boolean durable) throws IOException {
        Path dir = Shapes.partitionDir(root);
        Files.createDirectories(dir);
        Shapes.composite(dir);
        original = Trees.snapshot(root, false);
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(dir), durable, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        partition = dir;
        quarantine = o.quarantine();
    }

    private void restoresEverything(Path root, String context) {
        Repairer.RestoreOutcome dry = FixpointTest.repairer().restore(quarantine, false, false);
        assertEquals(1, dry.exitCode(), () -> context + ": " + dry);
        assertFalse(dry.result().actions().isEmpty(), context);
        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(quarantine, true, false);
        assertEquals(0, r.exitCode(), () -> context + ": " + r);
        assertTrue(r.result().applied(), context);
        Trees.assertSame(original, Trees.snapshot(root, false), context + ": every original byte is back");
        Repairer.RestoreOutcome again = FixpointTest.repairer().restore(quarantine, true, false);
        assertEquals(0, again.exitCode(), () -> context + ": " + again);
        assertTrue(again.result().actions().isEmpty(), context + ": a second restore has nothing to do");
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void withTheJournalDeleted_restorePutsEverythingBack(boolean durable) throws Exception {
        repaired(tmp, durable);
        Files.delete(quarantine.resolve(Quarantine.JOURNAL));
        restoresEverything(tmp, "journal deleted");
    }

    @Test
    void withTheJournalCutShort_restorePutsEverythingBack() throws Exception {
        repaired(tmp, false);
        Path j = quarantine.resolve(Quarantine.JOURNAL);
        List<String> lines = Files.readAllLines(j, StandardCharsets.UTF_8);
        assertTrue(lines.size() > 3);
        Files.writeString(j, lines.get(0) + "\n" + lines.get(1) + "\ndone 2", StandardCharsets.UTF_8);
        restoresEverything(tmp, "journal cut after two lines and a torn third");
    }

    @Test
    void aFileNotAsTheRepairLeftIt_isAConflict_neverNothingToRestore() throws Exception {
        repaired(tmp, false);
        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(quarantine, true, false);
        assertEquals(0, r.exitCode(), () -> String.valueOf(r));
        // after the restore, a file that did not exist before the repair appears, named like a staged index
        RepairOp stage = Quarantine.open(quarantine).manifest().operations().stream()
                .filter(op -> op instanceof RepairOp.StageIndex).findFirst().orElseThrow();
        Path staged = partition.resolve(stage.file());
        boolean existed = Files.exists(staged);
        Path other = existed ? staged : partition.resolve("00000000000000000000.index");
        try (var ch = java.nio.channels.FileChannel.open(other, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[]{(byte) 0xEE}), 0);
        }
        Repairer.RestoreOutcome again = FixpointTest.repairer().restore(quarantine, false, false);
        assertEquals(2, again.exitCode(), () -> String.valueOf(again));
        assertFalse(again.result().conflicts().isEmpty());
    }

    @Test
    void aDiskThatFillsDuringRestore_failsWithOneLine_andARerunFinishes() throws Exception {
        Path mnt = tmp.resolve("small");
        try (SmallFs fs = SmallFs.mount(mnt, "8m")) {
            Path dir = Shapes.partitionDir(mnt);
            Files.createDirectories(dir);
            KillNineTest.build(dir);
            original = Trees.snapshot(mnt, false);
            Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
            assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
            quarantine = o.quarantine();
            Path fillers = Files.createDirectories(mnt.resolve("fillers"));
            SmallFs.fill(fillers, 0);
            Repairer.RestoreOutcome full = FixpointTest.repairer().restore(quarantine, true, false);
            assertEquals(3, full.exitCode(), () -> String.valueOf(full));
            assertFalse(full.error().contains("\n"), full.error());
            SmallFs.unfill(fillers);
            Files.delete(fillers);
            Repairer.RestoreOutcome rerun = FixpointTest.repairer().restore(quarantine, true, false);
            assertEquals(0, rerun.exitCode(), () -> String.valueOf(rerun));
            Trees.assertSame(original, Trees.snapshot(mnt, false), "a re-run after the full disk finishes");
        }
    }
}
