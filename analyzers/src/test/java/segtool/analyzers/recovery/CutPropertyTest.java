package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.index.IndexEntry;
import segtool.formats.log.Message;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;
import segtool.formats.writer.PartitionWriter.BatchInfo;
import segtool.formats.writer.PartitionWriter.SegmentLayout;

/**
 * Properties over many seeds: a healthy partition is clean in both modes; cutting its segment at any byte gives
 * exactly the verdict the spec implies (an independent model from the writer's layout, below); and applying the
 * plan then judging again gives clean (recovery is a fixpoint). Verification runs sequentially or on two threads
 * with assorted window sizes, so the parallel verifier and the mapped path are held to the same answers.
 */
class CutPropertyTest {
    @TempDir
    Path root;

    private SegmentLayout write(Path dir, Random random, long start) throws IOException {
        PartitionWriter.Config config = PartitionWriter.Config.of(1).startOffset(start)
                .messagesRequiredToSave(1 + random.nextInt(4)).segmentSize(Long.MAX_VALUE);
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            int batches = 3 + random.nextInt(6);
            for (int b = 0; b < batches; b++) {
                int n = 1 + random.nextInt(3);
                List<Message> messages = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    byte[] payload = new byte[8 + random.nextInt(300)];
                    random.nextBytes(payload);
                    messages.add(new Message(random.nextLong() | 1, random.nextLong(), random.nextInt(1000), payload,
                            null));
                }
                w.append(messages);
            }
            w.close();
            return w.segments().get(0);
        }
    }

    private static RecoveryEngine engine(long cut) {
        int[] windows = {1024, 4096, 1 << 22};
        return new RecoveryEngine(RecoveryOptions.defaults().withThreads(cut % 2 == 0 ? 1 : 2)
                .withWindow(windows[(int) (cut % 3)]));
    }

    /** The verdict the spec implies for a healthy single-segment partition whose log is cut to {@code x} bytes. */
    private record Expected(boolean refused, Refusal.Variant variant, List<Long> fields, Status status, long size,
                            long endOffset) {
    }

    private static Expected model(SegmentLayout seg, long x, boolean durable) {
        long s = seg.startOffset();
        List<BatchInfo> batches = seg.batches();
        long p = 0;
        long end = s;
        for (BatchInfo b : batches) {
            if (b.end() <= x) {
                p = b.end();
                end = b.baseOffset() + b.messageCount() - 1;
            }
        }
        List<IndexEntry> e = seg.entries();
        int n = e.size();
        IndexEntry last = e.get(n - 1);
        if (!durable) {
            if (p == 0) {
                return new Expected(false, null, null, Status.RECOVERED_EMPTY, 0, s);
            }
            if (backed(seg, last, x) && p == x) {
                return new Expected(false, null, null, Status.CLEAN, x, end);
            }
            return new Expected(false, null, null, p == x ? Status.INDEX_REBUILT : Status.TRUNCATED, p, end);
        }
        if (backed(seg, last, x)) {
            return new Expected(false, null, null, p == x ? Status.CLEAN : Status.TRUNCATED, p, end);
        }
        if (n >= 2 && !backed(seg, e.get(n - 2), x)) {
            long pe = 0;
            long pp = 0;
            long se = n - 1;
            for (int i = n - 2; i >= 0; i--) {
                if (backed(seg, e.get(i), x)) {
                    pe = i + 1;
                    pp = e.get(i).position();
                    se = n - 1 - i;
                    break;
                }
            }
            return new Expected(true, Refusal.Variant.FsyncedLogLoss, List.of(s, (long) n, pe, pp, se), null, 0, 0);
        }
        if (p < last.position()) {
            return new Expected(true, Refusal.Variant.FsyncedRebuildShortfall, List.of(s, (long) n, p,
                    last.position()), null, 0, 0);
        }
        if (p == 0) {
            return new Expected(false, null, null, Status.RECOVERED_EMPTY, 0, s);
        }
        return new Expected(false, null, null, p == x ? Status.INDEX_REBUILT : Status.TRUNCATED, p, end);
    }

    private static boolean backed(SegmentLayout seg, IndexEntry entry, long x) {
        for (BatchInfo b : seg.batches()) {
            if (b.position() == entry.position()) {
                return b.end() <= x;
            }
        }
        throw new AssertionError("entry without batch: " + entry);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 42, 2024})
    void healthyPartition_cleanInBothModes(long seed) throws IOException {
        Random random = new Random(seed);
        Path dir = root.resolve("h" + seed + "/streams/1/topics/1/partitions/1");
        long start = seed % 2 == 0 ? 0 : 1000 + random.nextInt(100000);
        write(dir, random, start);
        for (boolean durable : new boolean[]{false, true}) {
            PartitionReport r = engine(seed).judge(PartitionPath.of(dir), durable);
            assertEquals(Outcome.ACCEPTED, r.outcome(), "seed " + seed);
            assertEquals(Status.CLEAN, r.segments().get(0).status(), "seed " + seed);
            assertEquals(0, r.severity(), "seed " + seed);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 11, 99})
    void cutAtEveryByte_givesTheImpliedVerdict_andRepairIsAFixpoint(long seed) throws IOException {
        Random random = new Random(seed);
        Path pristine = root.resolve("pristine/streams/1/topics/1/partitions/1");
        SegmentLayout seg = write(pristine, random, seed * 10);
        byte[] log = Files.readAllBytes(seg.log());
        byte[] index = Files.readAllBytes(seg.index());
        int step = seed == 7 ? 1 : 5;
        for (long x = 0; x <= log.length; x += step) {
            for (boolean durable : new boolean[]{false, true}) {
                Path dir = root.resolve("cut/streams/1/topics/1/partitions/1");
                reset(dir);
                Files.write(dir.resolve(seg.log().getFileName()), java.util.Arrays.copyOf(log, (int) x));
                Files.write(dir.resolve(seg.index().getFileName()), index);
                PartitionReport r = engine(x).judge(PartitionPath.of(dir), durable);
                Expected want = model(seg, x, durable);
                long cut = x;
                Supplier<String> where = () -> "seed " + seed + ", cut at " + cut + " of " + log.length
                        + ", durable " + durable + ": " + (r.refusal() != null ? r.refusal() : r.segments().get(0).status());
                if (want.refused()) {
                    assertEquals(Outcome.REFUSED, r.outcome(), where);
                    assertEquals(want.variant(), r.refusal().variant(), where);
                    assertEquals(want.fields(), List.copyOf(r.refusal().fields().values()), where);
                    continue;
                }
                assertEquals(Outcome.ACCEPTED, r.outcome(), where);
                SegmentReport s = r.segments().get(0);
                assertEquals(want.status(), s.status(), where);
                assertEquals(want.size(), s.size(), where);
                assertEquals(want.endOffset(), s.endOffset(), where);
                PlanApplier.apply(r);
                PartitionReport again = engine(x + 1).judge(PartitionPath.of(dir), durable);
                assertEquals(Outcome.ACCEPTED, again.outcome(), where);
                assertTrue(again.operations().isEmpty(), () -> where.get() + ": not a fixpoint: "
                        + again.operations());
                Status settled = again.segments().get(0).status();
                assertTrue(settled == Status.CLEAN || settled == Status.RECOVERED_EMPTY, where);
            }
        }
    }

    private static void reset(Path dir) throws IOException {
        if (Files.exists(dir.getParent())) {
            try (var walk = Files.walk(dir.getParent())) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(dir);
    }
}
