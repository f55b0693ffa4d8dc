package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;
import segtool.formats.writer.PartitionWriter.SegmentLayout;
import segtool.samples.Damage;

/**
 * {@link RecoveryEngine#judgeKeepingEntries}: a lenient segment kept at A6 (W(first) from byte 0 to the end) carries
 * exactly the entries R() rebuilds, so rebuild-index walks it once; the verdict is judge's to the last field but the
 * entries; a segment whose walk stops short, and every durable-mode segment, carries none.
 */
class KeptEntriesTest {
    @TempDir
    Path tmp;

    @Test
    void keptSegments_carryTheEntriesOfR_andNothingElseChanges() throws Exception {
        Path dir = tmp.resolve("streams/1/topics/1/partitions/1");
        // ~1 KiB batches, 300 KiB segments: several 64 KiB strides per segment, and an index of one entry per batch
        List<SegmentLayout> layout = PartitionWriter.fill(dir, PartitionWriter.Config.of(1)
                .segmentSize(300 * 1024).messagesRequiredToSave(1), 3600, 4, 250, 11);
        assertTrue(layout.size() >= 3, "segments: " + layout.size());
        SegmentLayout last = layout.get(layout.size() - 1);
        Damage.truncate(last.log(), last.batches().get(last.batches().size() - 1).position() + 40);
        PartitionPath p = PartitionPath.of(dir);
        RecoveryEngine engine = new RecoveryEngine();

        PartitionReport plain = engine.judge(p, false);
        PartitionReport kept = engine.judgeKeepingEntries(p, false);
        assertEquals(plain.outcome(), kept.outcome());
        assertEquals(plain.operations(), kept.operations());
        assertEquals(plain.segments().size(), kept.segments().size());
        int withEntries = 0;
        for (int i = 0; i < plain.segments().size(); i++) {
            SegmentReport a = plain.segments().get(i);
            SegmentReport b = kept.segments().get(i);
            assertEquals(a.result(), b.result());
            assertEquals(a.status(), b.status());
            assertEquals(a.step(), b.step());
            assertEquals(a.evidence(), b.evidence());
            assertEquals(a.operations(), b.operations());
            assertEquals(a.size(), b.size());
            assertEquals(a.endOffset(), b.endOffset());
            if (a.result() == SegmentReport.Result.KEEP) {
                assertNull(a.rebuiltEntries());
                assertEquals(DecisionStep.A6, b.step());
                if (b.fromFirst().position() == b.logLength()) {
                    SegmentReport r = engine.rebuildWalk(p, b.start(), false);
                    assertNotNull(b.rebuiltEntries());
                    assertEquals(r.rebuiltEntries(), b.rebuiltEntries());
                    assertTrue(b.rebuiltEntries().size() >= 4, "several strides: " + b.rebuiltEntries().size());
                    withEntries++;
                } else {
                    assertNull(b.rebuiltEntries());
                }
            } else {
                assertEquals(a.rebuiltEntries(), b.rebuiltEntries());
            }
        }
        assertEquals(layout.size() - 1, withEntries, "every segment but the torn one");

        PartitionReport durable = engine.judgeKeepingEntries(p, true);
        assertEquals(engine.judge(p, true), durable);
        durable.segments().forEach(s -> assertTrue(s.result() != SegmentReport.Result.KEEP
                || s.rebuiltEntries() == null));
    }
}
