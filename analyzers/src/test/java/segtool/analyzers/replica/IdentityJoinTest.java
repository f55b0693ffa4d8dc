package segtool.analyzers.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.samples.metadata.NodeDir;
import segtool.samples.metadata.Opt;

/**
 * compare and collect join replicas by identity read from each node's metadata (METADATA 2.6), and judge every
 * partition with the inputs its own data directory holds, as scan does.
 */
class IdentityJoinTest {
    private static final Opt PERSISTED = Opt.string("durability", "persisted", true);

    @TempDir
    Path root;

    /** A node whose one topic (0/0, durability as given) has partition 0 of incarnation {@code revision}. */
    private Path node(String name, long revision, Opt... durability) throws Exception {
        NodeDir n = new NodeDir(root.resolve(name));
        n.snapshot(NodeDir.oneStream(3, revision, List.of(NodeDir.topic(0, "t", Opt.post4092(durability),
                revision))).file());
        n.partition(0, 0, 0, revision);
        return n.root;
    }

    private static List<ReplicaComparison.Replica> collect(InputsResolver.CommandLine cli, Path... nodes)
            throws Exception {
        Collector c = new Collector(RecoveryOptions.defaults(), 1, Throttle.NONE);
        InputsResolver inputs = new InputsResolver(cli);
        List<ReplicaComparison.Replica> out = new ArrayList<>();
        for (Path n : nodes) {
            out.add(new ReplicaComparison.Replica(n.getFileName().toString(),
                    c.collect(n.getFileName().toString(), inputs.resolve(Targets.resolve(n).partitions()))));
        }
        return out;
    }

    @Test
    void sameIncarnation_joinedByIdentity_withoutThePathWarning_andJudgedWithTheStoredDurability() throws Exception {
        List<ReplicaComparison.Replica> replicas = collect(InputsResolver.CommandLine.none(), node("a", 1, PERSISTED),
                node("b", 1, PERSISTED));
        PartitionManifest m = replicas.get(0).partitions().get(0);
        assertEquals(new PartitionKey(0, 0, 0, 1L, 0L), m.key());
        assertTrue(m.durable(), "the topic stores durability = persisted");
        assertEquals("snapshot", m.durabilitySource());
        ReplicaComparison.Result r = ReplicaComparison.compare(replicas);
        assertEquals(List.of(), r.warnings());
        assertEquals(1, r.partitions().size());
        assertEquals("identity", r.partitions().get(0).joinedBy());
        assertEquals(0, r.exitCode(), r.toString());
    }

    @Test
    void aRecreatedPartition_isNotJoinedWithItsOldIncarnation() throws Exception {
        ReplicaComparison.Result r = ReplicaComparison.compare(collect(InputsResolver.CommandLine.none(),
                node("a", 1), node("b", 2)));
        assertEquals(2, r.partitions().size(), "one result per incarnation");
        for (ReplicaComparison.PartitionResult p : r.partitions()) {
            assertEquals("identity", p.joinedBy());
            assertTrue(p.warnings().contains("0/0/0: replicas hold different incarnations (created_revision, "
                    + "purge_generation); each is compared on its own"), p.warnings().toString());
        }
        assertEquals(List.of("0/0/0@rev1.gen0", "0/0/0@rev2.gen0"),
                r.partitions().stream().map(p -> p.key().label()).sorted().toList());
    }

    @Test
    void inputsThatGiveNoVerdict_areRecordedNotJudged_withScansExitCode_andTheBytesStillListed() throws Exception {
        NodeDir n = new NodeDir(root.resolve("legacy"));
        n.snapshot(NodeDir.oneStream(3, 1, List.of(NodeDir.topic(0, "old", Opt.pre4092(true, true), 1))).file());
        n.partition(0, 0, 0, 1);
        PartitionManifest m = collect(InputsResolver.CommandLine.none(), n.root).get(0).partitions().get(0);
        assertEquals(PartitionManifest.NOT_JUDGED, m.verdict().outcome());
        assertEquals(2, m.verdict().exitCode(), "the server refuses to start: scan's 2");
        assertTrue(m.verdict().ioError().contains("stores enforce_fsync = true: the server refuses to start"),
                m.verdict().ioError());
        assertFalse(m.verdict().judged());
        assertNull(m.durabilitySource());
        assertEquals(1, m.segments().size());
        assertEquals(3, m.segments().get(0).batches().size(), "A | B | C, hashed and walked");
    }

    @Test
    void aCommandLineDurabilityContradictingTheMetadata_isNotJudged_exit64() throws Exception {
        PartitionManifest m = collect(new InputsResolver.CommandLine(false, false, null), node("a", 1, PERSISTED))
                .get(0).partitions().get(0);
        assertEquals(PartitionManifest.NOT_JUDGED, m.verdict().outcome());
        assertEquals(64, m.verdict().exitCode());
        PartitionManifest forced = collect(new InputsResolver.CommandLine(false, true, null),
                node("b", 1, PERSISTED)).get(0).partitions().get(0);
        assertFalse(forced.durable());
        assertEquals("command line", forced.durabilitySource());
    }
}
