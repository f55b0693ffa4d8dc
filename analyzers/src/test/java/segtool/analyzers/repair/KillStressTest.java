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
import java.util.HashMap;
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
 * partition, hands the command to a child JVM ({@link KillStressChild}, started ahead and waiting) and SIGKILLs it
 * either right after a random mutation step (with 0-2 ms of jitter) or after a random delay within the command's
 * uninterrupted run time. Then the partition and its quarantines must still hold every original byte, and a re-run
 * of the same command must exit 0 and leave exactly what an uninterrupted run leaves (every file, by XXH3).
 *
 * <p>What does not change from trial to trial is made once per case: the damaged template, the uninterrupted
 * result's digests, and the original's digest of each range a check compares against ({@link Originals}).
 *
 * <p>The suite runs {@value #DEFAULT_TRIALS} trials on partitions of about 256 KiB; {@code bench/kill-stress.sh}
 * runs thousands on larger ones through {@code -Dkillstress.trials}, {@code -Dkillstress.bytes},
 * {@code -Dkillstress.seed} and {@code -Dkillstress.dir} (where the trials run). Every assertion names the seed and
 * the trial; the summary gives each phase's wall and CPU time per trial.
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
    record Case(Command command, boolean durable, Path template, Originals original, Path quarantine, Path plan,
                int steps, Map<String, Long> expected, long childMillis) {
    }

    /** The partition a command changes under a trial's root: replica b's for apply --plan. */
    static Path partitionDir(Command command, Path root) {
        return Shapes.partitionDir(command == Command.APPLY_PLAN ? root.resolve(KillStressChild.REPLICA) : root);
    }

    /**
     * Wall time and CPU time (this JVM's, and that of the child JVMs it reaped) per phase, for the bench's figures;
     * nothing is asserted on them.
     */
    private static final Map<String, long[]> PHASES = new java.util.LinkedHashMap<>();
    private static String current;
    private static long[] cpuMark = cpu();

    private static long lap(String phase, long since) {
        long now = System.nanoTime();
        long[] cpu = cpu();
        long[] add = {now - since, cpu[0] - cpuMark[0], cpu[1] - cpuMark[1]};
        cpuMark = cpu;
        for (String key : current == null ? List.of(phase) : List.of(phase, current + "." + phase)) {
            long[] sum = PHASES.computeIfAbsent(key, x -> new long[4]);
            for (int i = 0; i < 3; i++) {
                sum[i] += add[i];
            }
            sum[3]++;
        }
        return now;
    }

    /** This process's user + system CPU, and that of its reaped children, in ns (from /proc; 0 where there is none). */
    private static long[] cpu() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long tick = 10_000_000L;   // USER_HZ is 100 on Linux
            return new long[] {(Long.parseLong(f[11]) + Long.parseLong(f[12])) * tick,
                (Long.parseLong(f[13]) + Long.parseLong(f[14])) * tick};
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }

    /** "phase wall/cpu/child-cpu" in ms, per trial (per case for the preparation). */
    private static String phases(boolean all) {
        List<String> out = new ArrayList<>();
        PHASES.forEach((k, v) -> {
            if (all || k.indexOf('.') < 0 || k.startsWith("prepare.")) {
                out.add(k + " " + v[0] / 1_000_000 / v[3] + "/" + v[1] / 1_000_000 / v[3] + "/"
                        + v[2] / 1_000_000 / v[3]);
            }
        });
        return String.join(", ", out);
    }

    @Test
    void randomKills_reRunConverges_andEveryByteIsHeld() throws Exception {
        Random random = new Random(SEED);
        List<Case> cases = new ArrayList<>();
        long t0 = System.nanoTime();
        childJvm = new ChildJvm(tmp.resolve("child-jvm"));
        for (boolean durable : new boolean[]{false, true}) {
            for (Command c : Command.values()) {
                cases.add(prepare(c, durable));
            }
        }
        current = null;
        long prepared = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        int killed = 0;
        int byStep = 0;
        int finishedFirst = 0;
        List<String> report = new ArrayList<>();
        // Trials run under -Dkillstress.dir when given (bench/kill-stress.sh: tmpfs), beside the templates otherwise.
        String under = System.getProperty("killstress.dir", "");
        Path runs = under.isEmpty() ? tmp : Files.createTempDirectory(Files.createDirectories(Path.of(under)),
                "segtool-kill-stress-");
        Spare next = new Spare();
        try {
            for (int i = 0; i < TRIALS; i++) {
                Case c = cases.get(i % cases.size());
                boolean step = random.nextBoolean();
                int k = step ? random.nextInt(c.steps()) : -1;
                long delay = step ? 0 : random.nextInt((int) Math.max(1, c.childMillis()));
                String at = "trial " + i + " of seed " + SEED + ": " + c.command().arg + " --apply, enforce_fsync="
                        + c.durable() + ", kill " + (step ? "after step " + k + " of " + c.steps()
                        : "at " + delay + " ms of about " + c.childMillis());
                Path run = runs.resolve("run");
                current = c.command().arg + "-" + c.durable();
                long t = System.nanoTime();
                Trees.copy(c.template(), run);
                t = lap("copy", t);
                Path partition = partitionDir(c.command(), run);
                Path target = c.command() == Command.RESTORE ? run.resolve(c.template().relativize(c.quarantine()))
                        : partition;
                Spare child = next;
                next = null;
                child.go(c.command(), target, c.durable(), k, run.resolve(SALVAGE), c.plan());
                t = lap("child-ready", t);
                String seen = step ? killAtStep(child, random) : killAfter(child.process, delay);
                assertTrue(child.process.waitFor(60, TimeUnit.SECONDS), at + ": the child did not die");
                t = lap("child", t);
                next = new Spare();   // the next trial's JVM starts while this one is checked
                child.close();
                int exit = child.process.exitValue();
                String said = seen;
                assertTrue(!step || said != null && said.startsWith("AT "), () -> at + ": the child never reached "
                        + "the step: " + said);
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
                    assertReassembles(c.original(), partition, AcceptLossTest.newestFirst(partition), at);
                } else {
                    assertAllBytesHeld(c.original(), partition, at);
                }
                t = lap("held", t);
                int again = rerun(c.command(), target, c.durable(), run.resolve(SALVAGE), c.plan());
                assertEquals(0, again, at + ": the re-run exits " + again);
                t = lap("rerun", t);
                assertEquals(c.expected(), hashes(run), at + ": the re-run leaves something else than an "
                        + "uninterrupted run");
                t = lap("compare", t);
                Trees.delete(run);
                lap("delete", t);
            }
        } finally {
            if (next != null) {
                next.close();
            }
            if (runs != tmp) {
                Trees.delete(runs);
            }
        }
        System.out.println("kill-stress phases, ms of wall/cpu/child-cpu per trial (per case for prepare, " + prepared
                + " ms in all): " + phases(false));
        System.out.println("kill-stress: " + TRIALS + " trials, seed " + SEED + ", " + BYTES + "-byte partitions: "
                + killed + " killed mid-run (" + byStep + " right after a mutation step, " + (killed - byStep)
                + " on a timer), " + finishedFirst + " finished before the kill; every re-run converged, no byte lost");
        if (TRIALS >= 10) {
            // a run in which the children all finished first would prove nothing about kills
            int k = killed;
            int b = byStep;
            assertTrue(b > 0 && k >= TRIALS / 2, () -> k + " of " + TRIALS + " trials killed mid-run, " + b
                    + " right after a mutation step: too few for the run to say anything about kills");
        }
        if (Boolean.getBoolean("killstress.verbose")) {
            System.out.println("kill-stress phases by case: " + phases(true));
            report.forEach(System.out::println);
        }
    }

    /** Builds the case's template, runs the command uninterrupted in process and once in a child, and checks both. */
    private Case prepare(Command command, boolean durable) throws IOException, InterruptedException {
        current = "prep-" + command.arg + "-" + durable;
        long t = System.nanoTime();
        try (Spare spare = new Spare()) {   // its JVM starts while the template is built and the reference run
            return prepare(command, durable, spare, t);
        }
    }

    private Case prepare(Command command, boolean durable, Spare child, long t) throws IOException,
            InterruptedException {
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
        // the template is never changed (trials change copies of it): its partition is the original, but for restore,
        // whose template is the partition after a repair
        Path original = dir;
        Path quarantine = null;
        if (command == Command.RESTORE) {
            original = tmp.resolve(command.arg + "-" + durable + "-original");
            Trees.copy(dir, original);
            Repairer.Outcome repaired = FixpointTest.repairer().repair(PartitionPath.of(dir), durable, true, false);
            assertEquals(0, repaired.exitCode(), () -> "repair before restore: " + repaired.error());
            quarantine = repaired.quarantine();
        }
        t = lap("prepare.build", t);
        Path reference = tmp.resolve("reference");
        Trees.copy(template, reference);
        t = lap("prepare.copy", t);
        Path refTarget = command == Command.RESTORE ? reference.resolve(template.relativize(quarantine))
                : partitionDir(command, reference);
        Applier counting = new Applier(StepHook.NONE, "test");
        int exit = run(new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, counting, p -> true), counting,
                command,
                refTarget, durable, reference.resolve(SALVAGE), plan);
        assertEquals(0, exit, command.arg + " uninterrupted");
        assertTrue(counting.steps() > 0, command.arg + " mutates nothing: no kill can land in it");
        t = lap("prepare.reference-run", t);
        Map<String, Long> expected = hashes(reference);
        if (command == Command.RESTORE) {
            Map<String, Long> before = hashes(original);
            Map<String, Long> after = new TreeMap<>();
            hashes(partitionDir(command, reference)).forEach(after::put);
            assertEquals(before, after, "restore puts back every original byte");
        }
        Trees.delete(reference);
        t = lap("prepare.hash", t);

        Path timed = tmp.resolve("timed");
        Trees.copy(template, timed);
        t = lap("prepare.timed-copy", t);
        Path timedTarget = command == Command.RESTORE ? timed.resolve(template.relativize(quarantine))
                : partitionDir(command, timed);
        long t0 = child.go(command, timedTarget, durable, -1, timed.resolve(SALVAGE), plan);
        List<String> said = new ArrayList<>();
        String line;
        while ((line = child.out.readLine()) != null && !line.startsWith("DONE ")) {
            said.add(line);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);   // the command's run, not the JVM's exit
        assertTrue(child.process.waitFor(120, TimeUnit.SECONDS), command.arg + ": the child did not finish");
        said.add(line);
        assertEquals(0, child.process.exitValue(), command.arg + " in a child: " + said);
        t = lap("prepare.timed-child", t);
        assertEquals(expected, hashes(timed), command.arg + ": the child leaves what the in-process run leaves");
        Trees.delete(timed);
        lap("prepare.timed-hash", t);
        return new Case(command, durable, template, new Originals(original), quarantine, plan, counting.steps(),
                expected, millis);
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

    /**
     * How the child JVMs start: the test's class path with each directory on it packed into a jar (class-data
     * sharing archives classes from jars only), and a class-data archive that the first child to end normally (the
     * first case's uninterrupted run) writes and every later child maps, as the launcher does for segtool.
     */
    static final class ChildJvm {
        final String classPath;
        final Path archive;
        private boolean dumping;

        ChildJvm(Path dir) {
            String cp = System.getProperty("java.class.path");
            Path jsa = null;
            try {
                Files.createDirectories(dir);
                List<String> entries = new ArrayList<>();
                for (String e : cp.split(java.io.File.pathSeparator)) {
                    Path p = Path.of(e);
                    if (Files.isDirectory(p)) {
                        Path jar = dir.resolve(entries.size() + ".jar");
                        pack(p, jar);
                        entries.add(jar.toString());
                    } else {
                        entries.add(e);
                    }
                }
                cp = String.join(java.io.File.pathSeparator, entries);
                jsa = dir.resolve("child.jsa");
            } catch (IOException | UncheckedIOException e) {
                System.out.println("kill-stress: the child JVMs run without a class-data archive: " + e);
            }
            classPath = cp;
            archive = jsa;
        }

        private static void pack(Path dir, Path jar) throws IOException {
            try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
                 Stream<Path> walk = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile).sorted()::iterator) {
                    out.putNextEntry(new java.util.jar.JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                }
            }
        }

        /** A spare {@link KillStressChild} (no arguments; they come on its stdin). */
        synchronized List<String> command() {
            List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xmx256m"));
            if (archive != null && Files.isRegularFile(archive)) {
                c.add("-XX:SharedArchiveFile=" + archive);
            } else if (archive != null && !dumping) {
                dumping = true;
                c.add("-XX:ArchiveClassesAtExit=" + archive);
            } else {
                c.add("-Xshare:auto");
            }
            c.addAll(List.of("-cp", classPath, KillStressChild.class.getName()));
            return c;
        }
    }

    private static ChildJvm childJvm;

    /**
     * A child JVM started ahead of its trial: it initialises what the commands use, says {@value
     * KillStressChild#READY}, and waits for its arguments ({@link KillStressChild}).
     */
    static final class Spare implements AutoCloseable {
        final Process process;
        final BufferedReader out;

        Spare() throws IOException {
            process = new ProcessBuilder(childJvm.command()).redirectErrorStream(true).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /**
         * Waits until the spare is ready and hands it one command; returns {@link System#nanoTime()} when it got
         * it. A child that neither reaches its step nor ends within 120 s after that is killed (no trial can hang
         * the suite) and its trial fails.
         */
        long go(Command command, Path target, boolean durable, int k, Path salvage, Path plan) throws IOException {
            List<String> said = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.equals(KillStressChild.READY)) {
                said.add(line);
            }
            if (line == null) {
                throw new IOException("the child JVM ended before it was ready: " + said);
            }
            String args = String.join("\t", command.arg, target.toString(), Boolean.toString(durable),
                    Integer.toString(k), command == Command.APPLY_PLAN ? plan.toString() : salvage.toString());
            process.getOutputStream().write((args + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            long now = System.nanoTime();
            CompletableFuture.delayedExecutor(120, TimeUnit.SECONDS).execute(process::destroyForcibly);
            return now;
        }

        @Override
        public void close() throws IOException {
            process.destroyForcibly();
            out.close();
            process.getOutputStream().close();
        }
    }

    /** Kills right after the child announces its step; returns the announcement (or the last line, if none). */
    private static String killAtStep(Spare child, Random random) throws IOException, InterruptedException {
        String last = null;
        try (BufferedReader out = child.out) {
            for (String line; (line = out.readLine()) != null; ) {
                last = line;
                if (line.startsWith("AT ")) {
                    int jitter = random.nextInt(3);
                    if (jitter > 0) {
                        Thread.sleep(jitter);
                    }
                    child.process.destroyForcibly();
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
        return xxh3(f, 0, Files.size(f));
    }

    /**
     * The files of a case's original partition (never changed while the trials run) and the XXH3 of each of their
     * byte ranges a check compares against, each read once: every trial asks for the same few ranges.
     */
    static final class Originals {
        final Path dir;
        private final List<String> files = new ArrayList<>();
        private final Map<String, Long> sizes = new TreeMap<>();
        private final Map<String, Long> digests = new HashMap<>();

        Originals(Path dir) throws IOException {
            this.dir = dir;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                    if (Files.isRegularFile(p)) {
                        files.add(p.getFileName().toString());
                        sizes.put(p.getFileName().toString(), Files.size(p));
                    }
                }
            }
        }

        /** True when {@code length} bytes at {@code offset} of the original {@code file} equal those at {@code at}
         *  of {@code other} (false where either is too short). */
        boolean matches(String file, long offset, long length, Path other, long at) throws IOException {
            if (sizes.get(file) < offset + length || !Files.isRegularFile(other) || Files.size(other) < at + length) {
                return false;
            }
            Long want = digests.get(file + ":" + offset + ":" + length);
            if (want == null) {
                want = xxh3(dir.resolve(file), offset, length);
                digests.put(file + ":" + offset + ":" + length, want);
            }
            return want == xxh3(other, at, length);
        }

        /** True when {@code other} is the original {@code file}, byte for byte. */
        boolean same(String file, Path other) throws IOException {
            return Files.isRegularFile(other) && Files.size(other) == sizes.get(file)
                    && matches(file, 0, sizes.get(file), other, 0);
        }
    }

    /**
     * Ranges longer than this (the largest mapping) are digested as the XXH3 of their pieces' XXH3s: a file of up to
     * 2 GiB hashes as its XXH3, as a quarantine manifest records it.
     */
    private static final long PIECE = Integer.MAX_VALUE;

    /** XXH3 of {@code [offset, offset + length)} of {@code f} (see {@link #PIECE}), through one read-only mapping. */
    static long xxh3(Path f, long offset, long length) throws IOException {
        if (length == 0) {
            return Xxh3.hash(new byte[0]);
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            if (length <= PIECE) {
                return xxh3(ch, offset, (int) length);
            }
            ByteBuffer pieces = ByteBuffer.allocate((int) ((length + PIECE - 1) / PIECE) * Long.BYTES);
            for (long done = 0; done < length; done += PIECE) {
                pieces.putLong(xxh3(ch, offset + done, (int) Math.min(PIECE, length - done)));
            }
            return Xxh3.hash(pieces.array());
        }
    }

    private static long xxh3(FileChannel ch, long offset, int length) throws IOException {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, offset, length);
        try {
            return Xxh3.hash(m, 0, length);
        } finally {
            Unmapper.unmap(m);
        }
    }

    /**
     * Every file of the original partition is, byte for byte (by XXH3 over each range), in place, in a fenced
     * copy, or a prefix of what is in place followed by the ranges a committed quarantine holds for it, end to end.
     */
    static void assertAllBytesHeld(Originals original, Path partition, String context) throws IOException {
        List<Quarantine> quarantines = new ArrayList<>();
        for (Path q : Quarantine.of(partition)) {
            if (Quarantine.hasManifest(q)) {
                quarantines.add(Quarantine.open(q));
            }
        }
        List<Path> fenced = fenced(partition);
        for (String file : original.files) {
            long size = original.sizes.get(file);
            if (size == 0) {
                continue;   // no byte to hold (rebuild-index replaces an empty index without a copy)
            }
            Path now = partition.resolve(file);
            boolean held = original.same(file, now);
            for (Path d : fenced) {
                held = held || original.same(file, d.resolve(file));
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
                ok = ok && (start == 0 || original.matches(file, 0, start, now, 0));
                long next = start;
                for (QuarantineEntry e : es) {
                    Path copy = q.copy(e);
                    ok = ok && e.offset() == next && Files.isRegularFile(copy) && Files.size(copy) == e.length()
                            && original.matches(file, e.offset(), e.length(), copy, 0);
                    next = e.offset() + e.length();
                }
                held = ok && next == size;
            }
            assertTrue(held, context + ": the original bytes of " + file + " (" + size + " bytes) are neither in "
                    + "place, fenced, nor in a quarantine");
        }
    }

    private static List<Path> fenced(Path partition) throws IOException {
        String name = partition.getFileName().toString();
        try (Stream<Path> s = Files.list(partition.getParent())) {
            return s.filter(d -> d.getFileName().toString().startsWith(name + ".fenced.")).sorted().toList();
        }
    }

    /** Bytes {@code [from, to)} of a file being put together: {@code at} on of {@code source}, or zeros if null. */
    private record Piece(long from, long to, Path source, long at) {
    }

    /**
     * {@link AcceptLossTest#assertReassembles} without holding the files in memory: every original file put
     * together from what is on disk now, undoing the quarantines newest first on paper (each quarantined range put
     * back at its offset, the file set to its length before that step), each quarantined copy checked against its
     * manifest's XXH3, and the result compared with the original range by range by XXH3; a fenced copy counts too.
     */
    static void assertReassembles(Originals original, Path partition, List<Path> newestFirst, String context)
            throws IOException {
        List<Quarantine> qs = new ArrayList<>();
        for (Path q : newestFirst) {
            qs.add(Quarantine.open(q));
        }
        for (String file : original.files) {
            Path now = partition.resolve(file);
            List<Piece> pieces = new ArrayList<>();
            if (Files.isRegularFile(now) && Files.size(now) > 0) {
                pieces.add(new Piece(0, Files.size(now), now, 0));
            }
            boolean fits = true;
            for (Quarantine q : qs) {
                List<QuarantineEntry> es = q.manifest().entries().stream().filter(e -> e.file().equals(file))
                        .toList();
                if (es.isEmpty()) {
                    continue;
                }
                pieces = cut(pieces, 0, es.get(0).originalLength());
                long end = pieces.isEmpty() ? 0 : pieces.get(pieces.size() - 1).to();
                if (end < es.get(0).originalLength()) {
                    pieces.add(new Piece(end, es.get(0).originalLength(), null, 0));
                }
                for (QuarantineEntry e : es) {
                    Path copy = q.copy(e);
                    long length = Files.size(copy);
                    assertEquals(Hashing.parse(e.xxh3()), xxh3(copy, 0, length), context + ": " + e.copy());
                    fits &= e.offset() + length <= es.get(0).originalLength();
                    List<Piece> put = new ArrayList<>(cut(pieces, 0, e.offset()));
                    put.add(new Piece(e.offset(), e.offset() + length, copy, 0));
                    put.addAll(cut(pieces, e.offset() + length, Long.MAX_VALUE));
                    pieces = put;
                }
            }
            long size = original.sizes.get(file);
            boolean held = fits && (pieces.isEmpty() ? 0 : pieces.get(pieces.size() - 1).to()) == size;
            for (Piece p : pieces) {
                held = held && (p.source() == null ? zeros(original.dir.resolve(file), p.from(), p.to())
                        : original.matches(file, p.from(), p.to() - p.from(), p.source(), p.at()));
            }
            for (Path d : held ? List.<Path>of() : fenced(partition)) {
                held |= original.same(file, d.resolve(file));
            }
            assertTrue(held, context + ": the original " + file + " (" + size + " bytes, xxh3 "
                    + Xxh3.hex(xxh3(original.dir.resolve(file), 0, size)) + ") cannot be put back from the partition "
                    + "and its quarantines");
        }
    }

    /** The parts of {@code pieces} within {@code [from, to)}. */
    private static List<Piece> cut(List<Piece> pieces, long from, long to) {
        List<Piece> out = new ArrayList<>();
        for (Piece p : pieces) {
            long a = Math.max(p.from(), from);
            long b = Math.min(p.to(), to);
            if (a < b) {
                out.add(new Piece(a, b, p.source(), p.source() == null ? 0 : p.at() + (a - p.from())));
            }
        }
        return out;
    }

    /** True when bytes {@code [from, to)} of {@code f} are all zero. */
    private static boolean zeros(Path f, long from, long to) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            if (ch.size() < to) {
                return false;
            }
            ByteBuffer b = ByteBuffer.allocate(1 << 16);
            for (long at = from; at < to; ) {
                b.clear().limit((int) Math.min(b.capacity(), to - at));
                int n = ch.read(b, at);
                if (n < 0) {
                    return false;
                }
                for (int i = 0; i < n; i++) {
                    if (b.get(i) != 0) {
                        return false;
                    }
                }
                at += n;
            }
            return true;
        }
    }
}
