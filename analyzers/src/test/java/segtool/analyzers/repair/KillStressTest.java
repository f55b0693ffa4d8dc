package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.replica.PlanApply;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.Unmapper;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * Randomised {@code kill -9} of {@code repair --apply}, {@code rebuild-index --apply}, {@code restore --apply},
 * {@code repair --accept-loss --apply} and {@code apply --plan --apply} on multi-segment partitions
 * ({@link KillNineTest} does a few kills of one repair; this is its stress form). Each trial copies a damaged
 * partition, starts the command in a child JVM ({@link KillStressChild}) and SIGKILLs it
 * either right after a random mutation step (with 0-2 ms of jitter) or after a random delay within the command's
 * uninterrupted run time. Then the partition and its quarantines must still hold every original byte, and a re-run
 * of the same command must exit 0 and leave exactly what an uninterrupted run leaves (every file, by XXH3).
 *
 * <p>The suite runs {@value #DEFAULT_TRIALS} trials on partitions of about 256 KiB; {@code bench/kill-stress.sh}
 * runs thousands on larger ones through {@code -Dkillstress.trials}, {@code -Dkillstress.bytes} and
 * {@code -Dkillstress.seed}. Every assertion names the seed and the trial.
 */
class KillStressTest {
    static final int DEFAULT_TRIALS = 20;
    static final int TRIALS = Integer.getInteger("killstress.trials", DEFAULT_TRIALS);
    static final long SEED = Long.getLong("killstress.seed", 0x5E97_0016L);
    /** Log bytes of the partition, over four segments. */
    static final long BYTES = Long.getLong("killstress.bytes", 256L << 10);

    @TempDir
    Path tmp;

    enum Command {
        REPAIR("repair"), REBUILD_INDEX("rebuild-index"), RESTORE("restore"), ACCEPT_LOSS("accept-loss"),
        APPLY_PLAN("apply-plan");

        final String arg;

        Command(String arg) {
            this.arg = arg;
        }
    }

    /** One command on one damaged partition: its template, the bytes to hold, and the uninterrupted result. */
    record Case(Command command, boolean durable, Path template, Path original, Path quarantine, Path plan,
                int steps, Map<String, Long> expected, long childMillis) {
    }

    /** The partition a command changes under a trial's root: replica b's for apply --plan. */
    static Path partitionDir(Command command, Path root) {
        return Shapes.partitionDir(command == Command.APPLY_PLAN ? root.resolve(KillStressChild.REPLICA) : root);
    }

    @Test
    void randomKills_reRunConverges_andEveryByteIsHeld() throws Exception {
        Random random = new Random(SEED);
        List<Case> cases = new ArrayList<>();
        for (boolean durable : new boolean[]{false, true}) {
            for (Command c : Command.values()) {
                cases.add(prepare(c, durable));
            }
        }
        int killed = 0;
        int byStep = 0;
        int finishedFirst = 0;
        List<String> report = new ArrayList<>();
        for (int i = 0; i < TRIALS; i++) {
            Case c = cases.get(i % cases.size());
            boolean step = random.nextBoolean();
            int k = step ? random.nextInt(c.steps()) : -1;
            long delay = step ? 0 : random.nextInt((int) Math.max(1, c.childMillis()));
            String at = "trial " + i + " of seed " + SEED + ": " + c.command().arg + " --apply, enforce_fsync="
                    + c.durable() + ", kill " + (step ? "after step " + k + " of " + c.steps()
                    : "at " + delay + " ms of about " + c.childMillis());
            Path run = tmp.resolve("run");
            Trees.copy(c.template(), run);
            Path partition = partitionDir(c.command(), run);
            Path target = c.command() == Command.RESTORE ? run.resolve(c.template().relativize(c.quarantine()))
                    : partition;
            Process child = start(c.command(), target, c.durable(), k, run.resolve(SALVAGE), c.plan());
            // No trial can hang the suite: a child that neither reaches its step nor ends is killed and fails below.
            CompletableFuture.delayedExecutor(120, TimeUnit.SECONDS).execute(child::destroyForcibly);
            String seen = step ? killAtStep(child, random) : killAfter(child, delay);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), at + ": the child did not die");
            int exit = child.exitValue();
            String said = seen;
            assertTrue(!step || said != null && said.startsWith("AT "), () -> at + ": the child never reached the "
                    + "step: " + said);
            if (exit == 137) {
                killed++;
                byStep += step ? 1 : 0;
            } else {
                assertEquals(0, exit, at + ": the child, not killed, exited " + exit + ": " + seen);
                finishedFirst++;
            }
            report.add(at + " -> exit " + exit + (seen == null ? "" : ", " + seen));

            if (c.command() == Command.ACCEPT_LOSS) {
                // several cuts can each quarantine a part of one file: reassembled newest quarantine first
                AcceptLossTest.assertReassembles(Trees.partitionFiles(c.original()), partition,
                        AcceptLossTest.newestFirst(partition), at);
            } else {
                assertAllBytesHeld(c.original(), partition, at);
            }
            int again = rerun(c.command(), target, c.durable(), run.resolve(SALVAGE), c.plan());
            assertEquals(0, again, at + ": the re-run exits " + again);
            assertEquals(c.expected(), hashes(run), at + ": the re-run leaves something else than an uninterrupted run");
            Trees.delete(run);
        }
        System.out.println("kill-stress: " + TRIALS + " trials, seed " + SEED + ", " + BYTES + "-byte partitions: "
                + killed + " killed mid-run (" + byStep + " right after a mutation step, " + (killed - byStep)
                + " on a timer), " + finishedFirst + " finished before the kill; every re-run converged, no byte lost");
        if (Boolean.getBoolean("killstress.verbose")) {
            report.forEach(System.out::println);
        }
    }

    /** Builds the case's template, runs the command uninterrupted in process and once in a child, and checks both. */
    private Case prepare(Command command, boolean durable) throws IOException, InterruptedException {
        Path template = tmp.resolve(command.arg + "-" + durable);
        Path dir = partitionDir(command, template);
        Path plan = null;
        if (command == Command.APPLY_PLAN) {
            plan = replicate(template, durable);
        } else {
            build(dir, command == Command.REBUILD_INDEX);
        }
        if (command == Command.ACCEPT_LOSS) {
            interiorDamage(dir);
            assertTrue(FixpointTest.ENGINE.judge(PartitionPath.of(dir), durable).refusal() != null,
                    "accept-loss starts from a refused partition");
        }
        Path original = tmp.resolve(command.arg + "-" + durable + "-original");
        Trees.copy(dir, original);
        Path quarantine = null;
        if (command == Command.RESTORE) {
            Repairer.Outcome repaired = FixpointTest.repairer().repair(PartitionPath.of(dir), durable, true, false);
            assertEquals(0, repaired.exitCode(), () -> "repair before restore: " + repaired.error());
            quarantine = repaired.quarantine();
        }
        Path reference = tmp.resolve("reference");
        Trees.copy(template, reference);
        Path refTarget = command == Command.RESTORE ? reference.resolve(template.relativize(quarantine))
                : partitionDir(command, reference);
        Applier counting = new Applier(StepHook.NONE, "test");
        int exit = run(new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, counting, p -> true), counting,
                command,
                refTarget, durable, reference.resolve(SALVAGE), plan);
        assertEquals(0, exit, command.arg + " uninterrupted");
        assertTrue(counting.steps() > 0, command.arg + " mutates nothing: no kill can land in it");
        Map<String, Long> expected = hashes(reference);
        if (command == Command.RESTORE) {
            Map<String, Long> before = hashes(original);
            Map<String, Long> after = new TreeMap<>();
            hashes(partitionDir(command, reference)).forEach(after::put);
            assertEquals(before, after, "restore puts back every original byte");
        }
        Trees.delete(reference);

        Path timed = tmp.resolve("timed");
        Trees.copy(template, timed);
        Path timedTarget = command == Command.RESTORE ? timed.resolve(template.relativize(quarantine))
                : partitionDir(command, timed);
        long t0 = System.nanoTime();
        Process child = start(command, timedTarget, durable, -1, timed.resolve(SALVAGE), plan);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), command.arg + ": the child did not finish");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(0, child.exitValue(), command.arg + " in a child: " + new String(child.getInputStream()
                .readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(expected, hashes(timed), command.arg + ": the child leaves what the in-process run leaves");
        Trees.delete(timed);
        return new Case(command, durable, template, original, quarantine, plan, counting.steps(), expected, millis);
    }

    /**
     * Four segments written by the byte-exact writer. For repair and restore: the last segment's last batch torn in
     * half with 64 KiB of zeros after it, and a torn index append in segment 1. For rebuild-index: whole logs, the
     * index of segment 0 deleted, that of segment 1 cut to one entry and that of segment 2 emptied.
     */
    static void build(Path dir, boolean forRebuildIndex) throws IOException {
        List<PartitionWriter.SegmentLayout> segments = fill(dir);
        assertTrue(segments.size() >= 3, "the partition has " + segments.size() + " segments");
        if (forRebuildIndex) {
            Files.delete(segments.get(0).index());
            truncate(segments.get(1).index(), 24);
            truncate(segments.get(2).index(), 0);
            return;
        }
        PartitionWriter.SegmentLayout last = segments.get(segments.size() - 1);
        PartitionWriter.BatchInfo torn = last.batch(last.batches().size() - 1);
        truncate(last.log(), torn.position() + torn.length() / 2);
        Files.write(last.log(), new byte[64 << 10], StandardOpenOption.APPEND);
        Path index = segments.get(1).index();
        Files.write(index, new byte[]{1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
    }

    /** Four segments of {@link #BYTES} log bytes in all, written whole by the byte-exact writer. */
    private static List<PartitionWriter.SegmentLayout> fill(Path dir) throws IOException {
        Files.createDirectories(dir);
        int payload = 1000;
        int perBatch = 8;
        int total = (int) Math.max(64, BYTES / (payload + 48));
        return PartitionWriter.fill(dir, PartitionWriter.Config.of(1).segmentSize(BYTES / 4)
                .messagesRequiredToSave(perBatch * 2).trackLayout(true), total, perBatch, payload, SEED);
    }

    /**
     * For accept-loss: one byte flipped in the first message of the batch segment 1's last index entry points at
     * (which recovery's walk verifies whatever the partition's size), so recovery refuses the partition there and
     * accept-loss cuts it and moves the later segments aside.
     */
    private static void interiorDamage(Path dir) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.list(dir)) {
            logs = s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        Path log = logs.get(1);
        Path index = log.resolveSibling(log.getFileName().toString().replace(".log", ".index"));
        long last;
        try (segtool.formats.index.IndexFile f = segtool.formats.index.IndexFile.open(index)) {
            last = f.entry(f.entries() - 1).position();
        }
        long at = last + 64 + 40;
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x5A));
            b.rewind();
            ch.write(b, at);
        }
    }

    private static void truncate(Path f, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(length);
        }
    }

    /** Where accept-loss writes its salvage archive, beside the data directory of a trial. */
    static final String SALVAGE = "salvage";

    private static Process start(Command command, Path target, boolean durable, int k, Path salvage, Path plan)
            throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), KillStressChild.class.getName(),
                command.arg, target.toString(), Boolean.toString(durable), Integer.toString(k),
                command == Command.APPLY_PLAN ? plan.toString() : salvage.toString())
                .redirectErrorStream(true).start();
    }

    /** Kills right after the child announces its step; returns the announcement (or the last line, if none). */
    private static String killAtStep(Process child, Random random) throws IOException, InterruptedException {
        String last = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                last = line;
                if (line.startsWith("AT ")) {
                    int jitter = random.nextInt(3);
                    if (jitter > 0) {
                        Thread.sleep(jitter);
                    }
                    child.destroyForcibly();
                    return line.substring(0, Math.min(line.length(), 120));
                }
            }
        }
        return last;
    }

    private static String killAfter(Process child, long millis) throws InterruptedException {
        if (!child.waitFor(millis, TimeUnit.MILLISECONDS)) {
            child.destroyForcibly();
            return null;
        }
        return "finished first";
    }

    /**
     * apply --plan's way on after a kill: a journaled plan left unfinished is finished by {@code repair --apply}
     * (apply --plan refuses to start over it, naming that command); a completed one leaves nothing to do; otherwise
     * the kill came before the commit point and apply --plan runs again.
     */
    private static int rerun(Command command, Path target, boolean durable, Path salvage, Path plan) {
        if (command == Command.APPLY_PLAN) {
            try {
                for (Path q : Quarantine.of(target)) {
                    if (Quarantine.hasManifest(q)) {
                        Quarantine open = Quarantine.open(q);
                        if (open.unfinished()) {
                            PlanApply.Outcome refused = KillStressChild.applyPlan(new Applier(StepHook.NONE,
                                    "test"), target, durable, plan, ServerGuard.Report::idle);
                            assertEquals(2, refused.exitCode(), "apply --plan over an unfinished plan is refused: "
                                    + refused.details());
                            return FixpointTest.repairer().repair(PartitionPath.of(target), durable, true, false)
                                    .exitCode();
                        }
                        if (Manifest.COMPLETE.equals(open.manifest().state())) {
                            return 0;
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return run(FixpointTest.repairer(), new Applier(StepHook.NONE, "test"), command, target, durable, salvage,
                plan);
    }

    /**
     * For apply --plan: replicas a and b of the same messages, b's segment 1 lost and its last segment torn in its
     * last batch with 64 KiB of zeros after; collected, compared, and the plan written beside the replicas' root.
     * Returns the plan.
     */
    private static Path replicate(Path template, boolean durable) throws IOException {
        fill(Shapes.partitionDir(template.resolve(KillStressChild.DONOR)));
        List<PartitionWriter.SegmentLayout> segments = fill(partitionDir(Command.APPLY_PLAN, template));
        Files.delete(segments.get(1).log());
        Files.delete(segments.get(1).index());
        PartitionWriter.SegmentLayout last = segments.get(segments.size() - 1);
        PartitionWriter.BatchInfo torn = last.batch(last.batches().size() - 1);
        truncate(last.log(), torn.position() + torn.length() / 2);
        Files.write(last.log(), new byte[64 << 10], StandardOpenOption.APPEND);
        segtool.analyzers.inputs.InputsResolver inputs = KillStressChild.inputs(durable);
        segtool.analyzers.replica.Collector c = new segtool.analyzers.replica.Collector(
                segtool.analyzers.recovery.RecoveryOptions.defaults(), 1, segtool.analyzers.replica.Throttle.NONE);
        List<segtool.analyzers.replica.ReplicaComparison.Replica> replicas = new ArrayList<>();
        for (String n : new String[] {KillStressChild.DONOR, KillStressChild.REPLICA}) {
            List<PartitionPath> parts = segtool.analyzers.layout.Targets.resolve(template.resolve(n)).partitions();
            try {
                replicas.add(new segtool.analyzers.replica.ReplicaComparison.Replica(n, c.collect(n,
                        inputs.resolve(parts))));
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
        }
        Path plan = template.resolveSibling(template.getFileName() + ".plan.json");
        Files.writeString(plan, segtool.analyzers.report.ScanJson.mapper().writeValueAsString(
                segtool.analyzers.replica.ReplicaJson.report(segtool.analyzers.replica.ReplicaJson.PLAN_SCHEMA, "test",
                        segtool.analyzers.replica.ReplicaComparison.compare(replicas), List.of())));
        return plan;
    }

    private static int run(Repairer r, Applier applier, Command command, Path target, boolean durable, Path salvage,
                           Path plan) {
        return switch (command) {
            case APPLY_PLAN -> {
                try {
                    yield KillStressChild.applyPlan(applier, target, durable, plan, ServerGuard.Report::idle)
                            .exitCode();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            case ACCEPT_LOSS -> r.acceptLoss(PartitionPath.of(target), durable, true, false, salvage, "kill-stress")
                    .exitCode();
            case REPAIR -> r.repair(PartitionPath.of(target), durable, true, false).exitCode();
            case REBUILD_INDEX -> r.rebuildIndex(PartitionPath.of(target), null, durable, true, false).exitCode();
            case RESTORE -> r.restore(target, true, false).exitCode();
        };
    }

    /**
     * Every file under {@code root} by relative path, to its XXH3; directories to 0. Quarantines are left out (their
     * names and manifests carry the time), and so is the lock file beside the partition (it names its last holder).
     */
    static Map<String, Long> hashes(Path root) {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String rel = root.relativize(p).toString();
                // the salvage archive's summary carries the time it was written; the test checks it is there
                if (rel.isEmpty() || rel.contains(Quarantine.MARKER) || rel.endsWith(PartitionLock.SUFFIX)
                        || rel.equals(SALVAGE) || rel.startsWith(SALVAGE + "/")) {
                    continue;
                }
                out.put(Files.isDirectory(p) ? rel + "/" : rel, Files.isDirectory(p) ? 0L : xxh3(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static long xxh3(Path f) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return Xxh3.hash(new byte[0]);
            }
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            try {
                return Xxh3.hash(m, 0, (int) size);
            } finally {
                Unmapper.unmap(m);
            }
        }
    }

    /**
     * {@link Trees#assertAllBytesHeld} without holding the files in memory: every file of {@code original} (a copy
     * of the partition before the command) is, byte for byte, in place, in a fenced copy, or a prefix of what is in
     * place followed by the ranges a committed quarantine holds for it, end to end.
     */
    static void assertAllBytesHeld(Path original, Path partition, String context) throws IOException {
        List<Quarantine> quarantines = new ArrayList<>();
        for (Path q : Quarantine.of(partition)) {
            if (Quarantine.hasManifest(q)) {
                quarantines.add(Quarantine.open(q));
            }
        }
        String name = partition.getFileName().toString();
        List<Path> fenced = new ArrayList<>();
        try (Stream<Path> s = Files.list(partition.getParent())) {
            s.filter(d -> d.getFileName().toString().startsWith(name + ".fenced.")).forEach(fenced::add);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(original)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path want : files) {
            String file = want.getFileName().toString();
            long size = Files.size(want);
            if (size == 0) {
                continue;   // no byte to hold (rebuild-index replaces an empty index without a copy)
            }
            Path now = partition.resolve(file);
            boolean held = same(want, now);
            for (Path d : fenced) {
                held = held || same(want, d.resolve(file));
            }
            for (Quarantine q : quarantines) {
                if (held) {
                    break;
                }
                List<QuarantineEntry> es = new ArrayList<>();
                for (QuarantineEntry e : q.manifest().entries()) {
                    if (e.file().equals(file)) {
                        es.add(e);
                    }
                }
                if (es.isEmpty()) {
                    continue;
                }
                es.sort(Comparator.comparingLong(QuarantineEntry::offset));
                long start = es.get(0).offset();
                boolean ok = es.get(0).originalLength() == size && Files.isRegularFile(now) || start == 0;
                ok = ok && (start == 0 || Files.size(now) >= start && range(want, 0, now, 0, start));
                long next = start;
                for (QuarantineEntry e : es) {
                    Path copy = q.copy(e);
                    ok = ok && e.offset() == next && Files.isRegularFile(copy) && Files.size(copy) == e.length()
                            && range(want, e.offset(), copy, 0, e.length());
                    next = e.offset() + e.length();
                }
                held = ok && next == size;
            }
            assertTrue(held, context + ": the original bytes of " + file + " (" + size + " bytes) are neither in "
                    + "place, fenced, nor in a quarantine");
        }
    }

    private static boolean same(Path a, Path b) throws IOException {
        return Files.isRegularFile(b) && Files.size(a) == Files.size(b) && range(a, 0, b, 0, Files.size(a));
    }

    /** True when {@code length} bytes at {@code atA} of {@code a} equal those at {@code atB} of {@code b}. */
    private static boolean range(Path a, long atA, Path b, long atB, long length) throws IOException {
        try (FileChannel ca = FileChannel.open(a, StandardOpenOption.READ);
             FileChannel cb = FileChannel.open(b, StandardOpenOption.READ)) {
            if (ca.size() < atA + length || cb.size() < atB + length) {
                return false;
            }
            ByteBuffer x = ByteBuffer.allocate(1 << 16);
            ByteBuffer y = ByteBuffer.allocate(1 << 16);
            for (long done = 0; done < length; ) {
                int n = (int) Math.min(x.capacity(), length - done);
                x.clear().limit(n);
                y.clear().limit(n);
                while (x.hasRemaining() && ca.read(x, atA + done + x.position()) >= 0) {
                    // fill
                }
                while (y.hasRemaining() && cb.read(y, atB + done + y.position()) >= 0) {
                    // fill
                }
                if (!x.flip().equals(y.flip())) {
                    return false;
                }
                done += n;
            }
            return true;
        }
    }
}
