package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.salvage.Salvager;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/**
 * Review finding #12: {@code repair --accept-loss --apply --salvage-to OUT} reuses an archive already at OUT (an
 * interrupted run wrote it before its first cut) only when it holds every record that verifies now byte for byte,
 * checked per batch by XXH3-64, and every batch in it verifies; offsets alone are not enough. An archive that does
 * not is refused in one line (exit 2) and nothing changes.
 */
class ArchiveReuseTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    /** Four segments by the byte-exact writer from {@code seed}; a payload byte of segment 1's second batch flipped. */
    private static PartitionPath refused(Path root, long seed) throws IOException {
        Path dir = Shapes.partitionDir(root);
        Files.createDirectories(dir);
        List<PartitionWriter.SegmentLayout> segments = PartitionWriter.fill(dir, PartitionWriter.Config.of(1)
                .segmentSize(16 << 10).messagesRequiredToSave(16).trackLayout(true), 200, 8, 200, seed);
        Damage.flipByte(segments.get(1).log(), segments.get(1).batch(1).position() + 300);
        PartitionPath p = PartitionPath.of(dir);
        assertNotNull(FixpointTest.ENGINE.judge(p, false).refusal(), "the partition is refused");
        return p;
    }

    private static void salvage(PartitionPath p, Path out) throws IOException {
        new Salvager(Salvager.Options.defaults("test").withMessages(true)).salvage(p, out, new ArrayList<>());
    }

    private static Repairer.Outcome acceptLoss(PartitionPath p, Path archive) {
        return FixpointTest.repairer().acceptLoss(p, false, true, false, archive, "test");
    }

    private static void assertRefusedInOneLine(Repairer.Outcome o, String startsWith, String contains) {
        assertEquals(Repairer.Status.REFUSED, o.status(), () -> o.error() + " " + o.notes());
        assertEquals(2, o.exitCode());
        String line = o.loss().unsafe();
        assertTrue(line != null && line.startsWith(startsWith) && line.contains(contains), line);
        assertTrue(line.endsWith("; the salvage archive cannot be reused (salvage to a new directory)"), line);
        assertFalse(line.contains("\n"), line);
        System.out.println("archive reuse refused: " + line);
    }

    @Test
    void anArchiveWhoseBatchesNoLongerHashAsRecorded_isRefused_andNothingChanges() throws Exception {
        PartitionPath p = refused(tmp.resolve("data"), 1);
        Path archive = tmp.resolve("salvage");
        salvage(p, archive);
        Map<String, byte[]> before = Trees.snapshot(tmp.resolve("data"), true);
        Damage.flipByte(archive.resolve(Salvager.BATCHES_LOG), Files.size(archive.resolve(Salvager.BATCHES_LOG)) / 2);
        Repairer.Outcome o = acceptLoss(p, archive);
        assertRefusedInOneLine(o, archive.resolve(Salvager.BATCHES_NDJSON) + " line ",
                ": the archived bytes do not hash to the line's xxh3 0x");
        Trees.assertSame(before, Trees.snapshot(tmp.resolve("data"), true), "nothing changed");
    }

    @Test
    void anArchiveCutShort_isRefused() throws Exception {
        PartitionPath p = refused(tmp.resolve("data"), 1);
        Path archive = tmp.resolve("salvage");
        salvage(p, archive);
        Path log = archive.resolve(Salvager.BATCHES_LOG);
        Damage.truncate(log, Files.size(log) - 1);
        assertRefusedInOneLine(acceptLoss(p, archive), archive.resolve(Salvager.BATCHES_NDJSON) + " line ",
                " bytes does not fit batches.log");
    }

    /**
     * The archive of other bytes under the same offsets (a partition of the same path rewritten from another seed,
     * damaged alike): its offsets cover every offset that verifies now, but not one record is the same.
     */
    @Test
    void anArchiveOfOtherBytesUnderTheSameOffsets_isRefused_andNothingChanges() throws Exception {
        Path data = tmp.resolve("data");
        PartitionPath other = refused(data, 2);
        Path archive = tmp.resolve("salvage");
        salvage(other, archive);
        Trees.delete(data);
        PartitionPath p = refused(data, 1);
        Map<String, byte[]> before = Trees.snapshot(data, true);
        Repairer.Outcome o = acceptLoss(p, archive);
        assertRefusedInOneLine(o, archive + ": does not hold the record at byte 0 of "
                + p.directory().resolve("00000000000000000000.log") + ", offsets 0..7, XXH3-64 0x", " byte for byte");
        Trees.assertSame(before, Trees.snapshot(data, true), "nothing changed");
    }

    @Test
    void theArchiveAnInterruptedRunWrote_isReused() throws Exception {
        PartitionPath p = refused(tmp.resolve("data"), 1);
        Path archive = tmp.resolve("salvage");
        salvage(p, archive);
        Repairer.Outcome o = acceptLoss(p, archive);
        assertEquals(0, o.exitCode(), () -> o.status() + " " + o.error() + " " + o.notes() + " " + o.loss());
        assertTrue(o.loss().archiveReused(), o.notes().toString());
        assertTrue(o.notes().stream().anyMatch(n -> n.startsWith("reusing the salvage archive " + archive + ": ")),
                o.notes().toString());
        Trees.assertClean(p, false, "after the cut");
    }

    /**
     * Review finding: a verifying record of another partition's id, or an empty one, is archived by a fresh salvage
     * (flagged foreign), so an archive without it does not stand for a new one.
     */
    @Test
    void anArchiveWithoutAVerifyingForeignRecord_isRefused() throws Exception {
        Path data = tmp.resolve("data");
        Path dir = Shapes.partitionDir(data);
        Files.createDirectories(dir);
        List<PartitionWriter.SegmentLayout> segments = PartitionWriter.fill(dir, PartitionWriter.Config.of(1)
                .segmentSize(16 << 10).messagesRequiredToSave(16).trackLayout(true), 200, 8, 200, 3);
        PartitionPath p = PartitionPath.of(dir);
        Path archive = tmp.resolve("salvage");
        salvage(p, archive); // before the foreign record lands
        PartitionWriter.SegmentLayout last = segments.get(segments.size() - 1);
        byte[] foreign = segtool.formats.log.RecordEncoder.encode(99, last.endOffset() + 1,
                1_800_000_000_000_000L, 1_800_000_000_000_000L, List.of(segtool.formats.log.Message.of(7,
                        "another partition's".getBytes())));
        Files.write(last.log(), foreign, java.nio.file.StandardOpenOption.APPEND);
        assertNotNull(FixpointTest.ENGINE.judge(p, false).refusal(), "ForeignBatch refuses it");
        Map<String, byte[]> before = Trees.snapshot(data, true);
        Repairer.Outcome o = acceptLoss(p, archive);
        assertRefusedInOneLine(o, archive + ": does not hold ", " byte for byte");
        Trees.assertSame(before, Trees.snapshot(data, true), "nothing changed");
        salvage(p, tmp.resolve("fresh"));
        assertEquals(0, acceptLoss(p, tmp.resolve("fresh")).exitCode(), "a fresh archive of the same bytes is reused");
    }

    /** A raw salvage has no messages.ndjson, which accept-loss writes and explain tells the operator to replay. */
    @Test
    void aRawArchiveWithoutMessages_isRefused() throws Exception {
        PartitionPath p = refused(tmp.resolve("data"), 1);
        Path archive = tmp.resolve("salvage");
        new Salvager(Salvager.Options.defaults("test").withMessages(false)).salvage(p, archive, new ArrayList<>());
        Map<String, byte[]> before = Trees.snapshot(tmp.resolve("data"), true);
        Repairer.Outcome o = acceptLoss(p, archive);
        assertEquals(2, o.exitCode(), () -> o.status() + " " + o.notes());
        assertTrue(o.loss().unsafe().startsWith(archive.resolve(Salvager.MESSAGES_NDJSON) + ": missing"),
                o.loss().unsafe());
        Trees.assertSame(before, Trees.snapshot(tmp.resolve("data"), true), "nothing changed");
    }

    /** Hostile environments (issue 16.5): --salvage-to a symlink, even to a reusable archive, is refused, not followed. */
    @Test
    void aSalvagePathThatIsASymlink_isRefused_neverFollowed() throws Exception {
        PartitionPath p = refused(tmp.resolve("data"), 1);
        Path archive = tmp.resolve("salvage");
        salvage(p, archive);
        Path link = Files.createSymbolicLink(tmp.resolve("salvage-link"), archive);
        Map<String, byte[]> before = Trees.snapshot(tmp.resolve("data"), true);
        Map<String, byte[]> archived = Trees.snapshot(archive, true);
        Repairer.Outcome o = acceptLoss(p, link);
        assertEquals(3, o.exitCode(), () -> o.status() + " " + o.error());
        assertEquals(link + ": is a symbolic link; salvage writes only a new directory", o.error());
        System.out.println("salvage path a symlink: " + o.error());
        Trees.assertSame(before, Trees.snapshot(tmp.resolve("data"), true), "nothing changed");
        Trees.assertSame(archived, Trees.snapshot(archive, true), "nothing written through the link");
    }
}
