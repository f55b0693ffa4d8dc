package segtool.analyzers.inputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.layout.Targets;
import segtool.formats.metadata.JournalEntry;
import segtool.formats.naming.PartitionPath;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.JournalWriter;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;
import segtool.samples.metadata.SnapshotWriter;
import segtool.samples.metadata.SuperblockWriter;

/** D and the checkpoint resolved from a data directory the metadata writers built (issue 11's test list). */
class InputsResolverTest {
    @TempDir
    Path tmp;

    private static final Opt PERSISTED = Opt.string("durability", "persisted", true);

    private static PartitionInputs resolve(Path partition, InputsResolver.CommandLine cli) {
        return new InputsResolver(cli).resolve(PartitionPath.of(partition));
    }

    private static PartitionInputs resolve(Path partition) {
        return resolve(partition, InputsResolver.CommandLine.none());
    }

    private static PartitionReport judge(PartitionInputs in) {
        RecoveryOptions o = RecoveryOptions.defaults().withThreads(1);
        if (in.wal().checkpoint() != null) {
            o = o.withCheckpoint(in.wal().checkpoint());
        }
        return new RecoveryEngine(o).judge(in.partition(), in.durability().durable());
    }

    @Test
    void persistedAndReplicatedTopics_sameTornTailShape_verdictsDifferWithD() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(5, 2, List.of(
                NodeDir.topic(0, "durable", Opt.post4092(PERSISTED), 1),
                NodeDir.topic(1, "lenient", Opt.post4092(), 2))).file());
        Path durable = n.partition(0, 0, 0, 1);
        Path lenient = n.partition(0, 1, 0, 2);
        NodeDir.appendZeros(durable, 100);
        NodeDir.appendZeros(lenient, 100);
        PartitionInputs d = resolve(durable);
        PartitionInputs l = resolve(lenient);
        assertTrue(d.durability().durable());
        assertEquals(DurabilitySource.SNAPSHOT, d.durability().source());
        assertEquals("durability=persisted (from metadata/snapshot.bin)", d.durability().text());
        assertFalse(l.durability().durable());
        assertEquals("durability=replicated (from metadata/snapshot.bin)", l.durability().text());
        SegmentReport sd = judge(d).segments().get(0);
        SegmentReport sl = judge(l).segments().get(0);
        assertEquals(SegmentReport.Status.TRUNCATED, sd.status());
        assertEquals(SegmentReport.Status.TRUNCATED, sl.status());
        assertEquals(1145, sd.size());
        assertEquals(72, sd.indexSize());   // durable keeps the three-entry index
        assertEquals(24, sl.indexSize());   // lenient rebuilds it to one entry
        assertNull(d.wal().checkpoint());
        assertEquals("checkpoint=none (no prepares-1/ directory)", d.wal().text());
    }

    @Test
    void topicOnlyInTheJournal_foundByReplayFromTheSnapshotSequence() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(7, 1, List.of(NodeDir.topic(0, "old", Opt.post4092(), 1))).file());
        JournalWriter j = new JournalWriter();
        j.entry(6, 6, JournalEntry.CREATE_STREAM, JournalWriter.createStream("ignored, covered by the snapshot"));
        j.entry(7, 7, JournalEntry.CREATE_STREAM, JournalWriter.createStream("also covered"));
        j.entry(8, 8, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "new", 1, PERSISTED));
        n.journal(j.file());
        n.superblock("a", solo(7, n));
        Path p = n.partition(0, 1, 0, 2);
        PartitionInputs in = resolve(p);
        assertTrue(in.judgeable(), in.refusalLine());
        assertTrue(in.durability().durable());
        assertEquals(DurabilitySource.JOURNAL, in.durability().source());
        assertEquals("durability=persisted (from metadata/journal.wal)", in.durability().text());
        // the old topic is untouched by replay
        assertEquals(DurabilitySource.SNAPSHOT, resolve(n.partition(0, 0, 0, 1)).durability().source());
    }

    static byte[] solo(long checkpointOp, NodeDir n) throws Exception {
        SuperblockWriter s = new SuperblockWriter();
        s.checkpointOp = checkpointOp;
        s.checkpointChecksum = segtool.formats.metadata.SnapshotReader.read(n.metadata().resolve("snapshot.bin"))
                .checksum();
        s.offsetFrontier = 0;
        return s.file();
    }

    @Test
    void journalWithBrokenChain_replayStopsAndTheLaterTopicIsUnknown() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        JournalWriter j = new JournalWriter();
        j.entry(1, 1, JournalEntry.CREATE_STREAM, JournalWriter.createStream("s0"));
        j.entry(2, 2, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "a", 1));
        j.parent = 99;
        j.entry(3, 3, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "b", 1, PERSISTED));
        n.journal(j.file());
        Path a = n.partition(0, 0, 0, 1);
        Path b = n.partition(0, 1, 0, 2);
        PartitionInputs ia = resolve(a);
        assertTrue(ia.judgeable(), ia.refusalLine());
        assertEquals(DurabilitySource.JOURNAL, ia.durability().source());
        assertTrue(ia.notes().stream().anyMatch(s -> s.contains("chain break")), ia.notes().toString());
        PartitionInputs ib = resolve(b);
        assertEquals(PartitionInputs.Refusal.UNDECIDED, ib.refusal());
        assertTrue(ib.refusalLine().startsWith("stream 0, topic 1 is in neither"), ib.refusalLine());
        PartitionInputs forced = resolve(b, new InputsResolver.CommandLine(true, false, null));
        assertEquals(DurabilitySource.COMMAND_LINE, forced.durability().source());
    }

    @Test
    void legacyEnforceFsyncTrue_serverRefusesToStart_noVerdict() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(3, 2, List.of(
                NodeDir.topic(0, "fine", Opt.post4092(), 1),
                NodeDir.topic(1, "legacy", Opt.pre4092(true, true), 2))).file());
        PartitionInputs in = resolve(n.partition(0, 0, 0, 1));
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_NODE, in.refusal());
        assertEquals("stream 0, topic 1 (legacy) stores enforce_fsync = true: the server refuses to start "
                + "(UnsupportedOptionKey(\"enforce_fsync\"), METADATA 3.3); since #4092 the setting is the topic's "
                + "create-only durability option", in.refusalLine());
    }

    @Test
    void missingDurabilityKey_preTopic_DFalseFromNoDurabilityKey() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(3, 1, List.of(NodeDir.topic(0, "pre", Opt.pre4092(false, false), 1))).file());
        PartitionInputs in = resolve(n.partition(0, 0, 0, 1));
        assertFalse(in.durability().durable());
        assertEquals(DurabilitySource.NO_DURABILITY_KEY, in.durability().source());
        assertEquals("durability=replicated (from metadata/snapshot.bin; no durability key: a topic from before "
                + "#4092, D is false)", in.durability().text());
    }

    @Test
    void unknownSnapshotVersion_undecidedWithOneLine() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        SnapshotWriter w = NodeDir.oneStream(3, 1, List.of(NodeDir.topic(0, "t", Opt.post4092(PERSISTED), 1)));
        w.version = 4;
        n.snapshot(w.file());
        PartitionInputs in = resolve(n.partition(0, 0, 0, 1));
        assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal());
        assertTrue(in.refusalLine().startsWith("metadata/snapshot.bin @ 1: snapshot format version 4 is not one"),
                in.refusalLine());
    }

    @Test
    void badTrailer_serverRefusesToStart() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        byte[] f = SnapshotWriter.example28().file();
        f[f.length - 16] ^= 1;
        n.snapshot(f);
        PartitionInputs in = resolve(n.partition(0, 0, 0, 1));
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_NODE, in.refusal());
        assertTrue(in.refusalLine().contains("ChecksumMismatch"), in.refusalLine());
    }

    @Test
    void noMetadataAtAll_commandLineFallbackSaidOnTheVerdict() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        Path p = n.partition(0, 0, 0, 1);
        PartitionInputs def = resolve(p);
        assertEquals(DurabilitySource.COMMAND_LINE, def.durability().source());
        assertEquals("durability=replicated (from the --durability default; no metadata/ in " + n.root.toAbsolutePath()
                + ")", def.durability().text());
        PartitionInputs given = resolve(p, new InputsResolver.CommandLine(true, false, null));
        assertTrue(given.durability().durable());
    }

    @Test
    void commandLineContradictingMetadata_refusedUnlessOverridden() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        PartitionInputs no = resolve(p, new InputsResolver.CommandLine(false, false, null));
        assertEquals(PartitionInputs.Refusal.CONTRADICTS_METADATA, no.refusal());
        assertTrue(no.refusalLine().startsWith("--durability=replicated contradicts the topic's stored durability "
                + "(metadata/snapshot.bin: durability = string \"persisted\" (explicit), so persisted)"),
                no.refusalLine());
        PartitionInputs yes = resolve(p, new InputsResolver.CommandLine(false, true, null));
        assertFalse(yes.durability().durable());
        assertTrue(yes.durability().overridden());
        assertTrue(yes.durability().text().endsWith("OVERRIDE: metadata says persisted"), yes.durability().text());
        PartitionInputs agrees = resolve(p, new InputsResolver.CommandLine(true, false, null));
        assertEquals(DurabilitySource.SNAPSHOT, agrees.durability().source());
    }

    @Test
    void frontierWithCheckpoint_example69_judgedAsRecovery9() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        NodeDir.wal(p, 1, FrontierWriter.example69());
        PartitionInputs in = resolve(p);
        assertTrue(in.judgeable(), in.refusalLine());
        assertEquals(new Checkpoint(0, 1145, 5), in.wal().checkpoint());
        assertEquals("checkpoint=(0, 1145, 5) (from prepares-1/frontier slot 0, sequence 2)", in.wal().text());
        PartitionReport r = judge(in);
        assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome());
        SegmentReport s = r.segments().get(0);
        assertEquals(1145, s.size());
        assertEquals(24, s.indexSize()); // 6.9: the index is replaced by the rebuilt [(0, tA, 0)]
    }

    @Test
    void frontierWithoutCheckpoint_noSegmentState() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        FrontierWriter w = FrontierWriter.example69().noSegments();
        w.segmentReferences = 0;
        NodeDir.wal(p, 1, w);
        PartitionInputs in = resolve(p);
        assertNull(in.wal().checkpoint());
        assertEquals("checkpoint=none (prepares-1/frontier slot 0, sequence 2: no segment state)", in.wal().text());
    }

    @Test
    void frontierSlotsDisagree_highestVerifiedWins_andTheFailedSlotIsNoted() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        Path wal = NodeDir.wal(p, 1, FrontierWriter.example69());
        byte[] f = Files.readAllBytes(wal.resolve("frontier"));
        f[100] = 7; // slot 0 (sequence 2) no longer verifies; slot 1 (sequence 1) wins
        Files.write(wal.resolve("frontier"), f);
        PartitionInputs in = resolve(p);
        assertEquals("checkpoint=(0, 1145, 5) (from prepares-1/frontier slot 1, sequence 1)", in.wal().text());
        assertTrue(in.notes().get(0).startsWith("prepares-1/frontier slot 0 does not verify"), in.notes().toString());
        f[4096 + 100] = 7;
        Files.write(wal.resolve("frontier"), f);
        PartitionInputs none = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, none.refusal());
        assertTrue(none.refusalLine().startsWith("PrepareWal: prepares-1/frontier: no slot verifies"));
    }

    @Test
    void frontierUnknownMagic_refusedByName() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        FrontierWriter w = FrontierWriter.example69();
        w.magic = "IGGYWAL4";
        NodeDir.wal(p, 1, w);
        PartitionInputs in = resolve(p);
        assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal());
        assertEquals("prepares-1/frontier slot 0: unknown WAL format, magic IGGYWAL4 (its layout is UNSETTLED, "
                + "METADATA 8 U2): not decoded", in.refusalLine());
    }

    @Test
    void walOpenWouldTruncateTheTail_judgedOnTheCutDirectory() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        NodeDir.wal(p, 1, FrontierWriter.example69().checkpoint(0, 782, 4));
        PartitionInputs in = resolve(p);
        assertTrue(in.judgeable(), in.refusalLine());
        assertEquals("truncate prepares-1/segment-0-0.log from 1145 to 782 bytes (tail.length)",
                in.wal().openActions().get(0));
        assertEquals(782, judge(in).segments().get(0).logLength());
        NodeDir m = new NodeDir(tmp.resolve("node2"));
        m.snapshot(SnapshotWriter.example28().file());
        Path q = m.partition(0, 0, 0, 1);
        NodeDir.wal(q, 1, FrontierWriter.example69().checkpoint(0, 2000, 9));
        PartitionInputs lost = resolve(q);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, lost.refusal(), lost.refusalLine());
        assertEquals("PrepareWal: prepares-1/segment-0-0.log holds 1145 bytes, fewer than the 2000 the frontier "
                + "published (lost durably published bytes)", lost.refusalLine());
    }

    @Test
    void zeroBasedIds_discoveredAsPartitionsOfTheDataDirectory() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        n.partition(0, 0, 0, 1);
        Targets t = Targets.resolve(n.root);
        assertEquals(1, t.partitions().size());
        PartitionPath p = t.partitions().get(0);
        assertEquals(List.of(0L, 0L, 0L), List.of(p.streamId(), p.topicId(), p.partitionId()));
        assertEquals(n.root.toAbsolutePath().normalize(), InputsResolver.dataDirOf(p));
    }

    @Test
    void createdRevisionDisagrees_undecidedUnlessDurabilityGiven() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 3);
        PartitionInputs in = resolve(p);
        assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal());
        assertTrue(in.refusalLine().startsWith("created.revision says 3, the metadata's created_revision is 1"),
                in.refusalLine());
    }

    @Test
    void emptySuperblocksWithOpsAboveTheCommitWatermark_soloVsClusterUnsettled() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        JournalWriter j = new JournalWriter();
        j.entry(1, 1, JournalEntry.CREATE_STREAM, JournalWriter.createStream("s0"));
        j.entry(2, 1, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "t", 1, PERSISTED));
        n.journal(j.file());
        Path p = n.partition(0, 0, 0, 1);
        PartitionInputs in = resolve(p);
        assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal());
        assertTrue(in.refusalLine().contains("METADATA 8 U7"), in.refusalLine());
        SuperblockWriter cluster = new SuperblockWriter();
        cluster.replicaCount = 3;
        cluster.offsetFrontier = 0;
        n.superblock("a", cluster.file());
        PartitionInputs c = resolve(p);
        assertEquals(PartitionInputs.Refusal.UNDECIDED, c.refusal());
        assertTrue(c.refusalLine().startsWith("stream 0, topic 0 is in neither"), c.refusalLine());
        cluster.replicaCount = 1;
        n.superblock("a", cluster.file());
        assertTrue(resolve(p).durability().durable());
    }

    @Test
    void superblockCheckpointPastTheSnapshot_serverRefusesToStart() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        SuperblockWriter s = new SuperblockWriter();
        s.checkpointOp = 9;
        n.superblock("b", s.file());
        PartitionInputs in = resolve(n.partition(0, 0, 0, 1));
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_NODE, in.refusal());
        assertEquals("metadata/superblock.b: checkpoint_op 9 is past the snapshot's sequence_number 7 (snapshot "
                + "lost): the server refuses to start", in.refusalLine());
    }

    /**
     * METADATA 5.2 (lines 765-768) and 1.3 step 3: before the WAL open and segment recovery the server opens the
     * partition's own superblock pair; an unreadable pair (a corrupt slot never falls back to the other), an unknown
     * version or an undecodable payload tombstones the partition with every file left in place. The segments here are
     * FORMAT 8's clean A | B | C, so segment recovery alone would accept them.
     */
    @Test
    void partitionSuperblockCorrupt_serverTombstonesThePartition() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        Files.write(p.resolve("superblock.a"), SuperblockWriter.example53().file());
        PartitionInputs fine = resolve(p);
        assertTrue(fine.judgeable(), fine.refusalLine());
        byte[] bad = SuperblockWriter.example53().file();
        bad[40] ^= 1;  // inside the payload: the slot's XXH3 at byte 94 no longer matches
        Files.write(p.resolve("superblock.b"), bad);
        PartitionInputs in = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, in.refusal(), in.refusalLine());
        assertTrue(in.refusalLine().startsWith("superblock.b: checksum 0x"), in.refusalLine());
        assertTrue(in.refusalLine().endsWith("the partition superblock is unreadable: the server tombstones this "
                + "partition and leaves its files in place (METADATA 5.2)"), in.refusalLine());
        SuperblockWriter wide = SuperblockWriter.example53();
        wide.sequence = 2;  // the newer slot wins the pair
        wide.logView = 3;   // log_view > view: undecodable
        Files.write(p.resolve("superblock.b"), wide.file());
        PartitionInputs undecodable = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, undecodable.refusal(),
                undecodable.refusalLine());
        assertTrue(undecodable.refusalLine().startsWith("superblock.b: log_view 3 > view 2"),
                undecodable.refusalLine());
    }

    /**
     * METADATA 2.1 (the [M] row: a file whose last 20 bytes lack the magic is all payload, accepted unverified, "checksum
     * computed over the whole file") with 2.7: the pairing compares the superblock's checkpoint_checksum with that
     * checksum, not with 0. Snapshot = the 643-byte payload of the 2.8 example without its trailer (sequence 7).
     */
    @Test
    void trailerlessSnapshot_pairedByTheChecksumOfTheWholeFile() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        byte[] payload = SnapshotWriter.example28().payload();
        n.snapshot(payload);
        Path p = n.partition(0, 0, 0, 1);
        SuperblockWriter s = new SuperblockWriter();
        s.checkpointOp = 7;
        s.checkpointChecksum = segtool.formats.hash.Xxh3.hash(payload, 0, payload.length);
        s.offsetFrontier = 0;
        n.superblock("a", s.file());
        PartitionInputs paired = resolve(p);
        assertTrue(paired.judgeable(), paired.refusalLine());
        assertTrue(paired.durability().durable());
        assertTrue(paired.notes().get(0).startsWith("metadata/snapshot.bin has no trailer"), paired.notes().toString());
        s.checkpointChecksum = 0;
        n.superblock("a", s.file());
        PartitionInputs unpaired = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_NODE, unpaired.refusal(), unpaired.refusalLine());
        assertEquals("metadata/superblock.a: checkpoint_checksum does not match the snapshot trailer at op 7: the "
                + "server refuses to start", unpaired.refusalLine());
    }

    /**
     * METADATA 6.3, the {@code length} row (offset 40): the published bytes of {@code prepares-<generation>.wal}, and
     * "the file must be at least this long". A data file shorter than the winning slot's length (here 100 bytes, then
     * none at all, against 4,096) is not a WAL the server opens, so there is no segment recovery to predict.
     */
    @Test
    void walDataFileShorterThanThePublishedLength_prepareWalRefusal() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        Path wal = NodeDir.wal(p, 1, FrontierWriter.example69());
        Files.write(wal.resolve("prepares-0.wal"), new byte[100]);
        PartitionInputs shortFile = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, shortFile.refusal(), shortFile.refusalLine());
        assertEquals("PrepareWal: prepares-1/prepares-0.wal holds 100 bytes, fewer than the 4096 that "
                + "prepares-1/frontier slot 0 published (METADATA 6.3): the WAL does not open", shortFile.refusalLine());
        Files.delete(wal.resolve("prepares-0.wal"));
        PartitionInputs missing = resolve(p);
        assertEquals(PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, missing.refusal(), missing.refusalLine());
        assertEquals("PrepareWal: prepares-1/prepares-0.wal holds 0 bytes (missing), fewer than the 4096 that "
                + "prepares-1/frontier slot 0 published (METADATA 6.3): the WAL does not open", missing.refusalLine());
    }

    /**
     * METADATA 6.5: "With byte 99 = 0 (or no frontier) recovery runs without a checkpoint". A frontier whose winning
     * slot verifies and carries no segment state is the server's own answer, so a --wal-checkpoint beside it
     * contradicts the partition's WAL (as --durability contradicting the stored option does), while a partition
     * without prepares-<rev>/ (copied out on its own) still takes the command line's.
     */
    @Test
    void walCheckpointOnTheCommandLine_contradictsAFrontierWithoutSegmentState() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(SnapshotWriter.example28().file());
        Path p = n.partition(0, 0, 0, 1);
        InputsResolver.CommandLine cp = new InputsResolver.CommandLine(null, false, new Checkpoint(0, 782, 4));
        PartitionInputs copied = resolve(p, cp);
        assertTrue(copied.judgeable(), copied.refusalLine());
        assertEquals(new Checkpoint(0, 782, 4), copied.wal().checkpoint());
        FrontierWriter w = FrontierWriter.example69().noSegments();
        w.segmentReferences = 0;
        NodeDir.wal(p, 1, w);
        PartitionInputs in = resolve(p, cp);
        assertEquals(PartitionInputs.Refusal.CONTRADICTS_METADATA, in.refusal(), in.refusalLine());
        assertEquals("--wal-checkpoint contradicts checkpoint=none (prepares-1/frontier slot 0, sequence 2: no segment "
                + "state): the server recovers this partition without a checkpoint (METADATA 6.5)", in.refusalLine());
    }
}
