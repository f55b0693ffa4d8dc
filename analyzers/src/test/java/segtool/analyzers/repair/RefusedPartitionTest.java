package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.Refusal;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/** A refused partition is explained, with its variant and fields, and not one byte of it changes. */
class RefusedPartitionTest {
    @TempDir
    Path root;

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void interiorDamage_isExplained_andNothingChanges(boolean durable) throws Exception {
        Path d = Shapes.partitionDir(root);
        Files.createDirectories(d);
        byte[] log = Vectors.abc();
        log[620] ^= 1;
        Shapes.log(d, 0, log);
        Shapes.index(d, 0, Shapes.EA);
        Shapes.raw(d, SegmentFiles.stem(0) + ".index.staging", Shapes.filled(24, 1));
        Map<String, byte[]> before = Trees.snapshot(root, true);

        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(d), durable, true, false);
        assertEquals(Repairer.Status.REFUSED, o.status());
        assertEquals(2, o.exitCode());
        Refusal r = o.before().refusal();
        assertEquals(Refusal.Variant.InteriorDamage, r.variant());
        assertEquals(Map.of("start_offset", 0L, "damage_position", 315L, "survivor_position", 782L), r.fields());
        String why = Refusals.explain(r);
        assertTrue(why.contains("315") && why.contains("782"), why);
        List<String> next = Refusals.nextSteps(r, o.before());
        assertTrue(next.size() >= 2 && next.get(0).contains("replica"), next::toString);
        Trees.assertSame(before, Trees.snapshot(root, true), "not even the sweep runs on a refused partition");
        String json = RepairJson.partition(o).toString();
        assertTrue(json.contains("\"variant\":\"InteriorDamage\"") && json.contains("\"survivor_position\":782"),
                json);
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void hole_isExplained_withRecoverableBytes(boolean durable) throws Exception {
        Path d = Shapes.partitionDir(root);
        Files.createDirectories(d);
        byte[] abc = Vectors.abc();
        Shapes.log(d, 0, Shapes.concat(java.util.Arrays.copyOf(abc, 315), java.util.Arrays.copyOf(
                java.util.Arrays.copyOfRange(abc, 315, 782), 100)));
        Shapes.index(d, 0, Shapes.EA);
        Shapes.log(d, 4, java.util.Arrays.copyOfRange(abc, 782, 1145));
        Shapes.index(d, 4, new IndexEntry(4, Vectors.TC, 0));
        Map<String, byte[]> before = Trees.snapshot(root, true);
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(d), durable, true, false);
        assertEquals(Repairer.Status.REFUSED, o.status());
        assertEquals(Refusal.Variant.Hole, o.before().refusal().variant());
        assertEquals(678L, ((Refusal.Hole) o.before().refusal()).recoverableBytes());
        assertTrue(Refusals.explain(o.before().refusal()).contains("next segment starts at 4"));
        Trees.assertSame(before, Trees.snapshot(root, true), "nothing changes, not even the staged index");
        assertFalse(Files.exists(SegmentFiles.indexStaging(d, 0)));
    }
}
