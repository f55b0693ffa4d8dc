package segtool.analyzers.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.LatentDamage;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

class DataDirJudgeTest {
    @TempDir
    Path root;

    @Test
    void dataDirectory_judgedInParallel_equalsOneByOne_andReportsProgress() throws Exception {
        for (int s = 1; s <= 2; s++) {
            for (int p = 1; p <= 3; p++) {
                Path dir = root.resolve("streams/" + s + "/topics/1/partitions/" + p);
                PartitionWriter.fill(dir, PartitionWriter.Config.of(p).segmentSize(4096), 40 * p, 3, 50, s * 10 + p);
                if (p == 2) {
                    // a torn tail on every second partition
                    Path log = dir.resolve("00000000000000000000.log");
                    Files.write(log, new byte[100], java.nio.file.StandardOpenOption.APPEND);
                }
            }
        }
        Files.createDirectories(root.resolve("streams/1/topics/1/partitions/1.fenced.0"));
        Targets t = Targets.resolve(root);
        assertEquals(Targets.Kind.DATA_DIRECTORY, t.kind());
        assertEquals(6, t.partitions().size(), "fence directories are not partitions");
        AtomicInteger done = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        List<PartitionReport> parallel = new DataDirJudge(RecoveryOptions.defaults(), 3)
                .judge(t.partitions(), false, true, (d, total, b, tb) -> {
                    done.set(d);
                    bytes.set(b);
                    assertEquals(6, total);
                });
        List<PartitionReport> oneByOne = new DataDirJudge(RecoveryOptions.defaults(), 1)
                .judge(t.partitions(), false, false, DataDirJudge.Progress.NONE);
        assertEquals(6, done.get());
        long total = 0;
        for (PartitionPath p : t.partitions()) {
            total += Sizes.logBytes(p.directory());
        }
        assertEquals(total, bytes.get());
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            a.add(parallel.get(i).partition().directory() + " " + parallel.get(i).severity() + " "
                    + parallel.get(i).operations().size());
            b.add(oneByOne.get(i).partition().directory() + " " + oneByOne.get(i).severity() + " "
                    + oneByOne.get(i).operations().size());
            assertEquals(!parallel.get(i).durable(), parallel.get(i).otherMode().durable());
        }
        assertEquals(b, a);
        assertEquals(List.of(0, 1, 0, 0, 1, 0), parallel.stream().map(PartitionReport::severity).toList());
    }

    /**
     * The thread count asked for is the number of partitions judged at once: progress is reported on the thread
     * that judges, so the threads seen are the judging ones. One thread judges on the caller's thread.
     */
    @Test
    void dataDirectory_usesTheThreadCountAskedFor() throws Exception {
        for (int p = 1; p <= 8; p++) {
            PartitionWriter.fill(root.resolve("streams/1/topics/1/partitions/" + p), PartitionWriter.Config.of(p),
                    30, 3, 50, p);
        }
        List<PartitionPath> partitions = Targets.resolve(root).partitions();
        assertEquals(8, partitions.size());
        for (int threads : new int[] {1, 2, 3}) {
            java.util.Set<Thread> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread caller = Thread.currentThread();
            RecoveryOptions o = RecoveryOptions.defaults().withThreads(threads);
            // the first update (nothing done yet) comes from the caller; every later one from a judging thread
            List<PartitionReport> reports = new DataDirJudge(o, o.threads())
                    .judge(partitions, false, false, (d, total, b, tb) -> {
                        if (!first.getAndSet(false)) {
                            seen.add(Thread.currentThread());
                        }
                    });
            assertEquals(8, reports.size());
            assertTrue(seen.size() <= threads, threads + " threads asked, " + seen.size() + " judged");
            if (threads == 1) {
                assertEquals(java.util.Set.of(caller), seen);
            } else {
                assertFalse(seen.contains(caller), "the caller waits; the pool judges");
            }
        }
    }

    private static PartitionPath gallery(String shape) {
        return PartitionPath.of(Path.of("..", "samples", "gallery", shape, "streams/1/topics/1/partitions/1"));
    }

    /**
     * Each partition is prepared (its inputs read) and latent-checked on the thread that judges it: a partition the
     * preparation declines has neither report nor check, the others get exactly what judging and checking one by
     * one gives. Without a bar, the log sizes are not read: bytes stay 0 and only the partitions done move.
     */
    @Test
    void preparedAndLatentChecked_onTheJudgingThreads_asOneByOne() throws Exception {
        List<PartitionPath> partitions = List.of(gallery("healthy"), gallery("interior-damage-below-last-entry"),
                gallery("fsynced-log-loss"), gallery("torn-tail"));
        Thread caller = Thread.currentThread();
        java.util.Set<Thread> preparedOn = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<long[]> updates = java.util.Collections.synchronizedList(new ArrayList<>());
        DataDirJudge.Progress quiet = new DataDirJudge.Progress() {
            @Override
            public void update(int done, int total, long bytes, long totalBytes) {
                updates.add(new long[] {done, total, bytes, totalBytes});
            }

            @Override
            public boolean drawn() {
                return false;
            }
        };
        RecoveryOptions options = RecoveryOptions.defaults().withThreads(2);
        List<DataDirJudge.Judgement> judged = new DataDirJudge(options, 2).judge(partitions, i -> {
            preparedOn.add(Thread.currentThread());
            return i == 3 ? null : new DataDirJudge.Mode(true, null);
        }, false, true, quiet);
        assertFalse(preparedOn.contains(caller), "inputs are read on the judging threads");
        assertEquals(4, judged.size());
        assertNull(judged.get(3).report());
        assertNull(judged.get(3).latent());
        RecoveryEngine engine = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));
        LatentDamage check = new LatentDamage(RecoveryOptions.defaults().withThreads(1));
        for (int i = 0; i < 3; i++) {
            PartitionReport alone = engine.judge(partitions.get(i), true);
            assertEquals(alone.toString(), judged.get(i).report().toString());
            assertEquals(check.check(alone).toString(), judged.get(i).latent().toString());
        }
        LatentDamage.Report damaged = judged.get(1).latent();
        assertEquals(1, damaged.findings());
        assertEquals(315, damaged.segments().get(0).findings().get(0).from());
        assertFalse(judged.get(0).latent().damaged());
        assertEquals(PartitionReport.Outcome.REFUSED, judged.get(2).report().outcome());
        long[] last = updates.stream().max(java.util.Comparator.comparingLong(u -> u[0])).orElseThrow();
        assertEquals(List.of(4L, 4L), List.of(last[0], last[1]));
        assertTrue(updates.stream().allMatch(u -> u[2] == 0 && u[3] == 0), "no sizes read without a bar");
    }

    @Test
    void threadCount_comesFromTheSegtoolThreadsProperty_atLeastOne() {
        String before = System.getProperty("segtool.threads");
        try {
            System.setProperty("segtool.threads", "3");
            assertEquals(3, RecoveryOptions.defaults().threads());
            System.setProperty("segtool.threads", "0");
            assertEquals(1, RecoveryOptions.defaults().threads());
            System.clearProperty("segtool.threads");
            assertEquals(Runtime.getRuntime().availableProcessors(), RecoveryOptions.defaults().threads());
        } finally {
            if (before == null) {
                System.clearProperty("segtool.threads");
            } else {
                System.setProperty("segtool.threads", before);
            }
        }
    }

    @Test
    void nothingToJudge_isAOneLineError() throws Exception {
        Path empty = Files.createDirectories(root.resolve("nothing-here"));
        Targets.NotATarget e = assertThrows(Targets.NotATarget.class, () -> Targets.resolve(empty));
        assertEquals(empty + ": neither a partition (no <start offset>.log or .index files, name not a "
                + "partition id) nor a data directory "
                + "(no streams/ below it)", e.getMessage());
        assertThrows(Targets.NotATarget.class, () -> Targets.resolve(root.resolve("missing")));
    }
}
