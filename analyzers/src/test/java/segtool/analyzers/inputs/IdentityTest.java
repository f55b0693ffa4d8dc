package segtool.analyzers.inputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.metadata.JournalEntry;
import segtool.formats.naming.PartitionPath;
import segtool.samples.metadata.JournalWriter;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;
import segtool.samples.metadata.SnapshotWriter;

/** A partition's incarnation across replicas, (created_revision, purge_generation), METADATA 2.6 and FORMAT 7. */
class IdentityTest {
    @TempDir
    Path tmp;

    private static Identity identity(Path partition) throws Exception {
        return new InputsResolver(InputsResolver.CommandLine.none()).identity(PartitionPath.of(partition));
    }

    private static void purgeGen(Path partition, long applied, long revision) throws Exception {
        Files.write(partition.resolve("purge.gen"), ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(applied).putLong(revision).array());
    }

    @Test
    void fromTheSnapshot_revisionAndGeneration() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        SnapshotWriter.Topic t = new SnapshotWriter.Topic(0, "t", SnapshotWriter.T,
                List.of(new SnapshotWriter.Partition(0, 1, SnapshotWriter.T, 7, 0, 3, null)), Opt.post4092());
        n.snapshot(NodeDir.oneStream(3, 7, List.of(t)).file());
        Path p = n.partition(0, 0, 0, 7);
        Identity id = identity(p);
        assertEquals(new Identity(7L, 3L, "metadata"), id);
        assertEquals(id, new InputsResolver(InputsResolver.CommandLine.none()).resolve(PartitionPath.of(p)).identity());
        purgeGen(p, 3, 7); // purge.gen agrees: the same identity
        assertEquals(new Identity(7L, 3L, "metadata"), identity(p));
        purgeGen(p, 2, 7); // the files have applied an older generation: which one they hold is not the metadata's
        assertEquals(new Identity(7L, null, "metadata (purge_generation unknown)"), identity(p));
    }

    @Test
    void purgeTopicInTheJournal_bumpsTheGeneration_purgeStreamMakesItUnknown() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        n.snapshot(NodeDir.oneStream(5, 1, List.of(NodeDir.topic(0, "t", Opt.post4092(), 1))).file());
        JournalWriter j = new JournalWriter();
        j.entry(6, 6, JournalEntry.PURGE_TOPIC, JournalWriter.topicRef(0, 0));
        j.entry(7, 7, JournalEntry.PURGE_TOPIC, JournalWriter.topicRef(0, 0));
        n.journal(j.file());
        n.superblock("a", InputsResolverTest.solo(5, n));
        Path p = n.partition(0, 0, 0, 1);
        assertEquals(new Identity(1L, 2L, "metadata"), identity(p));

        j.entry(8, 8, JournalEntry.PURGE_STREAM, new byte[0]);
        n.journal(j.file());
        // the PurgeStream body is not specified: the metadata cannot say the generation; purge.gen can
        assertEquals(new Identity(1L, null, "metadata (purge_generation unknown)"),
                identity(p));
        purgeGen(p, 3, 1);
        assertEquals(new Identity(1L, 3L, "metadata + purge.gen"),
                identity(p));
    }

    @Test
    void withoutMetadata_fromTheDirectorysOwnFiles() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        Path p = n.partition(0, 0, 0, 4);
        assertEquals(new Identity(4L, null, "created.revision (purge_generation unknown)"),
                identity(p));
        purgeGen(p, 1, 4);
        assertEquals(new Identity(4L, 1L, "created.revision + purge.gen"),
                identity(p));
        purgeGen(p, 1, 5); // purge.gen names another incarnation: not this one's generation
        assertNull(identity(p).purgeGeneration());
        Files.write(p.resolve("purge.gen"), new byte[15]); // torn: not read
        assertNull(identity(p).purgeGeneration());
        Files.delete(p.resolve("created.revision"));
        purgeGen(p, 2, 9); // only purge.gen left: it names the incarnation and that incarnation's generation
        assertEquals(new Identity(9L, 2L, "purge.gen"), identity(p));
        Files.delete(p.resolve("purge.gen"));
        assertSame(Identity.UNKNOWN, identity(p));
    }

    /** METADATA 2.6.2: a directory of an older incarnation keeps its own identity, so it is never joined as the new. */
    @Test
    void aDirectoryOfAnotherIncarnation_hasItsOwnIdentity_notTheMetadatas() throws Exception {
        NodeDir n = new NodeDir(tmp.resolve("node"));
        SnapshotWriter.Topic t = new SnapshotWriter.Topic(0, "t", SnapshotWriter.T,
                List.of(new SnapshotWriter.Partition(0, 1, SnapshotWriter.T, 7, 0, 3, null)), Opt.post4092());
        n.snapshot(NodeDir.oneStream(3, 7, List.of(t)).file());
        Path p = n.partition(0, 0, 0, 5);
        assertEquals(new Identity(5L, null, "created.revision (the metadata names another incarnation) "
                + "(purge_generation unknown)"), identity(p));
        purgeGen(p, 2, 5);
        assertEquals(new Identity(5L, 2L, "created.revision (the metadata names another incarnation) + purge.gen"),
                identity(p));
    }

    /**
     * METADATA 4.7 bumps the revision on a TruncatePartition or PurgeStream that applied; their bodies are not
     * specified (4.6, 8), so whether one applied is not known. Every created_revision handed out after one is
     * unknown: the identity falls back to the directory's own created.revision and purge.gen (the metadata's
     * purge_generation is its partition's, not known to be the directory's without the revision), and the inputs
     * refuse (whether the server loads the directory depends on it) unless --durability is given.
     */
    @Test
    void afterATruncatePartitionOrPurgeStream_laterRevisionsAreUnknown_notGuessed() throws Exception {
        for (int op : new int[] {JournalEntry.TRUNCATE_PARTITION, JournalEntry.PURGE_STREAM}) {
            NodeDir n = new NodeDir(tmp.resolve("node-" + op));
            n.snapshot(NodeDir.oneStream(5, 1, List.of(NodeDir.topic(0, "t", Opt.post4092(), 1))).file());
            JournalWriter j = new JournalWriter();
            j.entry(6, 6, op, new byte[0]);
            j.entry(7, 7, JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS, JournalWriter.createTopic(0, "u", 1));
            n.journal(j.file());
            n.superblock("a", InputsResolverTest.solo(5, n));
            Path before = n.partition(0, 0, 0, 1);
            Path after = n.partition(0, 1, 0, 3);   // 3 if op 6 applied, 2 if it did not
            String which = op == JournalEntry.TRUNCATE_PARTITION ? "TruncatePartition" : "PurgeStream";
            // created before the op: still known
            assertEquals(op == JournalEntry.TRUNCATE_PARTITION ? new Identity(1L, 0L, "metadata")
                    : new Identity(1L, null, "metadata (purge_generation unknown)"), identity(before));
            // created after it: the directory's own files say it. The metadata's purge_generation (0) is its own
            // partition's, whose created_revision (2 or 3) is unknown, so it is not known to be this directory's:
            // with created.revision 3 the directory may be an incarnation the metadata does not hold (2.6.2)
            assertEquals(new Identity(3L, null, "created.revision (purge_generation unknown)"), identity(after));
            purgeGen(after, 0, 3);
            assertEquals(new Identity(3L, 0L, "created.revision + purge.gen"), identity(after));
            purgeGen(after, 0, 2); // purge.gen of another incarnation than created.revision's: not read
            assertEquals(new Identity(3L, null, "created.revision (purge_generation unknown)"), identity(after));
            // without created.revision, purge.gen is the one file that names the incarnation
            byte[] recorded = Files.readAllBytes(after.resolve("created.revision"));
            Files.delete(after.resolve("created.revision"));
            assertEquals(new Identity(2L, 0L, "purge.gen"), identity(after));
            Files.write(after.resolve("created.revision"), recorded);
            Files.delete(after.resolve("purge.gen"));
            PartitionInputs in = new InputsResolver(InputsResolver.CommandLine.none()).resolve(PartitionPath.of(after));
            assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal(), String.valueOf(in.refusalLine()));
            assertEquals("metadata/journal.wal op 6 is a " + which + ", whose body METADATA leaves unspecified (4.6, "
                    + "8): whether it bumped the revision is not known, so partition 0's created_revision, created "
                    + "after it, is unknown, and so is whether the server loads this directory (created.revision says "
                    + "3); pass --durability to judge it anyway", in.refusalLine());
            PartitionInputs given = new InputsResolver(new InputsResolver.CommandLine(true, false, null))
                    .resolve(PartitionPath.of(after));
            assertTrue(given.judgeable(), String.valueOf(given.refusalLine()));
            assertTrue(new InputsResolver(InputsResolver.CommandLine.none()).resolve(PartitionPath.of(before))
                    .judgeable(), "a partition created before the op is judged as before");
            Files.delete(after.resolve("created.revision"));
            assertSame(Identity.UNKNOWN, identity(after), "nothing is known, and the metadata's generation is not used");
        }
    }
}
