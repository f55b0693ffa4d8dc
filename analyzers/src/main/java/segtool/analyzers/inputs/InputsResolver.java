package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.IoFailure;
import segtool.formats.metadata.CreatedRevision;
import segtool.formats.metadata.PurgeGen;
import segtool.formats.metadata.Superblock;
import segtool.formats.naming.PartitionPath;

/**
 * Decides, per partition, the inputs the server's boot recovery would use (issue 11): {@code D} from the topic's
 * stored {@code durability} (METADATA 3.4) and the checkpoint from the frontier (6.5), each with its source; the
 * command line where there is no metadata; refusals where the server itself refuses, where the command line
 * contradicts the metadata without {@code --override-durability}, and where METADATA 8 leaves the case open.
 * Each data directory's {@code metadata/} is read once.
 */
public final class InputsResolver {
    /** What the command line says: {@code --durability} (null: not given), the override, {@code --wal-checkpoint}. */
    public record CommandLine(Boolean durable, boolean override, Checkpoint checkpoint) {
        public static CommandLine none() {
            return new CommandLine(null, false, null);
        }
    }

    private final CommandLine cli;
    private final Map<Path, NodeMetadata> nodes = new HashMap<>();

    public InputsResolver(CommandLine cli) {
        this.cli = cli;
    }

    /** The data directory a canonical partition path sits in ({@code <data>/streams/s/topics/t/partitions/p}). */
    public static Path dataDirOf(PartitionPath p) {
        if (!p.isCanonical()) {
            return null;
        }
        Path d = p.directory().toAbsolutePath().normalize();
        for (int i = 0; i < 6 && d != null; i++) {
            d = d.getParent();
        }
        return d;
    }

    /** The node metadata of {@code dataDir}, read on first use. */
    public synchronized NodeMetadata node(Path dataDir) {
        return nodes.computeIfAbsent(dataDir, NodeMetadata::load);
    }

    public List<PartitionInputs> resolve(List<PartitionPath> partitions) {
        List<PartitionInputs> out = new ArrayList<>();
        for (PartitionPath p : partitions) {
            out.add(resolve(p));
        }
        return out;
    }

    public PartitionInputs resolve(PartitionPath p) {
        Identity identity;
        try {
            identity = identity(p);
        } catch (IOException e) {
            identity = Identity.UNKNOWN;
        }
        try {
            PartitionInputs in = resolveOrThrow(p);
            return new PartitionInputs(in.partition(), in.durability(), in.wal(), in.notes(), in.refusal(),
                    in.refusalLine(), identity);
        } catch (IOException e) {
            if (segtool.analyzers.recovery.RecoveryEngine.Cancelled.isInterrupt(e)) {
                // Ctrl-C or SIGTERM, not unreadable inputs: the command stops (nothing is read or changed after)
                throw new segtool.analyzers.recovery.RecoveryEngine.Cancelled(null, e);
            }
            return new PartitionInputs(p, null, null, List.of(), PartitionInputs.Refusal.UNDECIDED,
                    PartitionInputs.UNREADABLE + reason(e), identity);
        }
    }

    /** The file and the operating system's reason, as every other I/O line says them (not the exception's type). */
    private static String reason(IOException e) {
        if (e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null) {
            return fs.getFile() + ": " + IoFailure.reasonOf(fs);
        }
        return e.getMessage() != null ? e.getMessage() : IoFailure.reasonOf(e);
    }

    private PartitionInputs refuse(PartitionPath p, List<String> notes, PartitionInputs.Refusal r, String line) {
        return new PartitionInputs(p, null, null, notes, r, line, null);
    }

    /**
     * The partition's incarnation: {@code created_revision} and {@code purge_generation} from the node's metadata
     * when it was read and lists the partition (the generation is not known once a replayed PurgeStream, whose body
     * is unspecified, may have bumped it, nor for a partition whose created_revision is unknown, which a replayed
     * PurgeStream or TruncatePartition makes of every later one: the generation is then not known to be the
     * directory's incarnation's), else from the directory's {@code created.revision} and {@code purge.gen} (whose
     * second value must name the same revision, and names it where nothing else does).
     */
    public Identity identity(PartitionPath p) throws IOException {
        Path dataDir = dataDirOf(p);
        NodeMetadata node = dataDir == null ? null : node(dataDir);
        Long rev = null;
        Long gen = null;
        String revFrom = null;
        String genFrom = null;
        CreatedRevision.Value recorded = CreatedRevision.read(p.directory());
        if (node != null && node.kind == NodeMetadata.Kind.RESOLVED) {
            TopicState t = node.topic(p.streamId(), p.topicId());
            if (t != null && t.partitions.containsKey(p.partitionId())) {
                rev = t.partitions.get(p.partitionId());   // null: created after the revision became unknown
                revFrom = rev == null ? null : "metadata";
                // the metadata's purge_generation is that of the incarnation it holds; with its created_revision
                // unknown nothing says the directory is that incarnation (2.6.2), so the generation is not used
                // either, and both come from the directory's own files (FORMAT 7), as without metadata
                if (rev != null && !node.purgeGenerationsUnknown && t.purgeGenerations.containsKey(p.partitionId())) {
                    gen = t.purgeGenerations.get(p.partitionId());
                    genFrom = "metadata";
                }
            }
        }
        if (recorded.valid() && rev != null && recorded.revision() != rev) {
            // the directory is another incarnation than the metadata's (METADATA 2.6.2): its bytes are that one's,
            // and the metadata's purge generation is not theirs
            rev = recorded.revision();
            revFrom = CreatedRevision.FILE + " (the metadata names another incarnation)";
            gen = null;
            genFrom = null;
        }
        if (rev == null && recorded.valid()) {
            rev = recorded.revision();
            revFrom = CreatedRevision.FILE;
        }
        PurgeGen.Value pg = PurgeGen.read(p.directory());
        if (rev == null && pg.valid()) {
            // nothing else names the incarnation: purge.gen does, its second value (FORMAT 7), and its generation is
            // that incarnation's
            rev = pg.createdRevision();
            revFrom = PurgeGen.FILE;
        }
        boolean pgThis = pg.valid() && pg.createdRevision() == rev;
        if (gen == null && pgThis) {
            gen = pg.applied();
            genFrom = PurgeGen.FILE;
        } else if (gen != null && pgThis && pg.applied() != gen) {
            // the files have applied another purge generation than the metadata names (FORMAT 7): they are not
            // yet (or no longer) that generation's bytes, so the generation they hold is not known
            gen = null;
            genFrom = null;
        }
        if (rev == null && gen == null) {
            return Identity.UNKNOWN;
        }
        String from = revFrom == null ? genFrom + " (created_revision unknown)"
                : genFrom == null ? revFrom + " (purge_generation unknown)"
                : revFrom.equals(genFrom) ? revFrom : revFrom + " + " + genFrom;
        return new Identity(rev, gen, from);
    }

    private PartitionInputs resolveOrThrow(PartitionPath p) throws IOException {
        Path dataDir = dataDirOf(p);
        NodeMetadata node = dataDir == null ? null : node(dataDir);
        List<String> notes = new ArrayList<>(node == null ? List.of() : node.notes);
        String older = OlderGeneration.sniff(p.directory());
        if (older != null) {
            return refuse(p, notes, PartitionInputs.Refusal.UNDECIDED, older);
        }
        Durability durability;
        Long revision = null;
        CreatedRevision.Value recorded = CreatedRevision.read(p.directory());
        if (node == null || node.kind == NodeMetadata.Kind.ABSENT) {
            String why = node == null ? "a partition outside a data directory: no metadata/ to read"
                    : "no metadata/ in " + dataDir;
            durability = cli.durable() != null
                    ? new Durability(cli.durable(), DurabilitySource.COMMAND_LINE, "--durability", why, false, null)
                    : new Durability(false, DurabilitySource.COMMAND_LINE, "the --durability default", why, false,
                    null);
        } else if (node.kind == NodeMetadata.Kind.SERVER_REFUSES) {
            return refuse(p, notes, PartitionInputs.Refusal.SERVER_REFUSES_NODE, node.refusal);
        } else if (node.kind == NodeMetadata.Kind.UNDECIDED) {
            return refuse(p, notes, PartitionInputs.Refusal.UNDECIDED, node.refusal);
        } else {
            TopicState topic = node.topic(p.streamId(), p.topicId());
            Long metaRevision = topic == null ? null : topic.partitions.get(p.partitionId());
            String mismatch = null;
            if (topic == null) {
                mismatch = "stream " + p.streamId() + ", topic " + p.topicId() + " is in neither metadata/snapshot.bin "
                        + "nor the committed journal: the server does not load this directory";
            } else if (metaRevision == null && !topic.partitions.containsKey(p.partitionId())) {
                mismatch = "topic " + p.streamId() + "/" + p.topicId() + " (" + topic.name + ") has no partition "
                        + p.partitionId() + " in the metadata: the server does not load this directory";
            } else if (recorded.present() && !recorded.valid()) {
                return refuse(p, notes, PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, CreatedRevision.FILE
                        + " is " + recorded.length() + " bytes, not 8: the server tombstones this partition");
            } else if (metaRevision == null) {
                mismatch = node.revisionUnknownFrom + ", so partition " + p.partitionId() + "'s created_revision, "
                        + "created after it, is unknown, and so is whether the server loads this directory ("
                        + (recorded.valid() ? CreatedRevision.FILE + " says " + Long.toUnsignedString(
                        recorded.revision()) : "no readable " + CreatedRevision.FILE) + ")";
            } else if (recorded.valid() && recorded.revision() != metaRevision) {
                mismatch = CreatedRevision.FILE + " says " + Long.toUnsignedString(recorded.revision())
                        + ", the metadata's created_revision is " + Long.toUnsignedString(metaRevision) + " (the server "
                        + (Long.compareUnsigned(recorded.revision(), metaRevision) < 0
                        ? "deletes this older incarnation" : "defers loading it")
                        + ", unless the replay missed an apply-time no-op, METADATA 4.7)";
            }
            if (mismatch != null) {
                if (cli.durable() == null) {
                    return refuse(p, notes, PartitionInputs.Refusal.UNDECIDED, mismatch
                            + "; pass --durability to judge it anyway");
                }
                durability = new Durability(cli.durable(), DurabilitySource.COMMAND_LINE, "--durability", mismatch,
                        false, null);
            } else {
                revision = metaRevision;
                boolean d = topic.durable();
                DurabilitySource source = topic.hasDurabilityKey() ? topic.optionsFrom
                        : DurabilitySource.NO_DURABILITY_KEY;
                String from = "metadata/" + (topic.optionsFrom == DurabilitySource.JOURNAL ? NodeMetadata.JOURNAL
                        : NodeMetadata.SNAPSHOT);
                String detail = topic.hasDurabilityKey() ? null
                        : "no durability key: a topic from before #4092, D is false";
                durability = new Durability(d, source, from, detail, false, null);
                if (cli.durable() != null && cli.durable() != d) {
                    if (!cli.override()) {
                        return refuse(p, notes, PartitionInputs.Refusal.CONTRADICTS_METADATA, "--durability="
                                + (cli.durable() ? "persisted" : "replicated") + " contradicts the topic's stored "
                                + "durability (" + from + ": " + topic.durabilityEntry() + ", so "
                                + durability.value() + "); pass --override-durability to judge with it anyway");
                    }
                    durability = new Durability(cli.durable(), DurabilitySource.COMMAND_LINE,
                            "--durability with --override-durability", null, true, d);
                }
            }
        }
        if (revision == null && recorded.valid()) {
            revision = recorded.revision();
        }
        // METADATA 1.3 step 3, 5.2: the partition's superblock pair is opened before its WAL; unreadable (a corrupt
        // slot, an unknown version) or undecodable tombstones the partition. Its identity is checked against the
        // node's configuration, which is not on disk, and is not judged here.
        Superblock.Pair sb = Superblock.read(p.directory());
        if (sb.result() == Superblock.Pair.Result.UNREADABLE || sb.result() == Superblock.Pair.Result.UNDECODABLE) {
            return refuse(p, notes, PartitionInputs.Refusal.SERVER_REFUSES_PARTITION, sb.reason()
                    + ": the partition superblock is " + sb.result().name().toLowerCase() + ": the server tombstones "
                    + "this partition and leaves its files in place (METADATA 5.2)");
        }
        Wal.Result wal = Wal.read(p, revision);
        if (wal.refusal() != null) {
            return refuse(p, notes, wal.refusal(), wal.line());
        }
        WalInputs w = wal.inputs();
        if (cli.checkpoint() != null) {
            if (wal.saysNone()) {
                return refuse(p, notes, PartitionInputs.Refusal.CONTRADICTS_METADATA, "--wal-checkpoint contradicts "
                        + w.text() + ": the server recovers this partition without a checkpoint (METADATA 6.5)");
            }
            if (w.checkpoint() == null) {
                w = new WalInputs(cli.checkpoint(), "--wal-checkpoint; " + w.source(), w.openSteps(), w.notes());
            } else if (!cli.checkpoint().samePosition(w.checkpoint())) {
                return refuse(p, notes, PartitionInputs.Refusal.CONTRADICTS_METADATA, "--wal-checkpoint contradicts "
                        + w.text());
            }
        }
        notes.addAll(w.notes());
        return new PartitionInputs(p, durability, w, notes, null, null, null);
    }
}
