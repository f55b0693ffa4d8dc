package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentLog;
import segtool.analyzers.recovery.Sweep;
import segtool.formats.hash.Xxh3;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.FrameHeader;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;

/**
 * The inspection commands judge files, batches and index entries as the engine does: the three disagreements issue 9
 * found (a symlink the sweep deletes, find's frame index, Matches' wording), each held to the engine's own answer.
 */
class InspectAgreesWithEngineTest {
    @TempDir
    static Path root;

    static Partitions healthy;
    static Partitions foreign;

    @BeforeAll
    static void build() {
        healthy = Partitions.healthy(root, "healthy");
        foreign = Partitions.foreign(root);
    }

    /**
     * A symbolic link to a directory named like scratch or an orphan index: the sweep does not follow it and deletes
     * the link (RECOVERY 3); segments used to follow it and call it an ignored directory.
     */
    @Test
    void symlinkToADirectory_segmentsSaysWhatTheSweepDoes() throws IOException {
        Partitions p = Partitions.healthy(root, "links");
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        Path staging = Files.createSymbolicLink(p.dir.resolve("00000000000000000999.index.staging"), elsewhere);
        Path orphan = Files.createSymbolicLink(p.dir.resolve("00000000000000000777.index"), elsewhere);
        Sweep sweep = Sweep.of(p.dir);
        assertTrue(sweep.deletes(staging) && sweep.deletes(orphan), "the engine deletes both links");

        Cli.Result r = Cli.run("segments", p.dir);
        assertTrue(r.out().contains("00000000000000000999.index.staging (symbolic link): scratch, deleted at boot"),
                r::toString);
        assertTrue(r.out().contains("00000000000000000777.index (symbolic link): orphan (no 00000000000000000777.log),"
                + " deleted at boot"), r::toString);
        assertFalse(r.out().contains("(ignored by recovery)"), r::toString);
    }

    /** A batch of three messages whose offset deltas are 0, 2, 1 (F 2.2 does not tie a delta to the frame index). */
    static Path deltas() throws IOException {
        Path dir = Partitions.partitionDir(root, "deltas", 1);
        Files.createDirectories(dir);
        long ts = 1_700_000_000_000_000L;
        byte[] record = RecordEncoder.encode(1, 0, ts, ts, List.of(
                Message.of(10, "first".getBytes(StandardCharsets.UTF_8)),
                Message.of(11, "second".getBytes(StandardCharsets.UTF_8)),
                Message.of(12, "third".getBytes(StandardCharsets.UTF_8))));
        int pos = BatchHeader.LENGTH;
        long[] delta = {0, 2, 1};
        for (int i = 0; i < 3; i++) {
            int length = FrameHeader.LENGTH + (int) LittleEndian.u32(record, pos + FrameHeader.PAYLOAD_LENGTH_OFFSET);
            LittleEndian.putU32(record, pos + FrameHeader.OFFSET_DELTA_OFFSET, delta[i]);
            LittleEndian.putU64(record, pos + FrameHeader.CHECKSUM_OFFSET,
                    Xxh3.hash(record, pos + FrameHeader.ID_OFFSET, length - FrameHeader.ID_OFFSET));
            pos += length;
        }
        RecordEncoder.restamp(record);
        Files.write(SegmentFiles.log(dir, 0), record);
        byte[] index = new byte[IndexEntry.LENGTH];
        new IndexEntry(0, ts, 0).write(index, 0);
        Files.write(SegmentFiles.index(dir, 0), index);
        return dir;
    }

    /** find and messages name the same message for an offset: base_offset + offset_delta, never the frame index. */
    @Test
    void findNamesAMessageByItsOffset_asMessagesDoes() throws IOException {
        Path dir = deltas();
        Cli.Result m = Cli.run("messages", dir);
        assertEquals(ExitCodes.CLEAN, m.exit(), m::toString);
        for (long offset = 0; offset < 3; offset++) {
            Matcher mf = Pattern.compile("offset " + offset + "  id (\\d+)  batch @0 message (\\d+) of 3  frame @(\\d+)")
                    .matcher(m.out());
            assertTrue(mf.find(), m::toString);
            Cli.Result f = Cli.run("find", dir, "--offset", offset);
            assertEquals(ExitCodes.CLEAN, f.exit(), f::toString);
            assertTrue(f.out().contains("  message " + mf.group(2) + " of the batch: frame at byte " + mf.group(3)
                    + ", id " + mf.group(1) + ","), "offset " + offset + ":\n" + f + "\n" + m);
        }
        // the frame at index 1 carries offset 2, and the one at index 2 offset 1
        assertTrue(Cli.run("find", dir, "--offset", 1).out().contains("message 2 of the batch"));
    }

    /** What the engine's Matches says of entry {@code i} of segment 0 of {@code p}. */
    static String engineMismatch(Partitions p, long partitionId, int i) throws IOException {
        Path log = p.segment(0).log();
        try (SegmentLog s = SegmentLog.open(log, p.segment(0).startOffset(), partitionId, Files.size(log),
                RecoveryOptions.defaults().withThreads(1))) {
            return s.mismatch(p.segment(0).entries().get(i));
        }
    }

    /** index and batches word a failing Matches exactly as the engine does (they used to add ", not 2"). */
    @Test
    void indexAndBatches_wordMatchesAsTheEngine() throws IOException {
        String expected = engineMismatch(foreign, 2, 0);
        assertEquals("batch at 0 carries partition_id 1", expected);
        Cli.Result index = Cli.run("index", foreign.segment(0).log(), "--limit", 1);
        assertEquals(ExitCodes.CHANGES, index.exit(), index::toString);
        assertTrue(index.out().contains("no: " + expected + "\n"), index::toString);
        Cli.Result batches = Cli.run("batches", foreign.segment(0).log(), "--limit", 1);
        assertTrue(batches.out().contains("index entry 0 (" + expected + ")"), batches::toString);
        // and where Matches holds, the engine and index agree too
        assertEquals(null, engineMismatch(healthy, 1, 3));
        assertTrue(Cli.run("index", healthy.segment(0).log(), "--no-verify").out().contains("yes (header)"));
    }
}
