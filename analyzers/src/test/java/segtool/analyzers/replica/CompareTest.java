package segtool.analyzers.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

class CompareTest {
    @TempDir
    Path root;

    List<PartitionWriter.SegmentLayout> layout;

    @BeforeEach
    void replicas() throws Exception {
        layout = Replicas.make(root, "a", 1);
        assertEquals(layout, relocate(Replicas.make(root, "b", 7), "b"));
        Replicas.make(root, "c", 1024);
        assertTrue(layout.size() >= 4, "several segments: " + layout.size());
    }

    /** The layout of replica {@code name} with replica a's paths, to compare the batch positions alone. */
    private List<PartitionWriter.SegmentLayout> relocate(List<PartitionWriter.SegmentLayout> l, String name) {
        return l.stream().map(s -> new PartitionWriter.SegmentLayout(s.startOffset(),
                Path.of(s.log().toString().replace("/" + name + "/", "/a/")),
                Path.of(s.index().toString().replace("/" + name + "/", "/a/")), s.batches(),
                layout.get(l.indexOf(s)).entries(), s.length(), s.endOffset())).toList();
    }

    private Path log(String replica, int segment) {
        return Replicas.partition(root, replica).resolve(layout.get(segment).log().getFileName());
    }

    private Path index(String replica, int segment) {
        return Replicas.partition(root, replica).resolve(layout.get(segment).index().getFileName());
    }

    private long lastOffset() {
        return Replicas.MESSAGES - 1;
    }

    @Test
    void sameMessages_differentFlushTiming_agree() throws Exception {
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(index("a", 0)), Files.readAllBytes(index("c", 0))),
                "the indexes differ");
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b", "c");
        assertEquals(0, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        assertTrue(p.agree());
        assertEquals("a", p.donor());
        assertNull(p.firstDivergence());
        assertTrue(p.prefixes().isEmpty());
        assertTrue(p.uncovered().isEmpty());
        for (ReplicaComparison.ReplicaResult rr : p.replicas()) {
            assertTrue(rr.transfers().isEmpty(), rr.replica());
            assertEquals(lastOffset(), rr.verdict().chain().lastOffset());
            assertEquals(Replicas.MESSAGES, rr.verdict().chain().offsets());
            assertEquals(layout.size(), rr.segments().size());
            assertEquals(p.replicas().get(0).segments(), rr.segments(), "same digests");
        }
        assertEquals(List.of("action a=donor", "action b=none", "action c=none"),
                p.replicas().stream().map(x -> "action " + x.replica() + "=" + x.action()).toList());
        assertTrue(r.warnings().get(0).contains("joined by stream/topic/partition"));
    }

    @Test
    void tornTail_isAPrefix_takesTheTailFromTheDonor() throws Exception {
        PartitionWriter.SegmentLayout last = layout.get(layout.size() - 1);
        PartitionWriter.BatchInfo torn = last.batch(last.batches().size() - 1);
        Damage.truncate(log("b", layout.size() - 1), torn.position() + 300);
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b", "c");
        assertEquals(1, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        assertEquals("a", p.donor());
        assertEquals("b", p.firstDivergent());
        ReplicaComparison.Divergence d = p.firstDivergence();
        assertEquals(last.startOffset(), d.segment());
        assertEquals(torn.position(), d.position());
        assertEquals(torn.baseOffset(), d.offset());
        assertEquals("record", d.field());
        assertEquals("walk stops at " + torn.position() + " (runs_past_eof) of " + (torn.position() + 300)
                + " bytes", d.replica());
        assertEquals(List.of(new ReplicaComparison.Prefix("b", "a"), new ReplicaComparison.Prefix("b", "c")),
                p.prefixes());
        ReplicaComparison.ReplicaResult b = p.replica("b");
        assertEquals("take", b.action());
        assertEquals(1, b.transfers().size());
        ReplicaComparison.Transfer t = b.transfers().get(0);
        assertEquals(last.startOffset(), t.segment());
        assertEquals(torn.position(), t.from());
        assertEquals(last.length(), t.to());
        assertEquals(torn.position() + 300, t.localLength());
        assertEquals(torn.baseOffset() - 1, b.verdict().chain().lastOffset());
        assertEquals("none", p.replica("c").action());
    }

    @Test
    void interiorDamage_divergesAtTheRecord_checksum() throws Exception {
        PartitionWriter.SegmentLayout seg = layout.get(1);
        PartitionWriter.BatchInfo hit = seg.batch(2);
        Damage.flipByte(log("c", 1), hit.position() + 300);
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b", "c");
        assertEquals(1, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        ReplicaComparison.ReplicaResult c = p.replica("c");
        assertEquals("refused", c.verdict().outcome());
        assertEquals("InteriorDamage", c.verdict().refusalVariant());
        assertEquals(new ReplicaComparison.Divergence(seg.startOffset(), hit.position(), hit.baseOffset(),
                "record checksum", "verifies", "does not verify"), p.firstDivergence());
        assertEquals("c", p.firstDivergent());
        assertEquals("a", p.donor());
        assertEquals(List.of(new ReplicaComparison.Transfer(seg.startOffset(), hit.position(), seg.length(),
                "differs from " + hit.position(), true, seg.length(), c.segments().get(1).xxh3(), seg.length(),
                p.replica("a").segments().get(1).xxh3(), Files.size(index("a", 1)))), c.transfers());
        // the chain: segment 0 whole, then segment 1 up to the damaged record
        assertEquals(hit.baseOffset() - 1, c.verdict().chain().lastOffset());
        assertEquals(layout.get(0).length() + hit.position(), c.verdict().chain().bytes());
        assertEquals(List.of(new ReplicaComparison.Prefix("c", "a"), new ReplicaComparison.Prefix("c", "b")),
                p.prefixes());
        assertTrue(p.uncovered().isEmpty());
    }

    @Test
    void lostMiddleSegment_takesTheWholeSegment() throws Exception {
        Files.delete(log("b", 1));
        Files.delete(index("b", 1));
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b", "c");
        assertEquals(1, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        ReplicaComparison.ReplicaResult b = p.replica("b");
        assertEquals("Hole", b.verdict().refusalVariant());
        PartitionWriter.SegmentLayout seg = layout.get(1);
        assertEquals(new ReplicaComparison.Divergence(seg.startOffset(), 0, seg.startOffset(), "segment", "present",
                "absent"), p.firstDivergence());
        assertEquals(1, b.transfers().size());
        ReplicaComparison.Transfer t = b.transfers().get(0);
        assertEquals(seg.startOffset(), t.segment());
        assertEquals(0, t.from());
        assertEquals(seg.length(), t.to());
        assertFalse(t.localPresent());
        assertEquals("Hole {previous_start: 0, previous_end: " + layout.get(0).endOffset() + ", next_start: "
                + layout.get(2).startOffset() + ", recoverable_bytes: "
                + (layout.stream().mapToLong(PartitionWriter.SegmentLayout::length).sum() - seg.length()) + "}",
                b.verdict().refusal());
        assertEquals(layout.get(0).endOffset(), b.verdict().chain().lastOffset());
        assertEquals("a", p.donor());
    }

    @Test
    void truncatedSealedSegment_divergesWhereItsLogEnds() throws Exception {
        PartitionWriter.SegmentLayout seg = layout.get(2);
        PartitionWriter.BatchInfo cut = seg.batch(seg.batches().size() - 2);
        Damage.truncate(log("a", 2), cut.position());
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b", "c");
        assertEquals(1, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        assertEquals("b", p.donor(), "a is damaged; b is the first complete replica");
        ReplicaComparison.ReplicaResult a = p.replica("a");
        assertEquals("Hole", a.verdict().refusalVariant());
        assertEquals(new ReplicaComparison.Divergence(seg.startOffset(), cut.position(), cut.baseOffset(), "record",
                "record of " + cut.length() + " bytes, offsets " + cut.baseOffset() + "+" + Replicas.PER_BATCH,
                "log ends at " + cut.position()), a.divergence());
        assertEquals(1, a.transfers().size());
        ReplicaComparison.Transfer t = a.transfers().get(0);
        assertEquals(List.of(seg.startOffset(), cut.position(), seg.length()), List.of(t.segment(), t.from(),
                t.to()));
        assertEquals("take", a.action());
        assertEquals("none", p.replica("c").action());
    }

    @Test
    void noReplicaHoldsEverything_exit2_withTheUncoveredRange() throws Exception {
        // a lost segment 1; b interior damage in segment 2: b's chain is longer, but only a holds 2's tail and on
        Files.delete(log("a", 1));
        Files.delete(index("a", 1));
        PartitionWriter.SegmentLayout seg = layout.get(2);
        PartitionWriter.BatchInfo hit = seg.batch(1);
        Damage.flipByte(log("b", 2), hit.position() + 280);
        ReplicaComparison.Result r = Replicas.compare(root, "a", "b");
        assertEquals(2, r.exitCode());
        ReplicaComparison.PartitionResult p = r.partitions().get(0);
        assertEquals("b", p.donor());
        assertEquals(List.of(new ReplicaComparison.Range(hit.baseOffset(), lastOffset())), p.uncovered());
        assertNotEquals(0, p.replica("a").transfers().size());
    }
}
