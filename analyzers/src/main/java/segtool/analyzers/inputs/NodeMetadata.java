package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.formats.metadata.JournalBodies;
import segtool.formats.metadata.JournalEntry;
import segtool.formats.metadata.JournalReader;
import segtool.formats.metadata.MetadataFormatException;
import segtool.formats.metadata.Snapshot;
import segtool.formats.metadata.SnapshotReader;
import segtool.formats.metadata.Superblock;

/**
 * A data directory's {@code metadata/} as the server's metadata recovery reads it (METADATA 1.3 steps 1-2): the
 * snapshot, the superblock pairing (2.7), the committed journal suffix replayed from the snapshot's sequence number
 * with 4.5's stop rules and 4.7's apply semantics, and the node-wide {@code enforce_fsync} gate (3.3). The result is
 * absent (no {@code metadata/}), a refusal (the server will not start, or a case METADATA 8 leaves open), or the
 * topics with their stored options.
 */
public final class NodeMetadata {
    public enum Kind {
        /** No {@code metadata/} directory. */
        ABSENT,
        /** The server refuses to start the node; {@link #refusal} says why. No partition gets a verdict. */
        SERVER_REFUSES,
        /** segtool cannot decide without guessing (METADATA 8) or cannot read the files; {@link #refusal} says why. */
        UNDECIDED,
        RESOLVED
    }

    public static final String DIR = "metadata";
    public static final String SNAPSHOT = "snapshot.bin";
    public static final String JOURNAL = "journal.wal";
    /** The journal's default slot count ({@code journal_slots}, METADATA 4.3). */
    public static final int JOURNAL_SLOTS = 1024;

    public final Path dataDir;
    public Kind kind;
    public String refusal;
    public final List<String> notes = new ArrayList<>();
    /** (stream key, topic key) to topic. */
    public final Map<List<Long>, TopicState> topics = new TreeMap<>(NodeMetadata::compareKeys);
    public Snapshot snapshot;
    public long replayedOps;
    public long revision;
    /**
     * Null while {@link #revision} is known; else the line saying which replayed op made it unknown: a PurgeStream or
     * TruncatePartition, whose bodies METADATA leaves unspecified (4.6, 8), bumps it only when it applies to a
     * partition (4.7). Every {@code created_revision} handed out after that op is unknown (null in
     * {@link TopicState#partitions}).
     */
    public String revisionUnknownFrom;
    /** True once a replayed PurgeStream (body unspecified) may have bumped purge generations segtool cannot see. */
    public boolean purgeGenerationsUnknown;

    private final Map<Long, String> streams = new TreeMap<>(Long::compareUnsigned);

    private NodeMetadata(Path dataDir) {
        this.dataDir = dataDir;
    }

    private static int compareKeys(List<Long> a, List<Long> b) {
        int c = Long.compareUnsigned(a.get(0), b.get(0));
        return c != 0 ? c : Long.compareUnsigned(a.get(1), b.get(1));
    }

    public TopicState topic(long stream, long topic) {
        return topics.get(List.of(stream, topic));
    }

    /** Reads {@code dataDir/metadata}; never throws for what is on disk. */
    public static NodeMetadata load(Path dataDir) {
        NodeMetadata m = new NodeMetadata(dataDir);
        Path dir = dataDir.resolve(DIR);
        if (!Files.isDirectory(dir)) {
            m.kind = Kind.ABSENT;
            return m;
        }
        try {
            m.run(dir);
        } catch (MetadataFormatException e) {
            m.kind = e.unsettled() ? Kind.UNDECIDED : Kind.SERVER_REFUSES;
            m.refusal = rel(dataDir, e.file()) + " @ " + e.position() + ": " + e.reason();
        } catch (IOException e) {
            m.kind = Kind.UNDECIDED;
            m.refusal = "cannot read " + DIR + "/: " + e;
        }
        return m;
    }

    private static String rel(Path base, Path file) {
        try {
            return base.relativize(file).toString();
        } catch (IllegalArgumentException e) {
            return file.toString();
        }
    }

    private void refuse(Kind k, String line) {
        if (kind == null) {
            kind = k;
            refusal = line;
        }
    }

    private void run(Path dir) throws IOException {
        Path snap = dir.resolve(SNAPSHOT);
        long sequence = 0;
        long replayFrom = 0;
        long trailerChecksum = 0;
        if (Files.exists(snap)) {
            snapshot = SnapshotReader.read(snap);
            if (snapshot.trailer() != Snapshot.Trailer.VERIFIED) {
                notes.add(DIR + "/" + SNAPSHOT + " has no trailer: builds up to 2026-08-21 accept it unverified, "
                        + "post-#4092 builds refuse it (" + (snapshot.trailer() == Snapshot.Trailer.ABSENT_SHORT
                        ? "Truncated" : "InvalidTrailer") + ")");
            }
            // the value the superblock pairs with (2.7): XXH3-64 of the payload, which without a trailer is the
            // whole file (2.1, the [M] row)
            trailerChecksum = snapshot.checksum();
            sequence = snapshot.sequenceNumber();
            replayFrom = sequence + 1;
            revision = snapshot.revision();
            restore(snapshot);
        }
        Superblock.Pair sb = Superblock.read(dir);
        if (sb.result() == Superblock.Pair.Result.UNREADABLE || sb.result() == Superblock.Pair.Result.UNDECODABLE) {
            refuse(Kind.SERVER_REFUSES, DIR + "/" + sb.reason() + ": the metadata superblock is "
                    + sb.result().name().toLowerCase() + ", the server refuses to start");
            return;
        }
        if (sb.result() == Superblock.Pair.Result.VALID) {
            Superblock.VsrState s = sb.state();
            if (Long.compareUnsigned(s.checkpointOp(), sequence) > 0) {
                refuse(Kind.SERVER_REFUSES, DIR + "/" + sb.winner() + ": checkpoint_op " + Long.toUnsignedString(
                        s.checkpointOp()) + " is past the snapshot's sequence_number " + Long.toUnsignedString(sequence)
                        + " (snapshot lost): the server refuses to start");
                return;
            }
            if (s.checkpointOp() == sequence && (s.checkpointChecksumLow() != trailerChecksum
                    || s.checkpointChecksumHigh() != 0)) {
                refuse(Kind.SERVER_REFUSES, DIR + "/" + sb.winner() + ": checkpoint_checksum does not match the "
                        + "snapshot trailer at op " + Long.toUnsignedString(sequence) + ": the server refuses to start");
                return;
            }
        }
        Path journal = dir.resolve(JOURNAL);
        if (Files.exists(journal)) {
            replay(journal, sequence, replayFrom, snapshot != null, sb);
            if (kind != null) {
                return;
            }
        }
        for (TopicState t : topics.values()) {
            if (t.legacyEnforceFsync()) {
                refuse(Kind.SERVER_REFUSES, "stream " + Long.toUnsignedString(t.streamKey) + ", topic "
                        + Long.toUnsignedString(t.key) + " (" + t.name + ") stores enforce_fsync = true: the server "
                        + "refuses to start (UnsupportedOptionKey(\"enforce_fsync\"), METADATA 3.3); since #4092 the "
                        + "setting is the topic's create-only durability option");
                return;
            }
        }
        kind = Kind.RESOLVED;
    }

    private void restore(Snapshot s) {
        for (Snapshot.Stream st : s.streams()) {
            streams.put(st.key(), st.name());
            for (Snapshot.Topic t : st.topics()) {
                TopicState ts = new TopicState(st.key(), t.key(), t.name(), DurabilitySource.SNAPSHOT);
                ts.put(t.options());
                for (Snapshot.Partition p : t.partitions()) {
                    ts.partitions.put(p.id(), p.createdRevision());
                    ts.purgeGenerations.put(p.id(), p.purgeGeneration());
                }
                topics.put(List.of(st.key(), t.key()), ts);
            }
        }
    }

    private void replay(Path file, long sequence, long replayFrom, boolean haveSnapshot, Superblock.Pair sb)
            throws IOException {
        try (JournalReader r = JournalReader.open(file)) {
            JournalReader.Scan scan = r.scan();
            String where = DIR + "/" + JOURNAL + " @ " + scan.endPosition();
            if (scan.end() == JournalReader.End.REFUSED) {
                refuse(Kind.SERVER_REFUSES, where + ": " + scan.reason() + ": the server refuses to start");
                return;
            }
            if (scan.end() == JournalReader.End.TORN_TAIL) {
                notes.add(where + ": " + scan.reason() + "; the server truncates the journal there (torn append)");
            }
            Map<Long, JournalEntry> slots = new HashMap<>();
            for (JournalEntry e : scan.entries()) {
                slots.put(Long.remainderUnsigned(e.op(), JOURNAL_SLOTS), e);
            }
            List<JournalEntry> taken = new ArrayList<>();
            for (JournalEntry e : slots.values()) {
                if (Long.compareUnsigned(e.op(), replayFrom) >= 0) {
                    taken.add(e);
                }
            }
            taken.sort((a, b) -> Long.compareUnsigned(a.op(), b.op()));
            List<JournalEntry> chain = new ArrayList<>();
            for (JournalEntry e : taken) {
                JournalEntry prev = chain.isEmpty() ? null : chain.get(chain.size() - 1);
                String gap = null;
                if (prev == null && haveSnapshot && e.op() != replayFrom) {
                    gap = "the first op after the snapshot's " + Long.toUnsignedString(sequence) + " is "
                            + Long.toUnsignedString(e.op());
                } else if (prev != null && e.op() != prev.op() + 1) {
                    gap = "op " + Long.toUnsignedString(e.op()) + " follows op " + Long.toUnsignedString(prev.op());
                } else if (prev != null && e.sealed() && prev.sealed() && !e.parentIs(prev)) {
                    gap = "op " + Long.toUnsignedString(e.op()) + "'s parent is not op " + Long.toUnsignedString(prev.op());
                }
                if (gap != null) {
                    notes.add(DIR + "/" + JOURNAL + " @ " + e.position() + ": " + gap + "; replay stops there and the "
                            + "server truncates the journal from it");
                    break;
                }
                chain.add(e);
            }
            long watermark = sequence;
            for (JournalEntry e : chain) {
                if (Long.compareUnsigned(e.commit(), watermark) > 0) {
                    watermark = e.commit();
                }
            }
            long lastOp = chain.isEmpty() ? sequence : chain.get(chain.size() - 1).op();
            boolean solo;
            if (sb.result() == Superblock.Pair.Result.VALID) {
                solo = sb.state().replicaCount() == 1;
            } else if (Long.compareUnsigned(lastOp, watermark) <= 0) {
                solo = true; // every taken op is below the watermark: solo and cluster replay the same ops
            } else {
                refuse(Kind.UNDECIDED, DIR + "/superblock.a|b are empty, so solo and cluster cannot be told apart "
                        + "(METADATA 8 U7), and they disagree here: ops " + Long.toUnsignedString(watermark + 1) + "-"
                        + Long.toUnsignedString(lastOp) + " are above the commit watermark "
                        + Long.toUnsignedString(watermark) + " (applied on a solo node only)");
                return;
            }
            for (JournalEntry e : chain) {
                if (!solo && Long.compareUnsigned(e.op(), watermark) > 0) {
                    notes.add(DIR + "/" + JOURNAL + ": ops from " + Long.toUnsignedString(e.op()) + " are journaled "
                            + "but above the commit watermark " + Long.toUnsignedString(watermark) + ": not applied");
                    break;
                }
                apply(r, e);
                replayedOps++;
            }
        }
    }

    private void apply(JournalReader r, JournalEntry e) throws IOException {
        int op = e.operation();
        if (op != JournalEntry.CREATE_STREAM && op != JournalEntry.DELETE_STREAM
                && op != JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS && op != JournalEntry.UPDATE_TOPIC
                && op != JournalEntry.DELETE_TOPIC && op != JournalEntry.CREATE_PARTITIONS_WITH_ASSIGNMENTS
                && op != JournalEntry.DELETE_PARTITIONS && op != JournalEntry.TRUNCATE_PARTITION
                && op != JournalEntry.PURGE_TOPIC && op != JournalEntry.PURGE_STREAM) {
            return;
        }
        byte[] body = r.body(e);
        String at = DIR + "/" + JOURNAL + " op " + Long.toUnsignedString(e.op());
        try {
            switch (op) {
                case JournalEntry.CREATE_STREAM: {
                    JournalBodies.CreateStream c = JournalBodies.createStream(body);
                    if (!streams.containsValue(c.name())) {
                        streams.put(lowestFree(streams.keySet()), c.name());
                    }
                    break;
                }
                case JournalEntry.DELETE_STREAM: {
                    Long s = stream(JournalBodies.deleteStream(body));
                    if (s != null) {
                        streams.remove(s);
                        topics.keySet().removeIf(k -> k.get(0).equals(s));
                        revision++;
                    }
                    break;
                }
                case JournalEntry.CREATE_TOPIC_WITH_ASSIGNMENTS: {
                    JournalBodies.CreateTopic c = JournalBodies.createTopic(body);
                    Long s = stream(c.stream());
                    if (s == null || topicByName(s, c.name()) != null) {
                        notes.add(at + ": CreateTopic \"" + c.name() + "\" in stream " + c.stream()
                                + " does not apply (unknown stream or duplicate name)");
                        break;
                    }
                    List<Long> used = new ArrayList<>();
                    topics.keySet().stream().filter(k -> k.get(0).equals(s)).forEach(k -> used.add(k.get(1)));
                    long key = lowestFree(used);
                    TopicState t = new TopicState(s, key, c.name(), DurabilitySource.JOURNAL);
                    t.put(c.derived());
                    t.put(c.explicit());
                    revision++;
                    for (JournalBodies.Assignment a : c.assignments()) {
                        t.partitions.put(a.partitionId(), revisionUnknownFrom == null ? revision : null);
                        t.purgeGenerations.put(a.partitionId(), 0L);
                    }
                    topics.put(List.of(s, key), t);
                    break;
                }
                case JournalEntry.UPDATE_TOPIC: {
                    JournalBodies.UpdateTopic u = JournalBodies.updateTopic(body);
                    TopicState t = topic(u.stream(), u.topic());
                    if (t != null) {
                        t.name = u.name();
                        for (var o : u.options()) {
                            t.options.put(o.keyText(), o.withExplicit(true));
                            if (o.keyText().equals("durability") || o.keyText().equals("enforce_fsync")) {
                                t.optionsFrom = DurabilitySource.JOURNAL;
                            }
                        }
                    }
                    break;
                }
                case JournalEntry.DELETE_TOPIC: {
                    JournalBodies.TopicRef ref = JournalBodies.topicRef(body);
                    TopicState t = topic(ref.stream(), ref.topic());
                    if (t != null) {
                        topics.remove(List.of(t.streamKey, t.key));
                        revision++;
                    }
                    break;
                }
                case JournalEntry.CREATE_PARTITIONS_WITH_ASSIGNMENTS: {
                    JournalBodies.CreatePartitions c = JournalBodies.createPartitions(body);
                    TopicState t = topic(c.stream(), c.topic());
                    if (t != null) {
                        revision++;
                        for (JournalBodies.Assignment a : c.assignments()) {
                            t.partitions.put(a.partitionId(), revisionUnknownFrom == null ? revision : null);
                            t.purgeGenerations.put(a.partitionId(), 0L);
                        }
                    }
                    break;
                }
                case JournalEntry.DELETE_PARTITIONS: {
                    JournalBodies.DeletePartitions d = JournalBodies.deletePartitions(body);
                    TopicState t = topic(d.stream(), d.topic());
                    if (t != null) {
                        for (long i = 0; i < d.count() && !t.partitions.isEmpty(); i++) {
                            Long last = ((TreeMap<Long, Long>) t.partitions).lastKey();
                            t.partitions.remove(last);
                            t.purgeGenerations.remove(last);
                        }
                        revision++;
                    }
                    break;
                }
                case JournalEntry.PURGE_TOPIC: {
                    JournalBodies.TopicRef ref = JournalBodies.topicRef(body);
                    TopicState t = topic(ref.stream(), ref.topic());
                    if (t != null && !t.partitions.isEmpty()) {
                        revision++;
                        t.purgeGenerations.replaceAll((id, g) -> g + 1);
                    }
                    break;
                }
                case JournalEntry.PURGE_STREAM:
                    // the body is not specified, so which stream's partitions were bumped is not known, nor
                    // whether it touched a partition at all (and so bumped the revision)
                    purgeGenerationsUnknown = true;
                    revisionUnknown(at, "PurgeStream");
                    break;
                default:
                    // TruncatePartition bumps the revision when it applies; its body is not specified, so whether
                    // it applied is not known
                    revisionUnknown(at, "TruncatePartition");
            }
        } catch (JournalBodies.Malformed m) {
            notes.add(at + " (operation " + op + "): " + m.getMessage() + "; the server's apply fails, nothing changes");
        }
    }

    private void revisionUnknown(String at, String what) {
        if (revisionUnknownFrom == null) {
            revisionUnknownFrom = at + " is a " + what + ", whose body METADATA leaves unspecified (4.6, 8): whether "
                    + "it bumped the revision is not known";
            notes.add(revisionUnknownFrom + "; the created_revision of every partition created after it is unknown");
        }
    }

    private TopicState topic(JournalBodies.Identifier stream, JournalBodies.Identifier topic) {
        Long s = stream(stream);
        if (s == null) {
            return null;
        }
        if (topic.number() != null) {
            return topics.get(List.of(s, topic.number()));
        }
        return topicByName(s, topic.name());
    }

    private TopicState topicByName(long stream, String name) {
        for (TopicState t : topics.values()) {
            if (t.streamKey == stream && t.name.equals(name)) {
                return t;
            }
        }
        return null;
    }

    private Long stream(JournalBodies.Identifier id) {
        if (id.number() != null) {
            return streams.containsKey(id.number()) ? id.number() : null;
        }
        for (Map.Entry<Long, String> e : streams.entrySet()) {
            if (e.getValue().equals(id.name())) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The slab's key for a new entry: the lowest key not in use (METADATA 4.7). */
    private static long lowestFree(Iterable<Long> used) {
        java.util.Set<Long> set = new java.util.HashSet<>();
        used.forEach(set::add);
        long k = 0;
        while (set.contains(k)) {
            k++;
        }
        return k;
    }
}
