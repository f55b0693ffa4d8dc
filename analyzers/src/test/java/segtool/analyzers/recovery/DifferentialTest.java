package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import segtool.analyzers.reference.EngineVerdict;
import segtool.analyzers.reference.PartitionCases;
import segtool.analyzers.reference.ReferenceRecovery;
import segtool.analyzers.reference.Verdict;
import segtool.formats.naming.PartitionPath;

/**
 * The engine against the literal reference ({@link ReferenceRecovery}) over random damaged partitions, in both
 * durability modes: the same outcome, refusal variant and fields, segment statuses and bounds, budget and plan.
 * Every accepted partition is then repaired on a copy (the plan applied as the server would, {@link PlanApplier})
 * and judged again: both must find it clean.
 *
 * <p>Seeded and reproducible: case {@code i} uses seed {@code segtool.diff.seed + i}. A failure prints each failing
 * seed with the story of how its partition was made; rerun one with {@code -Dsegtool.diff.seed=S
 * -Dsegtool.diff.cases=1}. {@code -Dsegtool.diff.cases=N} sets the count (bench/diff-long.sh runs a million).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DifferentialTest {
    private static final int CASES = Integer.getInteger("segtool.diff.cases", 1200);
    private static final long SEED = Long.getLong("segtool.diff.seed", 20_261_201L);
    private static final int U64_CASES = Integer.getInteger("segtool.diff.u64cases", Math.max(1, CASES / 5));
    private static final int REPORT_AT_MOST = 15;
    private static final boolean TRACE = Boolean.getBoolean("segtool.diff.trace");

    @Test
    @Order(1)
    void engineAgreesWithTheReference() throws IOException {
        run("catalogue", CASES, SEED, false);
    }

    @Test
    @Order(2)
    void engineAgreesWithTheReferenceOnSaturatingU64() throws IOException {
        run("u64", U64_CASES, SEED ^ 0x64L << 32, true);
    }

    private static void run(String name, int cases, long seed0, boolean u64) throws IOException {
        Path root = scratchRoot();
        List<String> failures = new ArrayList<>();
        int failed = 0;
        long t0 = System.nanoTime();
        try {
            for (int i = 0; i < cases; i++) {
                long seed = seed0 + i;
                if (TRACE) {
                    System.out.println("differential " + name + ": seed " + seed);
                }
                String problem = runCase(root, seed, u64);
                if (problem != null) {
                    failed++;
                    if (cases >= 100_000) {
                        System.out.println("differential " + name + ": DISAGREEMENT at seed " + seed + ": " + problem);
                    }
                    if (failures.size() < REPORT_AT_MOST) {
                        failures.add("seed " + seed + ": " + problem);
                    }
                }
                if (cases >= 100_000 && (i + 1) % 10_000 == 0) {
                    System.out.printf("differential %s: %d/%d cases, %d disagreements, %.0f s%n", name, i + 1,
                            cases, failed, (System.nanoTime() - t0) / 1e9);
                }
            }
        } finally {
            PartitionCases.deleteTree(root);
        }
        System.out.printf("differential %s: %d cases, seeds %d..%d, %d disagreements, %.1f s%n", name, cases, seed0,
                seed0 + cases - 1, failed, (System.nanoTime() - t0) / 1e9);
        assertTrue(failures.isEmpty(), failed + " of " + cases + " " + name + " cases disagree (rerun one with "
                + "-Dsegtool.diff.seed=S -Dsegtool.diff.cases=1" + (u64 ? " on the u64 test; its seeds are shown"
                : "") + "):\n" + String.join("\n\n", failures));
    }

    private static Path scratchRoot() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return Files.createTempDirectory(shm, "segtool-diff-");
        }
        return Files.createTempDirectory("segtool-diff-");
    }

    /** One seed: null when engine and reference agree everywhere, otherwise what differed and the case's story. */
    static String runCase(Path root, long seed, boolean u64) throws IOException {
        Path caseRoot = root.resolve("c" + seed);
        Files.createDirectories(caseRoot);
        try {
            PartitionCases.Case c = u64 ? PartitionCases.generateU64(seed, caseRoot.resolve("scratch"))
                    : PartitionCases.generate(seed, caseRoot.resolve("scratch"));
            Path dir = partitionDir(caseRoot.resolve("as-found"), c.partitionId());
            c.writeTo(dir);
            List<String> problems = new ArrayList<>();
            for (boolean durable : new boolean[]{false, true}) {
                String mode = durable ? "durable" : "lenient";
                int before = problems.size();
                RecoveryEngine engine = engine(seed, c.checkpoint());
                Verdict ref = ReferenceRecovery.judge(dir, c.partitionId(), durable, c.checkpoint());
                PartitionReport report = engine.judge(PartitionPath.of(dir), durable);
                Verdict eng = EngineVerdict.of(report);
                for (String d : ref.differences(eng)) {
                    problems.add(mode + ": reference <> engine: " + d);
                }
                if (problems.size() > before || !eng.outcome().equals("accepted")) {
                    continue;
                }
                // repair a copy as the server would, then judge it again: clean, in both engines
                Path copy = partitionDir(caseRoot.resolve("repaired-" + mode), c.partitionId());
                c.writeTo(copy);
                PlanApplier.apply(engine.judge(PartitionPath.of(copy), durable));
                Verdict again = EngineVerdict.of(engine.judge(PartitionPath.of(copy), durable));
                Verdict refAgain = ReferenceRecovery.judge(copy, c.partitionId(), durable, c.checkpoint());
                if (again.exitClass() != 0) {
                    problems.add(mode + ": after repair the engine is not clean: " + again.segments() + " "
                            + again.plan());
                }
                if (refAgain.exitClass() != 0) {
                    problems.add(mode + ": after repair the reference is not clean: " + refAgain.segments() + " "
                            + refAgain.plan());
                }
                for (String d : refAgain.differences(again)) {
                    problems.add(mode + " after repair: reference <> engine: " + d);
                }
            }
            if (problems.isEmpty()) {
                return null;
            }
            return String.join("\n  ", problems) + "\n  case: " + String.join("; ", c.story());
        } finally {
            PartitionCases.deleteTree(caseRoot);
        }
    }

    private static Path partitionDir(Path root, long partitionId) {
        return root.resolve("streams/1/topics/1/partitions/" + Long.toUnsignedString(partitionId));
    }

    /** The engine with the checkpoint, and windows and threads varied by seed so every read path is compared. */
    private static RecoveryEngine engine(long seed, ReferenceRecovery.Checkpoint cp) {
        int[] windows = {1024, 4096, 65_536, 1 << 22};
        RecoveryOptions o = RecoveryOptions.defaults().withThreads(Math.floorMod(seed, 4L) == 3 ? 2 : 1)
                .withWindow(windows[(int) Math.floorMod(seed / 4, 4L)]);
        if (cp != null) {
            o = o.withCheckpoint(new Checkpoint(cp.start(), cp.length(), cp.next()));
        }
        return new RecoveryEngine(o);
    }
}
