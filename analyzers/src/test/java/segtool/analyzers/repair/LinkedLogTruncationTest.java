package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.naming.PartitionPath;

/**
 * A segment log whose inode has another name (the prepare WAL's {@code prepares-<rev>/segment-*.log}, METADATA
 * 6.7): truncating it in place shortens every name, so the plan says so before anything changes (issue 11.5), and
 * restore, which appends in place, puts the bytes back under every name.
 */
class LinkedLogTruncationTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    @Test
    void thePlanStatesTheSecondName_theTruncationShortensIt_andRestorePutsItBack() throws Exception {
        Path dir = Shapes.partitionDir(tmp);
        Files.createDirectories(dir);
        byte[] original = Shapes.concat(Vectors.abc(), new byte[100]);
        Shapes.log(dir, 0, original);
        Shapes.index(dir, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        Path other = Files.createLink(tmp.resolve("segment-0-0.log"), dir.resolve("00000000000000000000.log"));

        Repairer.Outcome dry = FixpointTest.repairer().repair(PartitionPath.of(dir), false, false, false);
        assertEquals(List.of("00000000000000000000.log has 2 hard links (the prepare WAL retains a segment's inode "
                + "as prepares-*/segment-*.log, METADATA 6.7), so truncating it to 1145 bytes also shortens its "
                + "other names; the removed bytes are quarantined as always and `restore` puts them back under every "
                + "name"), dry.plan().notes());
        assertEquals(original.length, Files.size(other), "a dry run changes nothing");

        Repairer.Outcome applied = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
        assertEquals(0, applied.exitCode(), () -> applied.error() + " " + applied.notes());
        assertEquals(1145, Files.size(other), "the same inode, shortened under its other name too");

        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(applied.quarantine(), true, false);
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(other)), "restored under the other name");
        assertEquals(2, ((Number) Files.getAttribute(other, "unix:nlink")).intValue(), "still one inode");
    }

    @Test
    void aLogWithOneName_hasNoNote() throws Exception {
        Path dir = Shapes.partitionDir(tmp);
        Files.createDirectories(dir);
        Shapes.log(dir, 0, Shapes.concat(Vectors.abc(), new byte[100]));
        Shapes.index(dir, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        assertEquals(List.of(), FixpointTest.repairer().repair(PartitionPath.of(dir), false, false, false).plan()
                .notes());
    }
}
