package segtool.analyzers.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
import segtool.analyzers.report.ScanJson;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/** {@code apply --plan}: the damaged replica takes the donor's ranges and scans clean; a stale plan is refused. */
class PlanApplyTest {
    private static final InputsResolver LENIENT = new InputsResolver(new InputsResolver.CommandLine(false, false,
            null));

    @TempDir
    Path root;

    List<PartitionWriter.SegmentLayout> layout;

    @BeforeEach
    void replicas() {
        layout = Replicas.make(root, "a", 1);
        Replicas.make(root, "b", 11);
    }

    private Path b(int segment) {
        return Replicas.partition(root, "b").resolve(layout.get(segment).log().getFileName());
    }

    private Path a(int segment) {
        return Replicas.partition(root, "a").resolve(layout.get(segment).log().getFileName());
    }

    private PlanFile plan() throws Exception {
        ReplicaComparison.Result r = ReplicaComparison.compare(Replicas.collect(root, false, "a", "b"));
        Path file = root.resolve("plan.json");
        Files.writeString(file, ScanJson.mapper().writeValueAsString(ReplicaJson.report(ReplicaJson.PLAN_SCHEMA,
                "test", r, List.of())));
        return PlanFile.read(file);
    }

    private PlanApply applier() {
        return new PlanApply(ServerGuard.Report::idle, new Applier(StepHook.NONE, "test"),
                RecoveryOptions.defaults());
    }

    @Test
    void interiorDamage_lostSegment_tornTail_applied_thenClean_andAgree() throws Exception {
        PartitionWriter.SegmentLayout s1 = layout.get(1);
        Damage.flipByte(b(1), s1.batch(2).position() + 270);
        Files.delete(b(2));
        Files.delete(Replicas.partition(root, "b").resolve(layout.get(2).index().getFileName()));
        int last = layout.size() - 1;
        PartitionWriter.SegmentLayout tail = layout.get(last);
        Damage.truncate(b(last), tail.batch(tail.batches().size() - 1).position() + 290);
        PlanFile plan = plan();
        List<PlanFile.Entry> mine = plan.of("b");
        assertEquals(1, mine.size());
        assertEquals("take", mine.get(0).action());
        assertEquals("a", mine.get(0).donor());
        assertEquals(3, mine.get(0).transfers().size());

        PlanApply.Outcome dry = applier().run(mine.get(0), root.resolve("a"), LENIENT, false, false);
        assertEquals("planned", dry.status(), dry.details().toString());
        assertTrue(Files.notExists(b(2)), "a dry run changes nothing");

        PlanApply.Outcome done = applier().run(mine.get(0), root.resolve("a"), LENIENT, true, false);
        assertEquals("applied", done.status(), done.details().toString());
        assertEquals(0, done.after().exitCode(), done.after().toString());
        assertEquals(0, done.exitCode());
        for (int i = 0; i < layout.size(); i++) {
            assertArrayEquals(Files.readAllBytes(a(i)), Files.readAllBytes(b(i)), "segment " + i);
        }
        assertTrue(Files.isDirectory(done.quarantine()), "the replaced files are quarantined");
        ReplicaComparison.Result again = ReplicaComparison.compare(Replicas.collect(root, false, "a", "b"));
        assertEquals(0, again.exitCode());
    }

    @Test
    void aLocalByteChangedAfterCollect_isRefused_andNothingChanges() throws Exception {
        Damage.flipByte(b(1), layout.get(1).batch(1).position() + 300);
        PlanFile plan = plan();
        PlanFile.Entry e = plan.of("b").get(0);
        Damage.flipByte(b(1), 10);
        byte[] before = Files.readAllBytes(b(1));
        PlanApply.Outcome o = applier().run(e, root.resolve("a"), LENIENT, true, false);
        assertEquals("refused", o.status());
        assertEquals(2, o.exitCode());
        assertEquals(1, o.details().size(), o.details().toString());
        assertTrue(o.details().get(0).startsWith(b(1) + ": changed (XXH3-64 0x"), o.details().get(0));
        assertTrue(o.details().get(0).endsWith("since it was collected; the plan no longer applies (collect and "
                + "plan again)"), o.details().get(0));
        assertArrayEquals(before, Files.readAllBytes(b(1)));
        try (var s = Files.list(Replicas.partition(root, "b").getParent())) {
            assertEquals(1, s.count(), "no quarantine, no lock left beside the partition");
        }
    }

    @Test
    void theDonorsFilesDiffer_isRefused() throws Exception {
        Files.delete(b(1));
        PlanFile plan = plan();
        Damage.flipByte(a(1), 5);
        PlanApply.Outcome o = applier().run(plan.of("b").get(0), root.resolve("a"), LENIENT, true, false);
        assertEquals("refused", o.status());
        assertTrue(o.details().get(0).startsWith(a(1) + ": the donor's log changed"), o.details().toString());
        assertTrue(Files.notExists(b(1)));
    }

    @Test
    void aBusyPartition_isNotTouched() throws Exception {
        Files.delete(b(1));
        PlanFile plan = plan();
        PlanApply busy = new PlanApply(scope -> new ServerGuard.Report(scope, true, List.of(new ServerGuard.Holder(
                42, "iggy-server", b(0).toString(), "open")), List.of(), 0, List.of()), new Applier(StepHook.NONE, "t"),
                RecoveryOptions.defaults());
        PlanApply.Outcome o = busy.run(plan.of("b").get(0), root.resolve("a"), LENIENT, true, false);
        assertEquals("in_use", o.status(), o.details().toString());
        assertEquals(4, o.exitCode());
        assertTrue(Files.notExists(b(1)));
    }

    private static void incarnation(Path partition, long revision, long purged) throws Exception {
        Files.write(partition.resolve("created.revision"), java.nio.ByteBuffer.allocate(8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(revision).array());
        Files.write(partition.resolve("purge.gen"), java.nio.ByteBuffer.allocate(16)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(purged).putLong(revision).array());
    }

    @Test
    void aPartitionRecreatedAfterCollect_isRefused_andNothingChanges() throws Exception {
        incarnation(Replicas.partition(root, "a"), 3, 0);
        incarnation(Replicas.partition(root, "b"), 3, 0);
        Files.delete(b(1));
        PlanFile plan = plan();
        PlanFile.Entry e = plan.of("b").get(0);
        assertEquals("1/1/1@rev3.gen0", e.key().label(), "joined by the directories' own incarnation files");
        incarnation(Replicas.partition(root, "b"), 3, 1); // purged since
        PlanApply.Outcome o = applier().run(e, root.resolve("a"), LENIENT, true, false);
        assertEquals("refused", o.status(), o.details().toString());
        assertEquals(Replicas.partition(root, "b") + ": this partition is incarnation created_revision 3, "
                + "purge_generation 1 (from created.revision + purge.gen), "
                + "the plan's is 1/1/1@rev3.gen0: the partition was recreated or purged after collect; collect and "
                + "plan again", o.details().get(0));
        assertTrue(Files.notExists(b(1)));
    }

    @Test
    void aPartitionWhoseGenerationIsNoLongerKnown_isRefused() throws Exception {
        incarnation(Replicas.partition(root, "a"), 3, 0);
        incarnation(Replicas.partition(root, "b"), 3, 0);
        Files.delete(b(1));
        PlanFile.Entry e = plan().of("b").get(0);
        Files.delete(Replicas.partition(root, "b").resolve("purge.gen")); // the generation cannot be read now
        PlanApply.Outcome o = applier().run(e, root.resolve("a"), LENIENT, true, false);
        assertEquals("refused", o.status(), o.details().toString());
        assertTrue(o.details().get(0).contains("purge_generation unknown"), o.details().get(0));
        assertTrue(Files.notExists(b(1)));
    }

    @Test
    void aDurabilityThatContradictsTheMetadata_isAUsageError_asInScan() throws Exception {
        Damage.flipByte(b(1), layout.get(1).batch(1).position() + 300);
        PlanFile.Entry e = plan().of("b").get(0);
        // node b's metadata now says the topic is persisted; the command line says replicated
        new segtool.samples.metadata.NodeDir(root.resolve("b")).snapshot(new segtool.samples.metadata.SnapshotWriter()
                .sequence(5).revision(2).stream(new segtool.samples.metadata.SnapshotWriter.Stream(1, "s1",
                        segtool.samples.metadata.SnapshotWriter.T, List.of(segtool.samples.metadata.NodeDir.topic(1,
                                "t", segtool.samples.metadata.Opt.post4092(segtool.samples.metadata.Opt.string(
                                        "durability", "persisted", true)), 1, 1)))).file());
        Files.write(Replicas.partition(root, "b").resolve("created.revision"), java.nio.ByteBuffer.allocate(8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(1).array());
        assertEquals(segtool.analyzers.inputs.PartitionInputs.Refusal.CONTRADICTS_METADATA, LENIENT.resolve(
                segtool.formats.naming.PartitionPath.of(Replicas.partition(root, "b"))).refusal());
        byte[] before = Files.readAllBytes(b(1));
        PlanApply.Outcome o = applier().run(e, root.resolve("a"), LENIENT, true, false);
        assertEquals("usage", o.status(), o.details().toString());
        assertEquals(segtool.analyzers.exit.ExitCode.USAGE, o.exitCode());
        assertTrue(o.details().get(0).startsWith("--durability=replicated contradicts the topic's stored durability"),
                o.details().toString());
        assertArrayEquals(before, Files.readAllBytes(b(1)));
    }
}
