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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;

/** {@code rebuild-index}: the server's 64 KiB stride from the byte-0 walk, and when it refuses. */
class RebuildIndexTest {
    @TempDir
    Path root;

    private Path dir() throws Exception {
        Path d = Shapes.partitionDir(root);
        Files.createDirectories(d);
        return d;
    }

    /** F 3.3 computed from the writer's layout, independently of the engine. */
    private static List<IndexEntry> stride(PartitionWriter.SegmentLayout s) {
        List<IndexEntry> out = new ArrayList<>();
        long last = -1;
        for (PartitionWriter.BatchInfo b : s.batches()) {
            if (b.messageCount() > 0 && (last < 0 || b.position() - last >= 65_536)) {
                out.add(new IndexEntry(b.baseOffset(), b.baseTimestamp(), b.position()));
                last = b.position();
            }
        }
        return out;
    }

    @ParameterizedTest(name = "enforce_fsync={0}")
    @ValueSource(booleans = {false, true})
    void denseWriterIndex_isReplacedByTheStrideIndex_andStaysClean(boolean durable) throws Exception {
        Path d = dir();
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(1)
                .segmentSize(200 * 1024).messagesRequiredToSave(1), 400, 2, 700, 11);
        assertTrue(segs.size() >= 2, "segments: " + segs.size());
        PartitionPath p = PartitionPath.of(d);
        Map<String, byte[]> before = Trees.partitionFiles(d);

        Repairer.Outcome dry = FixpointTest.repairer().rebuildIndex(p, null, durable, false, false);
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> dry.notes() + " " + dry.error());
        assertEquals(1, dry.exitCode());

        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(p, null, durable, true, false);
        assertEquals(0, o.exitCode(), () -> o.status() + " " + o.error() + " " + o.notes());
        for (PartitionWriter.SegmentLayout s : segs) {
            List<IndexEntry> want = stride(s);
            assertTrue(want.size() >= 2 || s == segs.get(segs.size() - 1), "a 200 KiB segment has several");
            assertArrayEquals(IndexFile.encode(want), Files.readAllBytes(s.index()), s.index().toString());
            assertArrayEquals(before.get(s.log().getFileName().toString()), Files.readAllBytes(s.log()),
                    "logs are untouched");
        }
        Trees.assertClean(p, false, "lenient scan after rebuild-index");
        Trees.assertClean(p, true, "durable scan after rebuild-index");
        Trees.assertAllBytesHeld(before, d, "rebuild-index");
        assertEquals(Repairer.Status.CLEAN, FixpointTest.repairer().rebuildIndex(p, null, durable, true, false)
                .status(), "a second rebuild finds the same entries in place");
        assertEquals(0, FixpointTest.repairer().restore(o.quarantine(), true, false).exitCode());
        Trees.assertSame(before, Trees.partitionFiles(d), "restore");
    }

    @Test
    void oneSegment_onlyThatIndexChanges() throws Exception {
        Path d = dir();
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(1)
                .segmentSize(100 * 1024).messagesRequiredToSave(1), 300, 2, 700, 5);
        Map<String, byte[]> before = Trees.partitionFiles(d);
        PartitionWriter.SegmentLayout target = segs.get(1);
        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(d), target.startOffset(), false,
                true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        Map<String, byte[]> after = Trees.partitionFiles(d);
        for (String name : before.keySet()) {
            boolean changed = !Arrays.equals(before.get(name), after.get(name));
            assertEquals(name.equals(target.index().getFileName().toString()), changed, name);
        }
    }

    @Test
    void staleStagingFile_isQuarantinedBeforeItIsOverwritten() throws Exception {
        Path d = dir();
        Shapes.log(d, 0, Vectors.abc());
        Shapes.index(d, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        Shapes.raw(d, SegmentFiles.stem(0) + ".index.staging", Shapes.filled(50, 0x77));
        Map<String, byte[]> before = Trees.partitionFiles(d);
        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(d), 0L, false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        assertArrayEquals(IndexFile.encode(List.of(Shapes.EA)), Files.readAllBytes(SegmentFiles.index(d, 0)));
        assertFalse(Files.exists(SegmentFiles.indexStaging(d, 0)));
        Trees.assertAllBytesHeld(before, d, "stale staging");
    }

    @Test
    void tornTail_isRepairsJob_nothingChanges() throws Exception {
        Path d = dir();
        Shapes.log(d, 0, Shapes.concat(Vectors.abc(), new byte[100]));
        Shapes.index(d, 0, Shapes.EA, Shapes.EB, Shapes.EC);
        Map<String, byte[]> before = Trees.snapshot(d.getParent(), true);
        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(d), null, true, true, false);
        assertEquals(Repairer.Status.NOT_REBUILDABLE, o.status());
        assertEquals(2, o.exitCode());
        assertTrue(o.notes().stream().anyMatch(n -> n.contains("stops at byte 1145 of 1245")), o.notes()::toString);
        Trees.assertSame(before, Trees.snapshot(d.getParent(), true), "refused: nothing changes");
    }

    @Test
    void refusedPartition_nothingChanges() throws Exception {
        Path d = dir();
        byte[] log = Vectors.abc();
        log[620] ^= 1;
        Shapes.log(d, 0, log);
        Shapes.index(d, 0, Shapes.EA);
        Map<String, byte[]> before = Trees.snapshot(d.getParent(), true);
        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(d), null, false, true, false);
        assertEquals(Repairer.Status.REFUSED, o.status());
        assertEquals(2, o.exitCode());
        Trees.assertSame(before, Trees.snapshot(d.getParent(), true), "refused: nothing changes");
    }

    @Test
    void alreadyTheRebuiltIndex_isClean() throws Exception {
        Path d = dir();
        Shapes.log(d, 0, Vectors.abc());
        Shapes.index(d, 0, Shapes.EA);
        Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(d), null, false, true, false);
        assertEquals(Repairer.Status.CLEAN, o.status());
        assertEquals(0, o.exitCode());
        assertTrue(Quarantine.of(d).isEmpty(), "no quarantine when nothing changes");
    }
}
