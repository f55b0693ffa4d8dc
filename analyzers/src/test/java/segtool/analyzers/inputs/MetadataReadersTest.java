package segtool.analyzers.inputs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.metadata.Frontier;
import segtool.formats.metadata.HeaderKinds;
import segtool.formats.metadata.JournalBodies;
import segtool.formats.metadata.JournalEntry;
import segtool.formats.metadata.JournalReader;
import segtool.formats.metadata.MetadataFormatException;
import segtool.formats.metadata.Snapshot;
import segtool.formats.metadata.SnapshotReader;
import segtool.formats.metadata.Superblock;
import segtool.formats.metadata.TopicOption;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.JournalWriter;
import segtool.samples.metadata.Opt;
import segtool.samples.metadata.SnapshotWriter;
import segtool.samples.metadata.SpecBytes;
import segtool.samples.metadata.SuperblockWriter;

/** formats' metadata readers over METADATA.md's worked examples and over files the samples writers damage. */
class MetadataReadersTest {
    @TempDir
    Path dir;

    private Path write(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    @Test
    void snapshotExample28_decodesEveryFieldSegtoolNeeds() throws Exception {
        Snapshot s = SnapshotReader.read(write("snapshot.bin", SpecBytes.SNAPSHOT_2_8));
        assertEquals(3, s.version());
        assertEquals(7, s.sequenceNumber());
        assertEquals(1, s.revision());
        assertEquals(11264, s.writerRelease());
        assertEquals(Snapshot.Trailer.VERIFIED, s.trailer());
        assertEquals(0x928A02C8838E3E8BL, s.checksum());
        Snapshot.Stream stream = s.streams().get(0);
        assertEquals("orders", stream.name());
        Snapshot.Topic topic = stream.topics().get(0);
        assertEquals("events", topic.name());
        assertEquals(new Snapshot.Partition(0, 1, SnapshotWriter.T, 1, 0, 0, null), topic.partitions().get(0));
        assertEquals(9, topic.options().size());
        TopicOption d = topic.options().get(2);
        assertEquals("durability", d.keyText());
        assertTrue(d.valueIs(HeaderKinds.STRING, "persisted".getBytes(StandardCharsets.US_ASCII)));
        assertTrue(d.explicit());
        TopicOption m = topic.options().get(5);
        assertEquals("messages_required_to_save", m.keyText());
        assertTrue(m.valueIs(HeaderKinds.UINT32, new byte[] {0, 4, 0, 0}));
        assertFalse(m.explicit());
    }

    @Test
    void snapshotBadTrailer_refusedNamingTheChecksum() throws Exception {
        byte[] b = SpecBytes.SNAPSHOT_2_8.clone();
        b[0x100] ^= 1; // inside the payload
        var e = assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s", b)));
        assertEquals(647, e.position());
        assertTrue(e.getMessage().contains("ChecksumMismatch"), e.getMessage());
        byte[] c = SpecBytes.SNAPSHOT_2_8.clone();
        c[c.length - 1] = 1; // upper half of the u128 not zero
        assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s2", c)));
    }

    @Test
    void snapshotWithoutTrailer_readAndMarkedOldBuildsOnly() throws Exception {
        byte[] payload = SnapshotWriter.example28().payload();
        Snapshot s = SnapshotReader.read(write("s", payload));
        assertEquals(Snapshot.Trailer.ABSENT_NO_MAGIC, s.trailer());
        assertEquals("events", s.streams().get(0).topics().get(0).name());
    }

    @Test
    void snapshotUnknownVersion_refusedBeforeDecodingNamingTheVersion() throws Exception {
        SnapshotWriter w = SnapshotWriter.example28();
        w.version = 4;
        var e = assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s", w.file())));
        assertEquals(1, e.position());
        assertTrue(e.unsettled());
        assertTrue(e.reason().startsWith("snapshot format version 4 is not one METADATA.md specifies"), e.reason());
        w.version = 2;
        var old = assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s2", w.file())));
        assertTrue(old.reason().contains("older generation"), old.reason());
    }

    @Test
    void snapshotSevenElementPartitionUnderVersion3_refusedAsUnsettled() throws Exception {
        SnapshotWriter w = new SnapshotWriter().sequence(1).revision(1);
        w.stream(new SnapshotWriter.Stream(0, "s", SnapshotWriter.T, List.of(new SnapshotWriter.Topic(0, "t",
                SnapshotWriter.T, List.of(new SnapshotWriter.Partition(0, 1, SnapshotWriter.T, 1, 0, 0, 0L)),
                Opt.post4092()))));
        byte[] file = w.file();
        var e = assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s", file)));
        assertTrue(e.unsettled());
        assertEquals((byte) 0x97, file[(int) e.position()]);
    }

    @Test
    void snapshotTruncatedPayload_oneLineNoException() throws Exception {
        byte[] cut = SnapshotWriter.withTrailer(Arrays.copyOf(SnapshotWriter.example28().payload(), 300));
        var e = assertThrows(MetadataFormatException.class, () -> SnapshotReader.read(write("s", cut)));
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void snapshotHugeClaimedString_refusedWithoutAllocating() throws Exception {
        byte[] p = SnapshotWriter.example28().payload();
        // stream name "orders" (fixstr a6 at 0x1c) becomes str32 of 2^31 - 1 bytes
        assertEquals((byte) 0xa6, p[0x1c]);
        byte[] q = new byte[p.length + 4];
        System.arraycopy(p, 0, q, 0, 0x1c);
        q[0x1c] = (byte) 0xdb;
        q[0x1d] = 0x7f;
        q[0x1e] = (byte) 0xff;
        q[0x1f] = (byte) 0xff;
        q[0x20] = (byte) 0xff;
        System.arraycopy(p, 0x1d, q, 0x21, p.length - 0x1d);
        var e = assertThrows(MetadataFormatException.class,
                () -> SnapshotReader.read(write("s", SnapshotWriter.withTrailer(q))));
        assertEquals(0x1c, e.position());
    }

    @Test
    void journalExample48_scansAndDecodesTheCreate() throws Exception {
        byte[] file = new byte[626];
        System.arraycopy(SpecBytes.JOURNAL_4_8_HEADER, 0, file, 0, 256);
        System.arraycopy(SpecBytes.JOURNAL_4_8_BODY, 0, file, 256, 370);
        try (JournalReader r = JournalReader.open(write("journal.wal", file))) {
            JournalReader.Scan scan = r.scan();
            assertEquals(JournalReader.End.CLEAN, scan.end());
            JournalEntry e = scan.entries().get(0);
            assertEquals(2, e.op());
            assertEquals(2, e.commit());
            assertEquals(JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, e.operation());
            JournalBodies.CreateTopic c = JournalBodies.createTopic(r.body(e));
            assertEquals("events", c.name());
            assertEquals(0L, c.stream().number());
            assertEquals(1, c.explicit().size());
            assertEquals("durability", c.explicit().get(0).keyText());
            assertEquals(8, c.derived().size());
            assertEquals(List.of(new JournalBodies.Assignment(0, 1)), c.assignments());
            assertEquals(0L, c.createdView());
        }
    }

    @Test
    void journalBrokenChain_scanEndsThereAndACompleteEntryAfterIsRefusal() throws Exception {
        JournalWriter w = new JournalWriter();
        w.entry(1, 1, JournalEntry.CREATE_STREAM, JournalWriter.createStream("s"));
        w.parent = 12345; // op 2 does not chain to op 1
        w.entry(2, 2, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "t", 1));
        try (JournalReader r = JournalReader.open(write("j", w.file()))) {
            JournalReader.Scan scan = r.scan();
            assertEquals(1, scan.entries().size());
            assertEquals(JournalReader.End.TORN_TAIL, scan.end());
            assertTrue(scan.reason().contains("chain break"), scan.reason());
        }
        w.entry(3, 3, JournalEntry.CREATE_STREAM, JournalWriter.createStream("u"));
        try (JournalReader r = JournalReader.open(write("j2", w.file()))) {
            JournalReader.Scan scan = r.scan();
            assertEquals(JournalReader.End.REFUSED, scan.end());
            assertEquals(1, scan.entries().size());
        }
    }

    @Test
    void journalTornLastAppend_truncatedAtItsStart() throws Exception {
        JournalWriter w = new JournalWriter();
        w.entry(1, 1, JournalEntry.CREATE_STREAM, JournalWriter.createStream("s"));
        byte[] one = w.file();
        w.entry(2, 2, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "t", 1));
        byte[] torn = Arrays.copyOf(w.file(), w.file().length - 7);
        try (JournalReader r = JournalReader.open(write("j", torn))) {
            JournalReader.Scan scan = r.scan();
            assertEquals(JournalReader.End.TORN_TAIL, scan.end());
            assertEquals(one.length, scan.endPosition());
        }
    }

    @Test
    void journalBodyDamage_endsTheScan() throws Exception {
        JournalWriter w = new JournalWriter();
        byte[] e = w.entry(1, 1, JournalEntry.CREATE_STREAM, JournalWriter.createStream("stream"));
        byte[] f = w.file();
        f[e.length - 1] ^= 0x20;
        try (JournalReader r = JournalReader.open(write("j", f))) {
            JournalReader.Scan scan = r.scan();
            assertEquals(0, scan.entries().size());
            assertEquals("op 1: body checksum mismatch", scan.reason());
        }
    }

    @Test
    void superblockExample53_andSlotsThatDisagree() throws Exception {
        Path p = dir.resolve("p");
        Files.createDirectories(p);
        Files.write(p.resolve("superblock.a"), SpecBytes.SUPERBLOCK_5_3);
        Superblock.Pair one = Superblock.read(p);
        assertEquals(Superblock.Pair.Result.VALID, one.result());
        assertEquals(5, one.state().offsetFrontier());
        assertEquals(1, one.state().replicaCount());
        SuperblockWriter b = SuperblockWriter.example53();
        b.sequence = 2;
        b.commitMax = 9;
        Files.write(p.resolve("superblock.b"), b.file());
        Superblock.Pair two = Superblock.read(p);
        assertEquals("superblock.b", two.winner());
        assertEquals(9, two.state().commitMax());
        byte[] bad = b.file();
        bad[40] ^= 1;
        Files.write(p.resolve("superblock.b"), bad);
        Superblock.Pair broken = Superblock.read(p);
        assertEquals(Superblock.Pair.Result.UNREADABLE, broken.result());
        assertTrue(broken.reason().startsWith("superblock.b: checksum"), broken.reason());
    }

    @Test
    void frontierExample69_winnerAndCheckpoint() throws Exception {
        byte[] spec = Arrays.copyOf(SpecBytes.FRONTIER_6_9_SLOT0_HEAD, 4096);
        Frontier.Slot s0 = Frontier.slot(spec, 0);
        assertTrue(s0.verified(), s0.defect());
        assertEquals(2, s0.sequence());
        assertEquals(new Frontier.Position(0, 0, 1145, 5), s0.segments().checkpoint());
        Frontier.File f = Frontier.read(write("frontier", FrontierWriter.example69().file(2, 1)));
        assertEquals(0, f.winner().index());
        assertNotNull(f.winner().segments());
    }

    @Test
    void frontierSlotsThatDisagree_highestVerifiedSequenceWins() throws Exception {
        FrontierWriter w = FrontierWriter.example69();
        byte[] slot0 = w.slot(2);
        w.checkpoint(0, 2000, 9);
        byte[] slot1 = w.slot(3);
        byte[] file = new byte[8192];
        System.arraycopy(slot0, 0, file, 0, 4096);
        System.arraycopy(slot1, 0, file, 4096, 4096);
        assertEquals(1, Frontier.read(write("f1", file)).winner().index());
        file[4096 + 500] = 1; // slot 1 no longer verifies: slot 0 wins
        Frontier.File f = Frontier.read(write("f2", file));
        assertEquals(0, f.winner().index());
        assertFalse(f.slots().get(1).verified());
        assertEquals(1145, f.winner().segments().checkpoint().length());
    }

    @Test
    void frontierWithoutSegmentState_noCheckpoint_andUnknownMagicNamed() throws Exception {
        FrontierWriter w = FrontierWriter.example69().noSegments();
        w.segmentReferences = 0;
        Frontier.File f = Frontier.read(write("f", w.file(2, 1)));
        assertNull(f.winner().segments());
        w.magic = "IGGYWAL4";
        Frontier.File g = Frontier.read(write("g", w.file(2, 1)));
        assertNull(g.winner());
        assertEquals("IGGYWAL4", g.slots().get(0).magic());
        assertThrows(MetadataFormatException.class, () -> Frontier.read(write("h", new byte[100])));
        assertNull(Frontier.read(write("empty", new byte[0])));
    }

    @Test
    void optionsBlock_duplicateKeyRefused() {
        byte[] dup = JournalWriter.updateTopic(0, 0, "t", List.of(Opt.string("a", "x", true),
                Opt.string("a", "y", true)));
        var e = assertThrows(JournalBodies.Malformed.class, () -> JournalBodies.updateTopic(dup));
        assertTrue(e.getMessage().contains("duplicate"));
        assertArrayEquals(new byte[] {1, 4, 0, 0, 0, 0}, JournalWriter.id(0));
    }
}
