package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.salvage.AtStake;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.formats.index.IndexEntry;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/**
 * {@code repair --accept-loss} where only the index is cut: the {@code REBUILD_INDEX} answer to FsyncedLogLoss
 * (RECOVERY 4.3 A4, 4.8) when R() over the log proves nothing (4.6: no record verifies, the probe finds no
 * survivor). A durable writer flushed every batch (one index entry each, 4.8's rationale), then the log's bytes were
 * lost to zeros at their full length (a file system that had not written the data blocks). The index outruns the log
 * by every entry, so a durable boot refuses; the cut empties the index, nothing else, so the next boot takes R()'s
 * path, finds the segment recovered empty (4.10) and fences it, which the ordinary repair then does.
 */
class AcceptLossIndexCutTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    @Test
    void durableLogOfZeros_underAFlushedIndex_theCutEmptiesTheIndexOnly_thenTheRepairFences_andRestoreUndoesBoth()
            throws Exception {
        Path root = tmp.resolve("root");
        PartitionPath p = PartitionPath.of(Shapes.partitionDir(root));
        Files.createDirectories(p.directory());
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(p.directory(), PartitionWriter.Config.of(1)
                .messagesRequiredToSave(1), 6, 1, 100, 11);
        assertEquals(1, segs.size());
        PartitionWriter.SegmentLayout seg = segs.get(0);
        List<IndexEntry> entries = seg.entries();
        assertEquals(6, entries.size(), "one entry per flushed batch");
        long logLength = Files.size(seg.log());
        long indexLength = Files.size(seg.index());
        assertEquals(6L * IndexEntry.LENGTH, indexLength);
        assertEquals(seg.batch(5).end(), logLength);
        Damage.overwrite(seg.log(), 0, new byte[(int) logLength]);
        Map<String, byte[]> originalTree = Trees.snapshot(root, false);
        byte[] zeros = Files.readAllBytes(seg.log());
        byte[] index = Files.readAllBytes(seg.index());

        PartitionReport before = FixpointTest.ENGINE.judge(p, true);
        Refusal.FsyncedLogLoss loss = assertInstanceOf(Refusal.FsyncedLogLoss.class, before.refusal());
        // AS(): entries 4, 3, ..., 0 are probed (the last one is never), none has a header over zeros
        assertEquals(new Refusal.FsyncedLogLoss(0, 6, 0, 0, 5), loss);
        assertEquals(PartitionReport.Outcome.ACCEPTED, FixpointTest.ENGINE.judge(p, false).outcome(),
                "lenient mode gives index entries no evidence: R() finds it recovered empty");

        Repairer.Outcome dry = FixpointTest.repairer().acceptLoss(p, true, false, false, null, "test");
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> dry.error() + " " + dry.notes());
        assertEquals(1, dry.exitCode());
        Repairer.Cut first = dry.loss().cuts().get(0);
        AtStake.Cut cut = first.stake().cut();
        assertEquals(AtStake.Plan.REBUILD_INDEX, cut.plan());
        assertEquals(0, cut.segment());
        assertEquals(List.of(), cut.offsetsLeaving(), "no record verifies, so none leaves");
        assertEquals(0, cut.bytesLeaving(), "the log is not cut");
        assertEquals(List.of(new OffsetRanges.Range(0, 5)), first.stake().missing().stream()
                .map(AtStake.Missing::offsets).toList(), "offsets 0-5, the index's, are held by no record");
        assertEquals(List.of(), first.stake().salvageable());
        String indexName = seg.index().getFileName().toString();
        assertEquals(List.of(new RepairOp.TruncateIndex(0, indexName, indexLength, 0)), first.plan().ops());
        assertEquals(1, first.plan().leaving().size(), "the whole index goes into the quarantine");
        RepairPlan.Leaving leaving = first.plan().leaving().get(0);
        assertEquals(indexName, leaving.file());
        assertEquals(0, leaving.offset());
        assertEquals(indexLength, leaving.length());
        Trees.assertSame(originalTree, Trees.snapshot(root, true), "the dry run changes nothing");

        Path archive = tmp.resolve("salvaged");
        Repairer.Outcome o = FixpointTest.repairer().acceptLoss(p, true, true, false, archive, "test");
        assertEquals(Repairer.Status.APPLIED, o.status(), () -> o.error() + " " + o.notes() + " " + o.loss());
        assertEquals(0, o.exitCode());
        assertNull(o.loss().unsafe());
        assertEquals(2, o.loss().cuts().size(), "the index cut, then the ordinary repair");
        assertEquals(List.of(new RepairOp.TruncateIndex(0, indexName, indexLength, 0)),
                o.loss().cuts().get(0).plan().ops());
        Repairer.Cut repair = o.loss().cuts().get(1);
        assertNull(repair.refusal());
        RepairOp.Fence fence = assertInstanceOf(RepairOp.Fence.class, repair.plan().ops().get(0));
        assertEquals(List.of(fence), repair.plan().ops());
        assertEquals(logLength, fence.logBytes());
        assertEquals(0, fence.indexBytes(), "the cut left the index empty");

        // the next boot: both files empty, the zeroed log in the fence directory, nothing left to do
        assertEquals(0, Files.size(seg.log()));
        assertEquals(0, Files.size(seg.index()));
        assertArrayEquals(zeros, Files.readAllBytes(p.directory().resolveSibling(fence.directory())
                .resolve(fence.file())));
        Trees.assertClean(p, true, "after accept-loss");

        // the index cut's quarantine holds the index, byte for byte
        Quarantine q = Quarantine.open(o.loss().cuts().get(0).quarantine());
        assertEquals(1, q.manifest().entries().size());
        assertArrayEquals(index, Files.readAllBytes(q.copy(q.manifest().entries().get(0))));

        for (Path qd : o.loss().quarantinesNewestFirst()) {
            Repairer.RestoreOutcome r = FixpointTest.repairer().restore(qd, true, false);
            assertEquals(0, r.exitCode(), () -> qd + ": " + r.error() + " " + r.result());
        }
        Trees.assertSame(originalTree, Trees.snapshot(root, false), "restore newest first gives the original bytes");
        assertTrue(Files.isDirectory(archive), "the archive is kept");
    }
}
