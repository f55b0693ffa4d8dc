package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;

/**
 * Mutating runs on one partition exclude each other through {@link PartitionLock}, with real concurrent processes
 * (child JVMs, {@link LockChild}). Issue 17.1: a second {@code repair --apply} started while the first was still
 * copying used to discard the first one's uncommitted quarantine; the first then truncated files whose only copies
 * were gone and still reported success.
 */
class ConcurrentRunsTest {
    /** Overlapping repairs per round, and rounds; {@code -Dsegtool.concurrent.rounds=N} runs more. */
    static final int PER_ROUND = 3;
    static final int ROUNDS = Integer.getInteger("segtool.concurrent.rounds", 2);

    @TempDir
    Path tmp;

    private static Process child(String... args) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto", "-Xmx128m", "-cp", System.getProperty("java.class.path"), LockChild.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Reads the child's lines until one starts with {@code prefix}; returns it (null at end of output). */
    private static String until(BufferedReader out, String prefix, List<String> seen) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            seen.add(line);
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    private static BufferedReader reader(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    private Path template() throws IOException {
        Path template = tmp.resolve("template");
        Path dir = Shapes.partitionDir(template);
        Files.createDirectories(dir);
        KillNineTest.build(dir);
        return template;
    }

    private Map<String, byte[]> expected(Path template) {
        Path ref = tmp.resolve("reference");
        Trees.copy(template, ref);
        Repairer.Outcome whole = FixpointTest.repairer().repair(PartitionPath.of(Shapes.partitionDir(ref)), false,
                true, false);
        assertEquals(0, whole.exitCode(), () -> whole.error() + " " + whole.notes());
        Map<String, byte[]> out = Trees.snapshot(ref, false);
        Trees.delete(ref);
        return out;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRepairStartedWhileAnotherCopies_isRefusedNamingItsPid_andNothingIsLost() throws Exception {
        Path template = template();
        Map<String, byte[]> expected = expected(template);
        Path run = tmp.resolve("run");
        Trees.copy(template, run);
        Path partition = Shapes.partitionDir(run);
        Map<String, byte[]> original = Trees.partitionFiles(partition);

        // Step 4 is the first copy into bytes/ (mkdir quarantine, force parent, mkdir bytes, mkdir new, write copy):
        // the first run holds an uncommitted preparation, exactly the state the second run used to discard.
        Process first = child("repair", partition.toString(), "4", "idle");
        List<String> seen = new ArrayList<>();
        try (BufferedReader out = reader(first); OutputStream in = first.getOutputStream()) {
            String at = until(out, "AT ", seen);
            assertNotNull(at, () -> "the first run never reached its copy step: " + seen);
            List<Path> preparing = Quarantine.of(partition);
            assertEquals(1, preparing.size());
            assertFalse(Quarantine.hasManifest(preparing.get(0)), "paused before its commit point");

            Repairer.Outcome second = FixpointTest.repairer().repair(PartitionPath.of(partition), false, true, false);
            assertEquals(Repairer.Status.IN_USE, second.status(), () -> second.error() + " " + second.notes());
            assertEquals(4, second.exitCode());
            assertEquals(first.pid(), second.server().holders().get(0).pid(), () -> second.server().reasons()
                    .toString());
            assertTrue(second.server().reasons().get(0).contains("pid " + first.pid() + " (segtool) holds the "
                    + "repair lock"), () -> second.server().reasons().toString());
            assertTrue(Files.isDirectory(preparing.get(0)), "the first run's preparation is left alone");
            // restore and rebuild-index are excluded the same way
            Repairer.Outcome rebuild = FixpointTest.repairer().rebuildIndex(PartitionPath.of(partition), null, false,
                    true, false);
            assertEquals(Repairer.Status.IN_USE, rebuild.status());

            in.write('\n');
            in.flush();
            String done = until(out, "DONE ", seen);
            assertNotNull(done, seen::toString);
            assertTrue(done.startsWith("DONE 0 APPLIED"), done);
        }
        assertTrue(first.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, first.exitValue());
        Trees.assertAllBytesHeld(original, partition, "after the first run");
        Trees.assertSame(expected, Trees.snapshot(run, false), "the first run's result");
        // a dry run never needs the lock, and the lock is free again afterwards
        Repairer.Outcome after = FixpointTest.repairer().repair(PartitionPath.of(partition), false, true, false);
        assertEquals(Repairer.Status.CLEAN, after.status(), () -> after.error() + " " + after.notes());
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void overlappingRepairs_oneAppliesTheOthersAreExcludedOrFindItClean_zeroBytesLost() throws Exception {
        Path template = template();
        Map<String, byte[]> expected = expected(template);
        AtomicInteger excluded = new AtomicInteger();
        AtomicInteger applied = new AtomicInteger();
        AtomicInteger clean = new AtomicInteger();
        for (int round = 0; round < ROUNDS; round++) {
            Path run = tmp.resolve("run" + round);
            Trees.copy(template, run);
            Path partition = Shapes.partitionDir(run);
            Map<String, byte[]> original = Trees.partitionFiles(partition);
            List<Process> children = new ArrayList<>();
            for (int i = 0; i < PER_ROUND; i++) {
                children.add(child("repair", partition.toString(), "-1", "idle"));
            }
            for (Process c : children) {
                List<String> seen = new ArrayList<>();
                String done;
                try (BufferedReader out = reader(c)) {
                    done = until(out, "DONE ", seen);
                }
                assertTrue(c.waitFor(60, TimeUnit.SECONDS));
                String context = "round " + round + ", pid " + c.pid() + ": " + seen;
                assertNotNull(done, context);
                if (done.startsWith("DONE 4 IN_USE")) {
                    assertTrue(done.contains(":segtool,"), context);
                    excluded.incrementAndGet();
                } else if (done.startsWith("DONE 0 APPLIED")) {
                    applied.incrementAndGet();
                } else {
                    assertTrue(done.startsWith("DONE 0 CLEAN"), context);
                    clean.incrementAndGet();
                }
            }
            Trees.assertAllBytesHeld(original, partition, "round " + round);
            Trees.assertSame(expected, Trees.snapshot(run, false), "round " + round);
            assertEquals(1, Quarantine.of(partition).size(), "round " + round + ": exactly one run applied");
            Trees.delete(run);
        }
        assertEquals(ROUNDS, applied.get());
        System.out.println("overlapping repairs: " + ROUNDS * PER_ROUND + " runs in " + ROUNDS + " rounds of "
                + PER_ROUND + ": " + applied + " applied, " + excluded + " excluded by the lock, " + clean
                + " found it clean; 0 bytes lost");
    }
}
