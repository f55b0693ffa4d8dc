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
 * 6.7): truncating it in place would shorten the WAL's copy too, and 6.7 says a repair must write a new file and
 * rename it. segtool does not yet, so it refuses, in one line, before changing anything.
 */
class LinkedLogTruncationTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    @Test
    void aLogWithASecondName_isNotTruncatedInPlace_theRepairIsRefusedInOneLine() throws Exception {
        Path dir = Shapes.partitionDir(tmp);
        Files.createDirectories(dir);
        byte[] original = Shapes.concat(Vectors.abc(), new byte[100]);
        Shapes.log(dir, 0, original);
        Shapes.index(dir, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        refusedWithNothingChanged(dir, original, "METADATA 6.7 says a repair must write a new file and rename it");
    }

    /**
     * Links the segment log into a second name, runs repair as a dry run and with --apply, and checks that both are
     * refused in one line naming the link count and {@code why}, and that nothing changed under either name.
     */
    private Path refusedWithNothingChanged(Path dir, byte[] original, String why) throws Exception {
        Path log = dir.resolve("00000000000000000000.log");
        Path other = Files.createLink(tmp.resolve("segment-0-0.log"), log);
        Repairer.Outcome dry = FixpointTest.repairer().repair(PartitionPath.of(dir), false, false, false);
        Repairer.Outcome applied = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
        for (Repairer.Outcome o : List.of(dry, applied)) {
            assertEquals(Repairer.Status.REFUSED, o.status(), () -> o.status() + " " + o.error());
            assertEquals(2, o.exitCode());
            assertTrue(o.error().contains("00000000000000000000.log has 2 hard links") && o.error().contains(why)
                    && !o.error().contains("\n"), o.error());
        }
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(other)), "nothing changed, under either name");
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(log)));
        assertTrue(Quarantine.of(dir).isEmpty(), "no quarantine");
        return other;
    }

    @Test
    void aLogWithOneName_isTruncatedInPlaceAsBefore() throws Exception {
        Path dir = Shapes.partitionDir(tmp);
        Files.createDirectories(dir);
        Shapes.log(dir, 0, Shapes.concat(Vectors.abc(), new byte[100]));
        Shapes.index(dir, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        Repairer.Outcome dry = FixpointTest.repairer().repair(PartitionPath.of(dir), false, false, false);
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> dry.status() + " " + dry.error());
        assertEquals(List.of(new RepairOp.TruncateLog(1, "00000000000000000000.log", 1245, 1145)),
                dry.plan().ops().stream().filter(o -> o instanceof RepairOp.TruncateLog).toList());
    }

    @Test
    void aLogWithASecondName_isNotFencedEither_theRepairIsRefusedInOneLine() throws Exception {
        // recovered empty (V11): no record verifies, so the plan fences the segment; for a WAL-retained inode the
        // WAL open would re-create the public name from its copy at the next boot (METADATA 6.7 step 2)
        Path dir = Shapes.partitionDir(tmp);
        Files.createDirectories(dir);
        byte[] original = new byte[300];
        java.util.Arrays.fill(original, (byte) 0xAB);
        Shapes.log(dir, 0, original);
        Repairer.Outcome unlinked = FixpointTest.repairer().repair(PartitionPath.of(dir), false, false, false);
        assertTrue(unlinked.plan().ops().stream().anyMatch(o -> o instanceof RepairOp.Fence),
                () -> "the shape is fenced when the log has one name: " + unlinked.plan().ops());
        Path other = refusedWithNothingChanged(dir, original, "fencing it would leave the WAL's copy");
        assertEquals(2, (Integer) Files.getAttribute(other, "unix:nlink"), "the log was not renamed away");
        try (var s = Files.list(dir.getParent())) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().contains(".fenced")).toList(),
                    "no fence directory beside the partition");
        }
    }
}
