package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.formats.naming.PartitionPath;

/**
 * Issue 16.2: real I/O errors (EIO, ENOSPC, EROFS, a torn write) at every file-system operation of {@code repair
 * --apply} and {@code restore --apply}, injected under the applier by {@link FaultFs}, on every repairable shape.
 * After each: the command reports an I/O error (exit 3) in one line naming the file and the OS reason, never
 * damage; the partition plus its quarantine hold every original byte; {@code restore} brings the original back;
 * and a re-run ends with exactly what an uninterrupted run leaves. The figures are printed for the note.
 */
class FaultInjectionTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    private record Template(Path root, Map<String, byte[]> original, Map<String, byte[]> originalTree,
                            Map<String, byte[]> expected, int mutations, int reads) {
    }

    private Template template(Shapes.Shape shape, boolean durable) throws IOException {
        Path root = tmp.resolve("template");
        Trees.delete(root);
        PartitionPath p = Shapes.make(root, shape);
        Map<String, byte[]> original = Trees.partitionFiles(p.directory());
        Map<String, byte[]> originalTree = Trees.snapshot(root, false);
        Path ref = tmp.resolve("reference");
        Trees.copy(root, ref);
        FaultFs counting = FaultFs.counting();
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(counting.wrap(Shapes.partitionDir(ref))),
                durable, true, false);
        assertEquals(0, o.exitCode(), () -> shape + ": " + o.error() + " " + o.notes());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        Trees.delete(ref);
        return new Template(root, original, originalTree, expected, counting.mutations(), counting.reads());
    }

    static Stream<Arguments> shapes() {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of(new Shapes.Shape("composite", Shapes::composite), false));
        out.add(Arguments.of(new Shapes.Shape("composite", Shapes::composite), true));
        for (Shapes.Shape s : Shapes.repairable()) {
            out.add(Arguments.of(s, false));
        }
        return out.stream();
    }

    private static int trials;
    private static int absorbed;

    @ParameterizedTest(name = "{0}, enforce_fsync={1}")
    @MethodSource("shapes")
    void aFaultAtEveryMutation_isAnIoErrorInOneLine_nothingIsLost_andARerunConverges(Shapes.Shape shape,
                                                                                    boolean durable)
            throws Exception {
        Template t = template(shape, durable);
        assertTrue(t.mutations() > 5, shape + ": " + t.mutations() + " mutations");
        // the lenient composite (every kind of operation) gets every fault at every step; the durable composite an
        // error and a torn write; each other shape a torn write (the fault whose bytes reach the disk)
        FaultFs.Fault[] faults = shape.name().equals("composite") && !durable ? FaultFs.Fault.values()
                : shape.name().equals("composite") ? new FaultFs.Fault[] {FaultFs.Fault.EIO, FaultFs.Fault.TORN_WRITE}
                : new FaultFs.Fault[] {FaultFs.Fault.TORN_WRITE};
        for (FaultFs.Fault f : faults) {
            for (int n = 1; n <= t.mutations(); n++) {
                trial(t, durable, new FaultFs(FaultFs.Kind.MUTATION, n, f), shape + ", " + f + " at mutation " + n
                        + " of " + t.mutations());
            }
        }
    }

    @Test
    void aFaultAtEveryRead_isAnIoError_neverDamage() throws Exception {
        Template t = template(new Shapes.Shape("composite", Shapes::composite), false);
        assertTrue(t.reads() > 5, t.reads() + " reads");
        for (int n = 1; n <= t.reads(); n++) {
            trial(t, false, new FaultFs(FaultFs.Kind.READ, n, FaultFs.Fault.EIO), "EIO at read " + n + " of "
                    + t.reads());
        }
    }

    private void trial(Template t, boolean durable, FaultFs fs, String at) throws Exception {
        Path run = tmp.resolve("run");
        Trees.delete(run);
        Trees.copy(t.root(), run);
        Path dir = Shapes.partitionDir(run);
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(fs.wrap(dir)), durable, true, false);
        assertNotNull(fs.failed(), at + ": the fault was reached");
        if (fs.kind() == FaultFs.Kind.READ && o.status() == Repairer.Status.APPLIED && o.exitCode() == 3) {
            // the repair is done; the judgement after it could not read: exit 3, naming the file and the reason
            String m = o.after() == null ? null : o.after().ioError();
            assertTrue(m != null && m.contains(fs.fault().reason), () -> at + ": the check after the repair: " + m);
            Trees.assertSame(t.expected(), Trees.snapshot(run, false), at + ": applied before the failed read");
            Trees.delete(run);
            trials++;
            return;
        }
        if (fs.kind() == FaultFs.Kind.READ && o.status() != Repairer.Status.IO_ERROR) {
            // a read the server's recovery does not make (lenient mode's anchor search is evidence only,
            // RECOVERY 4.8): it may decide nothing, so the run must end exactly as an uninterrupted one
            assertEquals(0, o.exitCode(), () -> at + " (" + fs.failed() + "): " + o.status() + " " + o.error());
            Trees.assertSame(t.expected(), Trees.snapshot(run, false), at + ": a read that decides nothing");
            Trees.delete(run);
            absorbed++;
            trials++;
            return;
        }
        assertEquals(Repairer.Status.IO_ERROR, o.status(), () -> at + " (" + fs.failed() + "): " + o.status()
                + " " + o.error() + " " + o.notes() + "\n" + fs.failedStack());
        assertEquals(3, o.exitCode(), at);
        String failedFile = Path.of(fs.failed().substring(fs.failed().indexOf(' ') + 1)).getFileName().toString();
        // an error while judging is the verdict's I/O error; one while applying is the outcome's
        String message = o.error() != null ? o.error() : o.before() == null ? null : o.before().ioError();
        assertNotNull(message, at);
        assertTrue(message.contains(fs.fault().reason) && message.contains(failedFile),
                () -> at + ": the error names " + failedFile + " and '" + fs.fault().reason + "': " + message);
        assertFalse(message.contains("\n"), at + ": one line: " + message);
        Trees.assertAllBytesHeld(t.original(), dir, at);

        if (!durable) {
            // restore does not depend on the mode; once is enough
            Trees.assertRestoresOriginal(run, tmp.resolve("undo"), t.originalTree(), at);
        }
        Repairer.Outcome rerun = FixpointTest.repairer().repair(PartitionPath.of(dir), durable, true, false);
        assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error() + " "
                + rerun.notes());
        Trees.assertSame(t.expected(), Trees.snapshot(run, false), at + ", then a re-run");
        Trees.delete(run);
        trials++;
    }

    /** rebuild-index --apply on KillStressTest's rebuild shape (one index deleted, one cut, one emptied). */
    @Test
    void rebuildIndex_aFaultAtEveryMutation_isAnIoError_andARerunConverges() throws Exception {
        Path template = tmp.resolve("rebuild-template");
        Path dir0 = Shapes.partitionDir(template);
        KillStressTest.build(dir0, true);
        Map<String, byte[]> original = Trees.partitionFiles(dir0);
        Map<String, byte[]> originalTree = Trees.snapshot(template, false);
        Path ref = tmp.resolve("rebuild-reference");
        Trees.copy(template, ref);
        FaultFs counting = FaultFs.counting();
        Repairer.Outcome whole = FixpointTest.repairer().rebuildIndex(PartitionPath.of(counting.wrap(
                Shapes.partitionDir(ref))), null, false, true, false);
        assertEquals(0, whole.exitCode(), () -> whole.status() + " " + whole.error());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        Trees.delete(ref);
        int steps = counting.mutations();
        assertTrue(steps > 10, steps + " rebuild-index mutations");
        for (FaultFs.Fault f : new FaultFs.Fault[] {FaultFs.Fault.EIO, FaultFs.Fault.TORN_WRITE}) {
            for (int n = 1; n <= steps; n++) {
                String at = "rebuild-index, " + f + " at mutation " + n + " of " + steps;
                Path run = tmp.resolve("run");
                Trees.delete(run);
                Trees.copy(template, run);
                Path dir = Shapes.partitionDir(run);
                FaultFs fs = new FaultFs(FaultFs.Kind.MUTATION, n, f);
                Repairer.Outcome o = FixpointTest.repairer().rebuildIndex(PartitionPath.of(fs.wrap(dir)), null, false,
                        true, false);
                assertNotNull(fs.failed(), at);
                assertEquals(3, o.exitCode(), () -> at + " (" + fs.failed() + "): " + o.status() + " " + o.error());
                assertTrue(o.error() != null && o.error().contains(f.reason), () -> at + ": " + o.error());
                Trees.assertAllBytesHeld(original, dir, at);
                Trees.assertRestoresOriginal(run, tmp.resolve("undo"), originalTree, at);
                Repairer.Outcome rerun = FixpointTest.repairer().rebuildIndex(PartitionPath.of(dir), null, false,
                        true, false);
                assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error());
                Trees.assertSame(expected, Trees.snapshot(run, false), at + ", then a re-run");
                Trees.delete(run);
                trials++;
            }
        }
    }

    @Test
    void aFaultAtEveryMutationOfRestore_isAnIoError_andRestoreAgainRestores() throws Exception {
        Template t = template(new Shapes.Shape("composite", Shapes::composite), false);
        Path probe = tmp.resolve("probe");
        Trees.copy(t.root(), probe);
        Repairer.Outcome done = FixpointTest.repairer().repair(PartitionPath.of(Shapes.partitionDir(probe)), false,
                true, false);
        FaultFs counting = FaultFs.counting();
        assertEquals(0, FixpointTest.repairer().restore(counting.wrap(done.quarantine()), true, false).exitCode());
        int steps = counting.mutations();
        Trees.delete(probe);
        assertTrue(steps > 10, steps + " restore mutations");
        for (FaultFs.Fault f : FaultFs.Fault.values()) {
            for (int n = 1; n <= steps; n++) {
                String at = "restore, " + f + " at mutation " + n + " of " + steps;
                Path run = tmp.resolve("run");
                Trees.delete(run);
                Trees.copy(t.root(), run);
                Repairer.Outcome r = FixpointTest.repairer().repair(PartitionPath.of(Shapes.partitionDir(run)),
                        false, true, false);
                assertEquals(0, r.exitCode(), at);
                FaultFs fs = new FaultFs(FaultFs.Kind.MUTATION, n, f);
                Repairer.RestoreOutcome crashed = FixpointTest.repairer().restore(fs.wrap(r.quarantine()), true,
                        false);
                assertNotNull(fs.failed(), at);
                assertEquals(3, crashed.exitCode(), () -> at + " (" + fs.failed() + "): " + crashed.error() + " "
                        + crashed.result());
                assertTrue(crashed.error() != null && crashed.error().contains(f.reason), () -> at + ": "
                        + crashed.error());
                Trees.assertAllBytesHeld(t.original(), Shapes.partitionDir(run), at);
                Repairer.RestoreOutcome again = FixpointTest.repairer().restore(r.quarantine(), true, false);
                assertEquals(0, again.exitCode(), () -> at + ": " + again.error() + " " + again.result());
                Trees.assertSame(t.originalTree(), Trees.snapshot(run, false), at + ", then restore again");
                Trees.delete(run);
                trials++;
            }
        }
        System.out.println("fault injection: " + trials + " trials so far in this class, all clean or restorable ("
                + absorbed + " reads the verdict does not depend on)");
    }
}
