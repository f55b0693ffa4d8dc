package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.io.SegmentChannel;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;

/**
 * The engine judges through mapped windows first and throws that answer away when a fault under a mapping was met
 * meanwhile: the partition is then judged again through read windows, whose answer (or exact I/O error) is the one
 * returned. A 3 MiB partition of 48 batches of 64 messages of 1,000 bytes, and 256 KiB windows (the smallest that
 * map), so that every window holds several batches. Mapping is asked for through the options (it is off unless
 * -Dsegtool.map=true); that the mapped attempt ran is seen in the fault count a cut under it moves.
 */
class MappedJudgeTest {
    private static final int WINDOW = 256 << 10;
    private static final int BATCHES = 48;

    @TempDir
    Path root;

    private PartitionPath partition() throws IOException {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(64).trackLayout(false),
                64 * BATCHES, 64, 1_000, 1);
        return PartitionPath.of(dir);
    }

    /** A fault counted while the mapped attempt walks: the report is the read windows' one, judged a second time. */
    @ParameterizedTest(name = "threads={0}")
    @ValueSource(ints = {1, 2})
    void aFaultMetWhileJudgingMapped_isJudgedAgainThroughReadWindows(int threads) throws Exception {
        PartitionPath p = partition();
        RecoveryOptions base = RecoveryOptions.defaults().withWindow(WINDOW).withThreads(threads).withMapping(true);
        AtomicInteger plainRecords = new AtomicInteger();
        PartitionReport plain = new RecoveryEngine(base.withProgress(n -> plainRecords.incrementAndGet()))
                .judgeOnceForTest(p, false);
        assertEquals(PartitionReport.Outcome.ACCEPTED, plain.outcome());
        int walked = plainRecords.get();
        assertTrue(walked > BATCHES, "W(last) then W(first) over every batch: " + walked);

        AtomicInteger records = new AtomicInteger();
        long before = SegmentChannel.mappedFaults();
        PartitionReport r = new RecoveryEngine(base.withProgress(n -> {
            if (records.incrementAndGet() == 1) {
                SegmentChannel.noteMappedFault();   // as a fault under the mapping would be counted
            }
        })).judge(p, false);
        assertEquals(before + 1, SegmentChannel.mappedFaults());
        assertEquals(2 * walked, records.get(), "the mapped judgement and the read one, each walking every batch");
        assertEquals(plain.outcome(), r.outcome());
        assertEquals(plain.segments(), r.segments());

        // no fault: one mapped judgement, the same answer
        AtomicInteger once = new AtomicInteger();
        PartitionReport m = new RecoveryEngine(base.withProgress(n -> once.incrementAndGet())).judge(p, false);
        assertEquals(walked, once.get());
        assertEquals(plain.segments(), m.segments());
    }

    /** Options whose progress callback cuts the log to nothing when the {@code cutAfter}-th record is accepted. */
    private static RecoveryOptions cutting(RecoveryOptions base, Path log, int cutAfter) {
        AtomicInteger records = new AtomicInteger();
        return base.withProgress(n -> {
            if (records.incrementAndGet() == cutAfter) {
                try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
                    ch.truncate(0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
    }

    /**
     * The log cut to nothing (a concurrent truncate) while the mapped judgement walks it: after W(last) has accepted
     * the last batch (the next read is W(first)'s; the cut is seen when the mapped windows close) or once W(first)
     * has accepted batch 0 (the next header is read from a mapping whose pages are gone, a SIGBUS). No InternalError
     * escapes, the fault is counted, and the answer is that of read windows over the partition as it now is.
     */
    @ParameterizedTest(name = "threads={0} cut after record {1}")
    @org.junit.jupiter.params.provider.CsvSource({"1,1", "1,2", "2,1", "2,2"})
    void aLogCutUnderTheMappedJudgement_isJudgedAgainAsItNowIs(int threads, int cutAfter) throws Exception {
        PartitionPath p = partition();
        Path log = SegmentFiles.log(p.directory(), 0);
        RecoveryOptions base = RecoveryOptions.defaults().withWindow(WINDOW).withThreads(threads).withMapping(true);
        long before = SegmentChannel.mappedFaults();
        PartitionReport r = new RecoveryEngine(cutting(base, log, cutAfter)).judge(p, false);
        assertTrue(SegmentChannel.mappedFaults() > before, "the fault under the mapping was counted");
        PartitionReport now = new RecoveryEngine(base).judgeOnceForTest(p, false);
        assertEquals(now.outcome(), r.outcome(), () -> r.outcome() + " " + r.ioError());
        assertEquals(now.segments(), r.segments());
        assertEquals(now.ioError(), r.ioError());
    }
}
