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
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.replica.Collector;
import segtool.analyzers.replica.PlanApply;
import segtool.analyzers.replica.PlanFile;
import segtool.analyzers.replica.ReplicaComparison;
import segtool.analyzers.replica.ReplicaJson;
import segtool.analyzers.replica.Throttle;
import segtool.analyzers.report.ScanJson;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/**
 * Issue 16.2 for {@code apply --plan}: a real I/O error (EIO, ENOSPC, EROFS, a torn write) at every file-system
 * mutation of the plan's apply, and EIO at every read (the local and donor files it hashes and streams, the inputs,
 * the judgement after), injected under {@link PlanApply} and the applier by {@link FaultFs}. After each: the
 * partition's outcome is an I/O error (exit 3) whose line names the file and the OS reason, never a refusal or damage;
 * the partition plus its quarantine hold every original byte; {@code restore} brings the original back; and the
 * documented way on (run {@code apply --plan} again, or, when a journaled plan was left unfinished, the
 * {@code repair --apply} that the re-run's refusal names) ends with exactly what an uninterrupted apply leaves.
 */
class PlanApplyFaultTest {
    private static final InputsResolver LENIENT = new InputsResolver(new InputsResolver.CommandLine(false, false,
            null));
    private static final String PARTITION = "streams/1/topics/1/partitions/1";

    @TempDir(factory = FastTempDir.class)
    Path tmp;

    private Path template;
    private PlanFile.Entry entry;
    private Map<String, byte[]> original;
    private Map<String, byte[]> originalTree;
    private Map<String, byte[]> expected;
    private int mutations;
    private int reads;

    /** Replicas a and b of the same messages (as in replica's PlanApplyTest); b damaged three ways. */
    @BeforeEach
    void replicas() throws Exception {
        template = tmp.resolve("template");
        List<PartitionWriter.SegmentLayout> layout = make(template.resolve("a"), 1);
        make(template.resolve("b"), 11);
        Path b = template.resolve("b").resolve(PARTITION);
        Damage.flipByte(b.resolve(layout.get(1).log().getFileName()), layout.get(1).batch(2).position() + 270);
        Files.delete(b.resolve(layout.get(2).log().getFileName()));
        Files.delete(b.resolve(layout.get(2).index().getFileName()));
        PartitionWriter.SegmentLayout tail = layout.get(layout.size() - 1);
        Damage.truncate(b.resolve(tail.log().getFileName()), tail.batch(tail.batches().size() - 1).position() + 290);

        List<ReplicaComparison.Replica> replicas = new ArrayList<>();
        Collector c = new Collector(RecoveryOptions.defaults(), 1, Throttle.NONE);
        for (String n : new String[] {"a", "b"}) {
            List<PartitionPath> parts = Targets.resolve(template.resolve(n)).partitions();
            replicas.add(new ReplicaComparison.Replica(n, c.collect(n, LENIENT.resolve(parts))));
        }
        Path file = tmp.resolve("plan.json");
        Files.writeString(file, ScanJson.mapper().writeValueAsString(ReplicaJson.report(ReplicaJson.PLAN_SCHEMA,
                "test", ReplicaComparison.compare(replicas), List.of())));
        List<PlanFile.Entry> mine = PlanFile.read(file).of("b");
        assertEquals(1, mine.size());
        entry = mine.get(0);
        assertEquals("take", entry.action());
        assertEquals(3, entry.transfers().size(), entry.transfers().toString());
        original = Trees.partitionFiles(b);
        originalTree = Trees.snapshot(template.resolve("b"), false);

        Path ref = tmp.resolve("reference");
        Trees.copy(template, ref);
        FaultFs counting = FaultFs.counting();
        PlanApply.Outcome o = apply(counting, ref);
        assertEquals("applied", o.status(), o.details().toString());
        assertEquals(0, o.exitCode(), () -> o.after().toString());
        expected = Trees.snapshot(ref.resolve("b"), false);
        mutations = counting.mutations();
        reads = counting.reads();
        Trees.delete(ref);
    }

    private static List<PartitionWriter.SegmentLayout> make(Path data, int flushEvery) {
        return PartitionWriter.fill(data.resolve(PARTITION), PartitionWriter.Config.of(1).segmentSize(4096)
                .messagesRequiredToSave(flushEvery), 600, 3, 40, 42);
    }

    private PlanApply.Outcome apply(FaultFs fs, Path root) {
        return apply(fs, root, StepHook.NONE);
    }

    private PlanApply.Outcome apply(FaultFs fs, Path root, StepHook hook) {
        PlanApply runner = new PlanApply(ServerGuard.Report::idle, new Applier(hook, "test"),
                RecoveryOptions.defaults().withThreads(1));
        Path dir = root.resolve("b").resolve(PARTITION);
        Path donor = root.resolve("a");
        return fs == null ? runner.run(entry, dir, donor, LENIENT, true, false)
                : runner.run(entry, fs.wrap(dir), fs.wrap(donor), LENIENT, true, false);
    }

    private static int trials;
    private static final Map<String, Integer> PER_SHAPE = new TreeMap<>();

    @Test
    void aFaultAtEveryMutation_isAnIoErrorInOneLine_nothingIsLost_andItFinishes() throws Exception {
        assertTrue(mutations > 20, mutations + " mutations");
        for (FaultFs.Fault f : FaultFs.Fault.values()) {
            for (int n = 1; n <= mutations; n++) {
                trial(new FaultFs(FaultFs.Kind.MUTATION, n, f), f + " at mutation " + n + " of " + mutations);
            }
        }
        System.out.println("fault injection: apply --plan: " + PER_SHAPE + " (" + trials + " trials so far), all "
                + "clean or restorable");
    }

    @Test
    void aFaultAtEveryRead_isAnIoError_neverARefusalOrDamage() throws Exception {
        assertTrue(reads > 20, reads + " reads");
        for (int n = 1; n <= reads; n++) {
            trial(new FaultFs(FaultFs.Kind.READ, n, FaultFs.Fault.EIO), "EIO at read " + n + " of " + reads);
        }
        System.out.println("fault injection: apply --plan: " + PER_SHAPE + " (" + trials + " trials so far), all "
                + "clean or restorable");
    }

    private void trial(FaultFs fs, String at) throws Exception {
        Path run = tmp.resolve("run");
        Trees.delete(run);
        Trees.copy(template, run);
        Path b = run.resolve("b");
        Path dir = b.resolve(PARTITION);
        PlanApply.Outcome o = apply(fs, run);
        assertNotNull(fs.failed(), at + ": the fault was reached");
        PER_SHAPE.merge(fs.kind() + " " + fs.fault(), 1, Integer::sum);
        trials++;
        String failedFile = Path.of(fs.failed().substring(fs.failed().indexOf(' ') + 1)).getFileName().toString();
        if (fs.kind() == FaultFs.Kind.READ && "applied".equals(o.status())) {
            // the copy is done; the judgement after it could not read: exit 3, naming the file and the reason
            String m = o.after() == null ? null : o.after().ioError();
            assertEquals(3, o.exitCode(), at);
            assertTrue(m != null && m.contains(fs.fault().reason) && m.contains(failedFile),
                    () -> at + ": the check after the apply: " + m);
            Trees.assertSame(expected, Trees.snapshot(b, false), at + ": applied before the failed read");
            return;
        }
        assertEquals("io_error", o.status(), () -> at + " (" + fs.failed() + "): " + o.details() + "\n"
                + fs.failedStack());
        assertEquals(3, o.exitCode(), at);
        String message = o.details().get(o.details().size() - 1);
        assertTrue(message.contains(fs.fault().reason) && message.contains(failedFile),
                () -> at + ": the error names " + failedFile + " and '" + fs.fault().reason + "': " + message);
        assertFalse(message.contains("\n"), at + ": one line: " + message);
        Trees.assertAllBytesHeld(original, dir, at);
        Trees.assertSame(Trees.snapshot(template.resolve("a"), false), Trees.snapshot(run.resolve("a"), false),
                at + ": the donor is untouched");
        Trees.assertRestoresOriginal(b, tmp.resolve("undo"), originalTree, at);

        if (unfinished(dir)) {
            // a journaled plan stopped after its commit point: apply --plan refuses to start another over it and
            // names the command that finishes it
            PlanApply.Outcome again = apply(null, run);
            assertEquals("refused", again.status(), () -> at + ", re-run: " + again.details());
            String line = again.details().get(again.details().size() - 1);
            assertTrue(line.contains("run `segtool repair --apply` first"), () -> at + ", re-run: " + line);
            Repairer.Outcome finished = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
            assertEquals(0, finished.exitCode(), () -> at + ", repair --apply: " + finished.status() + " "
                    + finished.error() + " " + finished.notes());
            assertEquals(1, finished.resumed().size(), at + ": repair finished the journaled plan");
        } else if (completed(dir)) {
            // every operation ran and the manifest says so; only forcing its directory failed: the copy is done,
            // and a re-run refuses (the local files are no longer those collected) without changing anything
            Trees.assertSame(expected, Trees.snapshot(b, false), at + ": done before the failed fsync");
            PlanApply.Outcome again = apply(null, run);
            assertEquals("refused", again.status(), () -> at + ", re-run: " + again.details());
        } else {
            PlanApply.Outcome again = apply(null, run);
            assertEquals("applied", again.status(), () -> at + ", re-run: " + again.details());
            assertEquals(0, again.exitCode(), at);
        }
        Trees.assertSame(expected, Trees.snapshot(b, false), at + ", then finished");
    }

    /**
     * The same on a real, small file system (a tmpfs mounted for the test; skipped where that is not allowed): nearly
     * full, the apply is refused before anything is written; filling up while the new files are assembled (before the
     * commit point) or while they are staged (after it), it is an I/O error naming ENOSPC, and once there is room
     * again, apply --plan again or the repair --apply its refusal names finishes it.
     */
    @Test
    void aRealFullDisk_isRefusedOrAnIoError_andFinishesOnceThereIsRoom() throws Exception {
        Path mnt = tmp.resolve("small");
        try (SmallFs fs = SmallFs.mount(mnt, "4m")) {
            Path root = mnt.resolve("data");
            Trees.copy(template, root);
            Path b = root.resolve("b");
            Path dir = b.resolve(PARTITION);
            SmallFs.fill(mnt, 512 << 10);
            Map<String, byte[]> before = Trees.snapshot(root, true);
            PlanApply.Outcome full = apply(null, root);
            assertEquals("io_error", full.status(), full.details().toString());
            assertEquals(3, full.exitCode());
            String line = full.details().get(full.details().size() - 1);
            assertTrue(line.contains("not enough free space for the quarantine") && !line.contains("\n"), line);
            Trees.assertSame(before, Trees.snapshot(root, true), "nothing written on a nearly full disk");
            SmallFs.unfill(mnt);
            for (String when : new String[] {"new/", SegmentFiles.STAGING}) {
                Trees.delete(root);
                Trees.copy(template, root);
                StepHook hog = (step, action) -> {
                    if (action.startsWith("write ") && action.contains(when)) {
                        SmallFs.fill(mnt, 0);
                    }
                };
                PlanApply.Outcome o = apply(null, root, hog);
                String at = "the disk fills while writing " + when;
                assertEquals("io_error", o.status(), () -> at + ": " + o.details());
                String m = o.details().get(o.details().size() - 1);
                assertTrue(m.contains("No space left on device"), () -> at + ": " + m);
                SmallFs.unfill(mnt);
                Trees.assertAllBytesHeld(original, dir, at);
                if (unfinished(dir)) {
                    assertEquals("refused", apply(null, root).status(), at + ": re-run over the unfinished plan");
                    assertEquals(0, FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false)
                            .exitCode(), at + ": repair --apply finishes it");
                } else {
                    assertTrue(Quarantine.of(dir).isEmpty(), at + ": the preparation is removed");
                    assertEquals("applied", apply(null, root).status(), at + ": applied once there is room");
                }
                Trees.assertSame(expected, Trees.snapshot(b, false), at + ", then finished");
            }
        }
    }

    private static boolean completed(Path dir) throws IOException {
        for (Path q : Quarantine.of(dir)) {
            if (Quarantine.hasManifest(q) && Manifest.COMPLETE.equals(Quarantine.open(q).manifest().state())) {
                return true;
            }
        }
        return false;
    }

    private static boolean unfinished(Path dir) throws IOException {
        for (Path q : Quarantine.of(dir)) {
            if (Quarantine.hasManifest(q) && Quarantine.open(q).unfinished()) {
                return true;
            }
        }
        return false;
    }
}
