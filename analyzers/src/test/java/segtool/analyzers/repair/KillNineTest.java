package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;

/**
 * A real {@code kill -9} ({@link Process#destroyForcibly()}, SIGKILL on Linux) of a child JVM running
 * {@code repair --apply}, at a few random moments, on a real disk. Bounded to {@link #RUNS} kills per mode so the
 * test stays within seconds; the seed is in every message.
 */
class KillNineTest {
    static final int RUNS = 3;
    static final long SEED = 0x5E97_0011L;

    @TempDir
    Path tmp;

    /** The composite partition with 2 MiB of zeros after the torn batch, so that copying the tail takes a while. */
    static void build(Path d) throws IOException {
        Files.write(Shapes.composite(d), new byte[2 << 20], StandardOpenOption.APPEND);
    }

    /** What a killed run left behind: whether the plan committed and how many operations the journal records. */
    private static String progress(Path partition) throws IOException {
        List<String> out = new ArrayList<>();
        for (Path q : Quarantine.of(partition)) {
            if (!Quarantine.hasManifest(q)) {
                out.add("an uncommitted preparation");
            } else {
                Quarantine open = Quarantine.open(q);
                long done = open.manifest().operations().stream().filter(op -> open.isDone(op.seq())).count();
                out.add("committed plan, " + done + "/" + open.manifest().operations().size() + " operations done");
            }
        }
        return out.isEmpty() ? "nothing" : String.join(", ", out);
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void killNineAtRandomMoments_nothingIsLost_andReRunConverges() throws Exception {
        Random random = new Random(SEED);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String classpath = System.getProperty("java.class.path");
        List<String> report = new ArrayList<>();
        for (boolean durable : new boolean[]{false, true}) {
            Path template = tmp.resolve("template-" + durable);
            Path dir = Shapes.partitionDir(template);
            Files.createDirectories(dir);
            build(dir);
            Map<String, byte[]> original = Trees.partitionFiles(dir);
            Path ref = tmp.resolve("reference");
            Trees.copy(template, ref);
            Applier counting = new Applier(StepHook.NONE, "test");
            Repairer.Outcome whole = new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, counting, p -> true)
                    .repair(PartitionPath.of(Shapes.partitionDir(ref)), durable, true, false);
            assertEquals(0, whole.exitCode(), () -> whole.error() + " " + whole.notes());
            Map<String, byte[]> expected = Trees.snapshot(ref, false);
            Trees.delete(ref);
            int steps = counting.steps();

            for (int i = 0; i < RUNS; i++) {
                int k = random.nextInt(steps);
                String at = "seed " + SEED + ", enforce_fsync=" + durable + ", kill after step " + k + " of " + steps;
                Path run = tmp.resolve("run");
                Trees.copy(template, run);
                Path partition = Shapes.partitionDir(run);
                Process child = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-Xshare:auto", "-Xmx256m", "-cp", classpath, KillChild.class.getName(),
                        partition.toString(), Boolean.toString(durable), Integer.toString(k))
                        .redirectErrorStream(true).start();
                String seen = null;
                List<String> output = new ArrayList<>();
                try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        output.add(line);
                        if (line.startsWith("AT ")) {
                            seen = line;
                            if (random.nextBoolean()) {
                                Thread.sleep(random.nextInt(3));
                            }
                            child.destroyForcibly();
                            break;
                        }
                    }
                }
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), at + ": child did not die");
                assertTrue(seen != null, () -> at + ": the child never reached the step: " + output);
                report.add(at + " -> " + seen.substring(0, Math.min(seen.length(), 100)) + "..., exit "
                        + child.exitValue() + "; left: " + progress(partition));

                Trees.assertAllBytesHeld(original, partition, at);
                Repairer.Outcome rerun = FixpointTest.repairer().repair(PartitionPath.of(partition), durable, true,
                        false);
                assertEquals(0, rerun.exitCode(), () -> at + ": re-run " + rerun.status() + " " + rerun.error());
                Trees.assertSame(expected, Trees.snapshot(run, false), at + ", then a re-run");
                Trees.delete(run);
            }
            Trees.delete(template);
        }
        report.forEach(System.out::println);
    }
}
