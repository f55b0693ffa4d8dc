package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.Refusal;
import segtool.analyzers.salvage.OffsetRanges;
import segtool.analyzers.salvage.Salvager;
import segtool.formats.hash.Xxh3;
import segtool.formats.naming.PartitionPath;

/**
 * {@code repair --accept-loss} on every gallery shape the engine refuses, in each mode that refuses it: the dry run
 * changes nothing and says what leaves; {@code --apply} writes the salvage archive first, then the cuts; afterwards
 * the server's verdict is accepted with nothing left to do; the archive holds every record that verified, byte for
 * byte, and the partition plus its quarantines hold every original byte (reassembled and hashed); restoring the
 * quarantines newest first returns the original tree byte for byte; and a crash before any step of the apply
 * converges, on re-run, to the uninterrupted result.
 */
class AcceptLossTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir(factory = FastTempDir.class)
    Path tmp;

    /** (shape, partition path inside the shape, durable) for every refused gallery verdict. */
    static List<Arguments> refused() throws IOException {
        List<Arguments> out = new ArrayList<>();
        List<Path> shapes;
        try (Stream<Path> dirs = Files.list(GALLERY)) {
            shapes = dirs.filter(d -> Files.exists(d.resolve("expected.json"))).sorted().toList();
        }
        for (Path shape : shapes) {
            JsonNode expected = JSON.readTree(shape.resolve("expected.json").toFile());
            List<JsonNode> partitions = new ArrayList<>();
            if (expected.has("partitions")) {
                expected.get("partitions").forEach(partitions::add);
            } else {
                partitions.add(expected);
            }
            for (JsonNode p : partitions) {
                for (String mode : new String[]{"lenient", "durable"}) {
                    if (p.get(mode).get("outcome").asText().equals("refused")) {
                        out.add(Arguments.of(shape.getFileName().toString(), p.get("partition").asText(),
                                mode.equals("durable")));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void theGalleryRefusesInEveryCuttableVariant() throws IOException {
        List<String> variants = new ArrayList<>();
        for (Arguments a : refused()) {
            Object[] x = a.get();
            PartitionReport r = FixpointTest.ENGINE.judge(PartitionPath.of(GALLERY.resolve((String) x[0])
                    .resolve((String) x[1])), (Boolean) x[2]);
            variants.add(r.refusal().variant().name());
        }
        for (Refusal.Variant v : Refusal.Variant.values()) {
            if (v != Refusal.Variant.StorageSizeMismatch && v != Refusal.Variant.CheckpointSizeMismatch) {
                assertTrue(variants.contains(v.name()), v + " is in no gallery shape: " + variants);
            }
        }
    }

    private static Repairer repairer(StepHook hook) {
        return FixpointTest.repairer(hook);
    }

    private static PartitionPath partition(Path root, String inside) {
        return PartitionPath.of(root.resolve(inside));
    }

    @ParameterizedTest(name = "{0} durable={2}")
    @MethodSource("refused")
    void acceptLoss_bootsHoldsEveryByte_andRestores(String shape, String inside, boolean durable) throws Exception {
        Path root = tmp.resolve("root");
        Trees.copy(GALLERY.resolve(shape), root);
        PartitionPath p = partition(root, inside);
        Map<String, byte[]> originalTree = Trees.snapshot(root, false);
        Map<String, byte[]> originalFiles = Trees.partitionFiles(p.directory());

        // the dry run: changes nothing, and names the first cut
        Repairer.Outcome dry = repairer(StepHook.NONE).acceptLoss(p, durable, false, false, null, "test");
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> dry.error() + " " + dry.notes());
        assertEquals(1, dry.exitCode());
        assertNotNull(dry.loss());
        assertEquals(1, dry.loss().cuts().size());
        assertEquals(dry.before().refusal(), dry.loss().cuts().get(0).refusal());
        assertNull(dry.loss().archive());
        Trees.assertSame(originalTree, Trees.snapshot(root, true), shape + ": the dry run changed files");

        Path archive = tmp.resolve("salvage");
        Repairer.Outcome o = repairer(StepHook.NONE).acceptLoss(p, durable, true, false, archive, "test");
        assertEquals(Repairer.Status.APPLIED, o.status(), () -> o.error() + " " + o.notes() + " " + o.loss());
        assertEquals(0, o.exitCode(), () -> shape + ": " + o.notes());
        assertNull(o.loss().unsafe());
        Trees.assertClean(p, durable, shape + " after accept-loss");

        assertArchiveHoldsEveryVerifyingRecord(archive, originalFiles, dry.loss().survey(), shape);
        assertReassembles(originalFiles, p.directory(), o.loss().quarantinesNewestFirst(), shape);

        for (Path q : o.loss().quarantinesNewestFirst()) {
            Repairer.RestoreOutcome r = repairer(StepHook.NONE).restore(q, true, false);
            assertEquals(0, r.exitCode(), () -> shape + ": restore " + q + ": " + r.error() + " " + r.result());
        }
        Trees.assertSame(originalTree, Trees.snapshot(root, false), shape + ", then restore newest first");
    }

    @ParameterizedTest(name = "{0} durable={2}")
    @MethodSource("refused")
    void crashAtEveryStep_reRunConverges(String shape, String inside, boolean durable) throws Exception {
        Path template = tmp.resolve("template");
        Trees.copy(GALLERY.resolve(shape), template);
        Map<String, byte[]> originalFiles = Trees.partitionFiles(partition(template, inside).directory());
        Path ref = tmp.resolve("reference");
        Trees.copy(template, ref);
        Applier counting = new Applier(StepHook.NONE, "test");
        Repairer.Outcome whole = new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, counting, x -> true)
                .acceptLoss(partition(ref, inside), durable, true, false, tmp.resolve("ref-salvage"), "test");
        assertEquals(0, whole.exitCode(), () -> whole.notes() + " " + whole.error());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        int steps = counting.steps();
        assertTrue(steps > 3, shape + ": steps " + steps);
        Trees.delete(ref);
        for (int k = 0; k < steps; k++) {
            String at = shape + " durable=" + durable + ": crash before step " + k + " of " + steps;
            Path run = tmp.resolve("run");
            Path archive = tmp.resolve("run-salvage");
            Trees.copy(template, run);
            PartitionPath p = partition(run, inside);
            Repairer.Outcome crashed = repairer(CrashInjectionTest.crashAt(k)).acceptLoss(p, durable, true, false,
                    archive, "test");
            assertEquals(Repairer.Status.IO_ERROR, crashed.status(), at);
            assertTrue(crashed.error().contains("injected crash"), at + ": " + crashed.error());
            assertReassembles(originalFiles, p.directory(), newestFirst(p.directory()), at);

            Repairer.Outcome rerun = repairer(StepHook.NONE).acceptLoss(p, durable, true, false, archive, "test");
            assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error() + " "
                    + rerun.notes());
            Trees.assertSame(expected, Trees.snapshot(run, false), at + ", then a re-run");
            assertTrue(Files.isRegularFile(archive.resolve(Salvager.SUMMARY)), at);
            Trees.delete(run);
            Trees.delete(archive);
        }
    }

    /**
     * Issue 16.2 for accept-loss: EIO or a torn write (FaultFs) at every file-system operation of the salvage and
     * the cuts. Each is an I/O error in one line naming the file and the reason; the partition, its quarantines and
     * the fenced copies still hold every original byte; a re-run ends as an uninterrupted run does.
     */
    @ParameterizedTest(name = "{0} durable={2}")
    @MethodSource("refused")
    void aFaultAtEveryMutation_isAnIoError_andAReRunConverges(String shape, String inside, boolean durable)
            throws Exception {
        Path template = tmp.resolve("template");
        Trees.copy(GALLERY.resolve(shape), template);
        Map<String, byte[]> originalFiles = Trees.partitionFiles(partition(template, inside).directory());
        Path ref = tmp.resolve("reference");
        Trees.copy(template, ref);
        FaultFs counting = FaultFs.counting();
        Repairer.Outcome whole = repairer(StepHook.NONE).acceptLoss(PartitionPath.of(counting.wrap(
                partition(ref, inside).directory())), durable, true, false, counting.wrap(tmp.resolve("ref-salvage")),
                "test");
        assertEquals(0, whole.exitCode(), () -> whole.notes() + " " + whole.error());
        Map<String, byte[]> expected = Trees.snapshot(ref, false);
        Trees.delete(ref);
        Trees.delete(tmp.resolve("ref-salvage"));
        int steps = counting.mutations();
        int trials = 0;
        for (FaultFs.Fault f : new FaultFs.Fault[] {FaultFs.Fault.EIO, FaultFs.Fault.TORN_WRITE}) {
            for (int n = 1; n <= steps; n++) {
                String at = shape + " durable=" + durable + ": " + f + " at mutation " + n + " of " + steps;
                Path run = tmp.resolve("run");
                Path archive = tmp.resolve("run-salvage");
                Trees.copy(template, run);
                Path dir = partition(run, inside).directory();
                FaultFs fs = new FaultFs(FaultFs.Kind.MUTATION, n, f);
                Repairer.Outcome failed = repairer(StepHook.NONE).acceptLoss(PartitionPath.of(fs.wrap(dir)), durable,
                        true, false, fs.wrap(archive), "test");
                if (fs.failed() == null) {
                    // this run made fewer operations than the counted one (a quarantine name taken in the counted
                    // run costs a second mkdir): nothing failed, so it must have ended as an uninterrupted run
                    assertEquals(0, failed.exitCode(), () -> at + ": " + failed.error());
                    Trees.assertSame(expected, Trees.snapshot(run, false), at + ": no fault reached");
                    Trees.delete(run);
                    Trees.delete(archive);
                    continue;
                }
                assertEquals(Repairer.Status.IO_ERROR, failed.status(), () -> at + " (" + fs.failed() + "): "
                        + failed.status() + " " + failed.error());
                assertEquals(3, failed.exitCode(), at);
                String file = Path.of(fs.failed().substring(fs.failed().indexOf(' ') + 1)).getFileName().toString();
                assertTrue(failed.error().contains(f.reason) && failed.error().contains(file), () -> at + ": "
                        + failed.error());
                assertFalse(failed.error().contains("\n"), at);
                assertReassembles(originalFiles, dir, newestFirst(dir), at);
                Repairer.Outcome rerun = repairer(StepHook.NONE).acceptLoss(PartitionPath.of(dir), durable, true,
                        false, archive, "test");
                assertEquals(0, rerun.exitCode(), () -> at + ", re-run: " + rerun.status() + " " + rerun.error()
                        + " " + rerun.notes());
                Trees.assertSame(expected, Trees.snapshot(run, false), at + ", then a re-run");
                assertTrue(Files.isRegularFile(archive.resolve(Salvager.SUMMARY)), at);
                Trees.delete(run);
                Trees.delete(archive);
                trials++;
            }
        }
        System.out.println("fault injection: accept-loss " + shape + " durable=" + durable + ": " + trials
                + " trials, all converged");
    }

    @Test
    void aCheckpointedPartition_isRefusedInOneLine_andNothingChanges() throws Exception {
        Path root = tmp.resolve("root");
        Trees.copy(GALLERY.resolve("interior-damage"), root);
        PartitionPath p = partition(root, "streams/1/topics/1/partitions/1");
        Map<String, byte[]> before = Trees.snapshot(root, true);
        // a checkpoint longer than the log: StorageSizeMismatch (RECOVERY 9 item 2)
        RecoveryEngine engine = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)
                .withCheckpoint(new Checkpoint(0, 5_000, 5)));
        Repairer repairer = new Repairer(engine, ServerGuard.Report::idle, new Applier(StepHook.NONE, "test"),
                x -> true);
        Repairer.Outcome o = repairer.acceptLoss(p, false, true, false, tmp.resolve("salvage"), "test");
        assertEquals(Refusal.Variant.StorageSizeMismatch, o.before().refusal().variant());
        assertEquals(Repairer.Status.REFUSED, o.status());
        assertEquals(2, o.exitCode());
        assertTrue(o.loss().unsafe().contains("WAL"), o.loss().unsafe());
        assertTrue(!o.loss().unsafe().contains("\n"));
        Trees.assertSame(before, Trees.snapshot(root, true), "nothing changes");
        assertTrue(!Files.exists(tmp.resolve("salvage")), "no archive either");
    }

    @Test
    void sizesRefusals_haveNoCut() throws Exception {
        Path root = tmp.resolve("root");
        Trees.copy(GALLERY.resolve("healthy"), root);
        PartitionPath p = partition(root, "streams/1/topics/1/partitions/1");
        PartitionReport refused = new PartitionReport(p, false, PartitionReport.Outcome.REFUSED,
                new Refusal.CheckpointSizeMismatch(0, 782, 1145), null, null, List.of(), List.of(), List.of(), 0, null,
                null);
        var stake = segtool.analyzers.salvage.AtStake.of(refused, new Salvager(Salvager.Options.defaults("test"))
                .survey(p, new ArrayList<>()));
        AcceptLoss.Unsafe u = org.junit.jupiter.api.Assertions.assertThrows(AcceptLoss.Unsafe.class,
                () -> AcceptLoss.plan(FixpointTest.ENGINE, refused, stake));
        assertTrue(u.getMessage().startsWith("CheckpointSizeMismatch is about sizes"), u.getMessage());
    }

    @Test
    void anApplyWithoutSalvageTo_changesNothing() throws Exception {
        Path root = tmp.resolve("root");
        Trees.copy(GALLERY.resolve("hole"), root);
        PartitionPath p = partition(root, "streams/1/topics/1/partitions/1");
        Map<String, byte[]> before = Trees.snapshot(root, true);
        Repairer.Outcome o = repairer(StepHook.NONE).acceptLoss(p, false, true, false, null, "test");
        assertEquals(3, o.exitCode());
        assertTrue(o.error().contains("--salvage-to"), o.error());
        Trees.assertSame(before, Trees.snapshot(root, true), "nothing changes");
    }

    /**
     * The spec's vector (canonical 00000000000000000000.log and .index) plus a 0-byte stray {@code 0.log}: the
     * load's start list is [0, 0] and pass B refuses Hole. RECOVERY 3 and 13.4 report such names rather than
     * emulate them, so accept-loss refuses in one line naming the stray file, dry run and apply alike, and changes
     * nothing (it used to move every segment with start >= 0 aside, emptying the partition).
     */
    @Test
    void aHoleFromAStrayName_isRefusedInOneLine_andNothingChanges() throws Exception {
        Path root = tmp.resolve("root");
        Trees.copy(GALLERY.resolve("healthy"), root);
        PartitionPath p = partition(root, "streams/1/topics/1/partitions/1");
        Files.write(p.directory().resolve("0.log"), new byte[0]);
        PartitionReport judged = FixpointTest.ENGINE.judge(p, false);
        assertEquals(Refusal.Variant.Hole, judged.refusal().variant(), String.valueOf(judged.refusal()));
        Map<String, byte[]> before = Trees.snapshot(root, true);
        for (boolean apply : new boolean[]{false, true}) {
            Repairer.Outcome o = repairer(StepHook.NONE).acceptLoss(p, false, apply, false, tmp.resolve("salvage"),
                    "test");
            assertEquals(Repairer.Status.REFUSED, o.status(), "apply " + apply);
            assertEquals(2, o.exitCode());
            String line = o.loss().unsafe();
            assertTrue(line.startsWith("non-canonical segment name(s) 0.log; start offset(s) loaded more than "
                    + "once: 0:"), line);
            assertTrue(line.contains("move the stray files aside by hand"), line);
            assertFalse(line.contains("\n"));
            Trees.assertSame(before, Trees.snapshot(root, true), "nothing changes, apply " + apply);
            assertFalse(Files.exists(tmp.resolve("salvage")), "no archive either");
        }
    }

    /**
     * Durable V6 with the foreign-batch shape's foreign record appended at 1145 (AtStakeTest builds the same): the
     * dry run's cut at 1145 keeps offsets 0-4, so none is listed as leaving, though the survey's byte-0 chain breaks
     * at 315 and offset 4 lies past it.
     */
    @Test
    void aDurableDryRun_countsOnlyTheRecordsAtOrPastTheCut() throws Exception {
        Path v6 = GALLERY.resolve("interior-damage-below-last-entry").resolve("streams/1/topics/1/partitions/1");
        byte[] foreign = Files.readAllBytes(GALLERY.resolve("foreign-batch")
                .resolve("streams/1/topics/1/partitions/1/00000000000000000000.log"));
        PartitionPath p = partition(tmp.resolve("root"), "streams/1/topics/1/partitions/1");
        Files.createDirectories(p.directory());
        byte[] log = Files.readAllBytes(v6.resolve("00000000000000000000.log"));
        byte[] both = Arrays.copyOf(log, log.length + foreign.length - 782);
        System.arraycopy(foreign, 782, both, log.length, foreign.length - 782);
        Files.write(p.directory().resolve("00000000000000000000.log"), both);
        Files.copy(v6.resolve("00000000000000000000.index"), p.directory().resolve("00000000000000000000.index"));
        Repairer.Outcome o = repairer(StepHook.NONE).acceptLoss(p, true, false, false, null, "test");
        assertEquals(Repairer.Status.PLANNED, o.status());
        var cut = o.loss().cuts().get(0).stake().cut();
        assertEquals(1145, cut.position());
        assertEquals(List.of(), cut.offsetsLeaving());
    }

    /**
     * Review finding #9 (RECOVERY 4.3 A7, 8, example V2/V5): a durable boot keeps the writer's index ({@code 24·n})
     * over a log it verifies from the last entry on. A log cut below which every entry still maps its batch and the
     * walk from the last one reaches the cut needs no new index: the plan truncates the log and keeps the index
     * (here whole: every entry lies below the cut), and the next durable boot keeps both as they are. Lenient mode
     * gives index entries no evidence value, so there the index is R()'s over the kept bytes.
     */
    @Test
    void aDurableLogCut_keepsTheWritersIndex_lenientTakesRsIndex() throws Exception {
        byte[] foreign = Files.readAllBytes(GALLERY.resolve("foreign-batch")
                .resolve("streams/1/topics/1/partitions/1/00000000000000000000.log"));
        for (boolean durable : new boolean[] {true, false}) {
            PartitionPath p = partition(tmp.resolve("cut-" + durable), "streams/1/topics/1/partitions/1");
            Trees.copy(GALLERY.resolve("healthy/streams/1/topics/1/partitions/1"), p.directory()); // V1
            Path log = p.directory().resolve("00000000000000000000.log");
            Path index = p.directory().resolve("00000000000000000000.index");
            Files.write(log, Arrays.copyOfRange(foreign, 782, foreign.length), StandardOpenOption.APPEND);
            byte[] writers = Files.readAllBytes(index);
            assertEquals(72, writers.length, "I3: entries at 0, 315, 782");
            long length = Files.size(log);
            assertEquals(Refusal.Variant.ForeignBatch, FixpointTest.ENGINE.judge(p, durable).refusal().variant());
            Repairer.Outcome o = repairer(StepHook.NONE).acceptLoss(p, durable, true, false,
                    tmp.resolve("salvage-" + durable), "test");
            assertEquals(0, o.exitCode(), () -> o.status() + " " + o.error() + " " + o.loss());
            List<RepairOp> ops = o.loss().cuts().get(0).plan().ops();
            if (durable) {
                assertEquals(List.of(new RepairOp.TruncateLog(0, log.getFileName().toString(), length, 1145)), ops);
                assertArrayEquals(writers, Files.readAllBytes(index), "the writer's index is kept");
            } else {
                assertEquals(List.of("truncate_log", "stage_index", "install_index"),
                        ops.stream().map(RepairOp::kind).toList());
                assertEquals(24, Files.size(index), "R()'s index over 1145 bytes: one entry");
            }
            assertEquals(1, o.loss().cuts().size(), "one cut, and no repair after it");
            assertEquals(1145, Files.size(log));
            Trees.assertClean(p, durable, "after the cut, durable=" + durable);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    static List<Path> newestFirst(Path partition) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path q : Quarantine.of(partition)) {
            if (Quarantine.hasManifest(q)) {
                out.add(0, q);
            }
        }
        return out;
    }

    /**
     * Every original file reassembled from what is on disk now, undoing the quarantines newest first on paper: each
     * quarantined range put back at its offset and the file set to its length before that step; a fenced copy
     * counts too. Compared by XXH3 and byte for byte.
     */
    static void assertReassembles(Map<String, byte[]> original, Path partition, List<Path> newestFirst,
                                  String context) throws IOException {
        List<Quarantine> qs = new ArrayList<>();
        for (Path q : newestFirst) {
            qs.add(Quarantine.open(q));
        }
        for (Map.Entry<String, byte[]> f : original.entrySet()) {
            Path now = partition.resolve(f.getKey());
            byte[] bytes = Files.isRegularFile(now) ? Files.readAllBytes(now) : new byte[0];
            for (Quarantine q : qs) {
                List<QuarantineEntry> es = q.manifest().entries().stream()
                        .filter(e -> e.file().equals(f.getKey())).toList();
                if (es.isEmpty()) {
                    continue;
                }
                byte[] before = Arrays.copyOf(bytes, (int) es.get(0).originalLength());
                for (QuarantineEntry e : es) {
                    byte[] copy = Files.readAllBytes(q.copy(e));
                    assertEquals(Hashing.parse(e.xxh3()), Xxh3.hash(copy), context + ": " + e.copy());
                    System.arraycopy(copy, 0, before, (int) e.offset(), copy.length);
                }
                bytes = before;
            }
            boolean held = Arrays.equals(bytes, f.getValue());
            if (!held) {
                try (Stream<Path> s = Files.list(partition.getParent())) {
                    for (Path d : (Iterable<Path>) s::iterator) {
                        Path fenced = d.resolve(f.getKey());
                        if (d.getFileName().toString().startsWith(partition.getFileName() + ".fenced.")
                                && Files.isRegularFile(fenced)) {
                            held |= Arrays.equals(Files.readAllBytes(fenced), f.getValue());
                        }
                    }
                }
            }
            assertTrue(held, context + ": the original " + f.getKey() + " (" + f.getValue().length + " bytes, xxh3 "
                    + Xxh3.hex(Xxh3.hash(f.getValue())) + ") cannot be put back from the partition and its "
                    + "quarantines");
        }
    }

    /**
     * The archive's batches.log holds, for each record of the survey of the original partition that verifies,
     * its exact bytes (found at its source position in the original files, hashed); its offsets are the survey's.
     */
    private static void assertArchiveHoldsEveryVerifyingRecord(Path archive, Map<String, byte[]> originalFiles,
                                                               Salvager.Result survey, String shape)
            throws IOException {
        byte[] log = Files.readAllBytes(archive.resolve(Salvager.BATCHES_LOG));
        OffsetRanges held = new OffsetRanges();
        long live = 0;
        try (BufferedReader r = Files.newBufferedReader(archive.resolve(Salvager.BATCHES_NDJSON))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                JsonNode b = JSON.readTree(line);
                assertTrue(b.get("verified").asBoolean(), line);
                int len = b.get("batch_length").asInt();
                int at = b.get("archive").get("position").asInt();
                byte[] copy = Arrays.copyOfRange(log, at, at + len);
                assertEquals(b.get("xxh3").asText(), Xxh3.hex(Xxh3.hash(copy)), shape + ": " + line);
                if (b.get("source").get("kind").asText().equals("segment")) {
                    live++;
                    String name = Path.of(b.get("source").get("file").asText()).getFileName().toString();
                    byte[] orig = originalFiles.get(name);
                    int pos = b.get("source").get("position").asInt();
                    assertTrue(Arrays.equals(copy, Arrays.copyOfRange(orig, pos, pos + len)), shape + ": " + line);
                }
                if (!b.get("foreign").asBoolean() && b.has("end_offset") && !b.get("end_offset").isNull()) {
                    held.add(b.get("base_offset").asLong(), b.get("end_offset").asLong());
                }
            }
        }
        assertEquals(survey.batches(), countLines(archive.resolve(Salvager.BATCHES_NDJSON)), shape);
        assertEquals(survey.archived().list(), held.list(), shape);
        assertTrue(live > 0 || survey.archived().list().isEmpty(), shape);
    }

    private static long countLines(Path p) throws IOException {
        try (Stream<String> s = Files.lines(p)) {
            return s.count();
        }
    }
}
