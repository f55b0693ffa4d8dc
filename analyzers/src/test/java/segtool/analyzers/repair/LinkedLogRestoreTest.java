package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * {@code restore} and a {@code .log} that gained a second name after the repair (the prepare WAL's retained
 * {@code prepares-<rev>/segment-<g>-<S>.log}, METADATA 6.7 step 1 "creates/links it from the public name"). Writing
 * into that inode in place writes the WAL's copy too; renaming a new file over the public name does not last,
 * because step 2 of the WAL open re-creates the public name from the retained inode at every boot. So restore, as
 * repair, refuses in one line naming the file, exit 2, and nothing changes under either name.
 */
class LinkedLogRestoreTest {
    @TempDir(factory = FastTempDir.class)
    Path root;

    @Test
    void truncatedLogLinkedAfterTheRepair_restoreRefusesInOneLine_changesNothing() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));   // abc ‖ 100 zero bytes: torn tail
        Path log = SegmentFiles.log(p.directory(), 0);
        byte[] torn = Files.readAllBytes(log);
        assertEquals(1145 + 100, torn.length);
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, o.exitCode(), o::toString);
        assertArrayEquals(Vectors.abc(), Files.readAllBytes(log), "the repair cut the log to 1145 bytes");

        Path wal = Files.createDirectories(p.directory().resolve("prepares-1"));
        Path retained = Files.createLink(wal.resolve("segment-0-0.log"), log);
        assertRefused(o.quarantine(), log, "append 100 bytes to it in place");
        assertArrayEquals(Vectors.abc(), Files.readAllBytes(retained), "the WAL's copy is not written");

        Files.delete(retained);
        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(o.quarantine(), true, false);
        assertEquals(0, r.exitCode(), r::toString);
        assertArrayEquals(torn, Files.readAllBytes(log), "with one name again, restore puts the tail back");
    }

    @Test
    void fencedLogSeededEmptyThenLinked_restoreDoesNotRenameOverIt() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(8));   // recovered empty, no index: fenced
        Path log = SegmentFiles.log(p.directory(), 0);
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, o.exitCode(), o::toString);
        assertEquals(0, Files.size(log), "fencing seeds an empty log");
        assertTrue(o.plan().ops().stream().anyMatch(op -> op instanceof RepairOp.Fence), o.plan()::toString);

        Path wal = Files.createDirectories(p.directory().resolve("prepares-1"));
        Path retained = Files.createLink(wal.resolve("segment-0-0.log"), log);
        assertRefused(o.quarantine(), log, "rename a new file over it");
        assertTrue(Files.isSameFile(retained, log), "the public name is still the WAL's inode");
        assertEquals(0, Files.size(retained));
    }

    private void assertRefused(Path quarantine, Path log, String what) throws Exception {
        Map<String, byte[]> before = Trees.snapshot(root, true);
        for (boolean apply : List.of(false, true)) {
            Repairer.RestoreOutcome r = FixpointTest.repairer().restore(quarantine, apply, false);
            assertEquals(2, r.exitCode(), r::toString);
            assertFalse(r.result().applied());
            assertEquals(1, r.result().conflicts().size(), r.result()::toString);
            String line = r.result().conflicts().get(0);
            assertFalse(line.contains("\n"), line);
            assertTrue(line.startsWith(log + " has 2 hard links") && line.contains(what)
                    && line.contains("METADATA 6.7") && line.contains("restore changes nothing"), line);
        }
        Trees.assertSame(before, Trees.snapshot(root, true), "the refusal changes nothing, anywhere");
    }
}
