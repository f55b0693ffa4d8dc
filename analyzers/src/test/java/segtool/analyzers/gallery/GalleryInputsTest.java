package segtool.analyzers.gallery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import segtool.analyzers.inputs.DurabilitySource;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.recovery.SegmentReport;

/** The metadata gallery shapes as checked in: the inputs scan reads from them (issue 11). */
class GalleryInputsTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    private static List<PartitionInputs> inputs(String shape) throws Exception {
        return new InputsResolver(InputsResolver.CommandLine.none())
                .resolve(Targets.resolve(GALLERY.resolve(shape)).partitions());
    }

    @Test
    void metadataDurability_topic0PersistedTopic1Replicated_fromTheSnapshot() throws Exception {
        List<PartitionInputs> in = inputs("metadata-durability");
        assertEquals("durability=persisted (from metadata/snapshot.bin)", in.get(0).durability().text());
        assertEquals("durability=replicated (from metadata/snapshot.bin)", in.get(1).durability().text());
    }

    @Test
    void metadataJournalTopic_topic1FromTheJournal() throws Exception {
        List<PartitionInputs> in = inputs("metadata-journal-topic");
        assertEquals(DurabilitySource.SNAPSHOT, in.get(0).durability().source());
        assertEquals("durability=persisted (from metadata/journal.wal)", in.get(1).durability().text());
    }

    @Test
    void legacyEnforceFsync_noVerdict() throws Exception {
        PartitionInputs in = inputs("metadata-legacy-enforce-fsync").get(0);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_NODE, in.refusal());
        assertTrue(in.refusalLine().contains("stores enforce_fsync = true"), in.refusalLine());
    }

    @Test
    void walCheckpoint_fromTheFrontier() throws Exception {
        PartitionInputs in = inputs("wal-checkpoint").get(0);
        assertTrue(in.judgeable(), in.refusalLine());
        assertEquals(new Checkpoint(0, 1145, 5), in.wal().checkpoint());
        assertTrue(in.durability().durable());
    }

    @Test
    void walOpen_judgedOnTheDirectoryTheOpenLeaves() throws Exception {
        PartitionInputs in = inputs("wal-open").get(0);
        assertTrue(in.judgeable(), in.refusalLine());
        assertEquals(List.of("truncate prepares-1/segment-0-0.log from 1245 to 1145 bytes (tail.length)",
                "replace 00000000000000000000.log (another inode, 1145 bytes) by the WAL's retained inode "
                        + "prepares-1/segment-0-0.log (through 00000000000000000000.log.tmp)"), in.wal().openActions());
        assertTrue(in.wal().openChangesDirectory());
        for (boolean durable : new boolean[] {false, true}) {
            PartitionReport r = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)
                    .withCheckpoint(in.wal().checkpoint())).judge(in.partition(), durable);
            assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome(), "durable=" + durable);
            SegmentReport s = r.segments().get(0);
            assertEquals(SegmentReport.Status.INDEX_REBUILT, s.status());
            assertEquals(1145, s.logLength());
            assertEquals(1145, s.size());
            assertEquals(4, s.endOffset());
            assertEquals(24, s.indexSize());
        }
        PartitionReport raw = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1).withCheckpoint(
                new Checkpoint(0, 1145, 5))).judge(in.partition(), true);
        assertEquals(new Refusal.InteriorDamage(0, 315, 782), raw.refusal(), "R 9 on the public file as it is");
    }
}
