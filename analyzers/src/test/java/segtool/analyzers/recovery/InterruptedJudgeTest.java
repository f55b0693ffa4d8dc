package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * Ctrl-C or SIGTERM while a judgement reads: the interrupt closes the channel being read (or gives up the wait for
 * a verifying worker), which comes back as an I/O error. The judgement is cancelled, never reported as a partition
 * that cannot be read: repair and rebuild-index printed "cannot read file (open): ClosedByInterruptException" and
 * exited 3 where the run had been stopped (130 or 143).
 */
class InterruptedJudgeTest {
    private static final int WINDOW = 64 << 10;

    @TempDir
    Path root;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @ParameterizedTest(name = "threads={0} mapped={1}")
    @CsvSource({"1,false", "2,false", "1,true"})
    void anInterruptMetInARead_cancelsTheJudgement(int threads, boolean mapped) throws IOException {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(16).trackLayout(false),
                16 * 64, 16, 2_000, 1);
        PartitionPath p = PartitionPath.of(dir);
        RecoveryOptions base = RecoveryOptions.defaults().withWindow(WINDOW).withThreads(threads).withMapping(mapped);
        assertEquals(PartitionReport.Outcome.ACCEPTED, new RecoveryEngine(base).judge(p, false).outcome());

        AtomicInteger all = new AtomicInteger();
        new RecoveryEngine(base.withProgress(n -> all.incrementAndGet())).judge(p, false);
        // the interrupt arrives as the walk accepts its k-th record, on the judging thread, before its next read
        for (int k = 1; k <= all.get(); k++) {
            int at = k;
            AtomicInteger records = new AtomicInteger();
            RecoveryEngine interrupted = new RecoveryEngine(base.withProgress(n -> {
                if (records.incrementAndGet() == at) {
                    Thread.currentThread().interrupt();
                }
            }));
            try {
                PartitionReport r = interrupted.judge(p, false);
                // past the last read the judgement may finish; it is never an I/O error
                assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome(), () -> "k=" + at + ": " + r.ioError());
            } catch (RecoveryEngine.Cancelled expected) {
                // cancelled
            } finally {
                Thread.interrupted();
            }
        }
    }
    /**
     * The interrupt from another thread (as the signal handler sends it) at moments spread over a judgement that
     * probes 24 MiB of random residue past the last good batch (RECOVERY 4.7), so that it lands inside reads: each
     * run is cancelled or finishes, and no run reports an I/O error.
     */
    @org.junit.jupiter.api.Test
    void anInterruptFromAnotherThread_neverReadsAsAnIoError() throws Exception {
        Path dir = root.resolve("streams/1/topics/1/partitions/2");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(2).messagesRequiredToSave(16).trackLayout(false),
                16 * 4, 16, 2_000, 1);
        byte[] noise = new byte[24 << 20];
        new java.util.Random(7).nextBytes(noise);
        java.nio.file.Files.write(segtool.formats.naming.SegmentFiles.log(dir, 0), noise,
                java.nio.file.StandardOpenOption.APPEND);
        PartitionPath p = PartitionPath.of(dir);
        RecoveryEngine engine = new RecoveryEngine(RecoveryOptions.defaults().withWindow(WINDOW).withThreads(1));
        long t0 = System.nanoTime();
        PartitionReport whole = engine.judge(p, false);
        long micros = Math.max(1, (System.nanoTime() - t0) / 1000);
        int cancelled = 0;
        for (int i = 0; i < 24; i++) {
            long delay = micros * i / 24;
            PartitionReport[] out = new PartitionReport[1];
            Thread judge = new Thread(() -> {
                try {
                    out[0] = engine.judge(p, false);
                } catch (RecoveryEngine.Cancelled c) {
                    out[0] = null;
                }
            });
            judge.start();
            java.util.concurrent.locks.LockSupport.parkNanos(delay * 1000);
            judge.interrupt();
            judge.join();
            if (out[0] == null) {
                cancelled++;
            } else {
                PartitionReport r = out[0];
                assertEquals(whole.outcome(), r.outcome(), () -> "interrupted after " + delay + " us: " + r.ioError());
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(cancelled > 0, "no run was cancelled");
    }
}
