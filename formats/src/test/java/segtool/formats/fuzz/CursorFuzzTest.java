package segtool.formats.fuzz;

import static segtool.formats.fuzz.Fuzz.allocated;
import static segtool.formats.fuzz.Fuzz.assertAllocatedAtMost;
import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.LogCursor;
import segtool.formats.log.MessageView;
import segtool.formats.log.RecordVerifier;
import segtool.formats.io.SegmentChannel;

/**
 * A {@code .log} file walked by {@link LogCursor} (F 2.1) through a small window, so records wider than it take
 * the wide-range path ({@link SegmentChannel#withRange}: a mapping for a file, a read-only slice for the bytes in
 * memory the input is given as), with {@link LogCursor#frames} and {@link LogCursor#messages} on every batch.
 *
 * <p>Invariants: batches start at 0 and follow each other by {@code batch_length}; none ends past the file; each
 * verdict equals the in-memory verifier's on the same bytes; the walk ends where the last batch ended, cleanly only
 * at the end of the file, with a would-be header exactly when the header decoded; frames lie inside their batch and
 * {@code messages} meets the frames {@code frames} meets; a seek back replays the walk; heap use is the window's and
 * the verifier's, plus a few objects per batch and frame.
 */
class CursorFuzzTest {
    private static final int WINDOW = 4096;
    /** Records up to this many bytes are framed; larger ones stop the walk with LENGTH_OVER_MAX. */
    private static final long MAX_BATCH = 1 << 20;
    private static final RecordVerifier MEMORY = new RecordVerifier();
    /** The input is the content of this log, read through the channel the CLI reads files with, not written out. */
    private static final Path LOG = Path.of("00000000000000000000.log");
    private static boolean warm;

    @FuzzTest(maxDuration = "12h")
    void walk(byte[] data) throws IOException {
        if (!warm) {
            warm = true;
            Fuzz.warmUp(() -> {
                for (byte[] log : SeedCorpus.logs()) {
                    walkFile(log);
                }
            });
            // Seeds that verify never compare two defects (Objects.equals(null, null)); the first damaged input
            // would link Defect's record methods inside the measured walk.
            Fuzz.linkRecordMethods(Defect.of(Defect.Code.FRAME_TRUNCATED, 0, 0, 0, 0));
        }
        walkFile(data);
    }

    /**
     * The committed corpus, each input written to a real file and walked through {@link SegmentChannel#open}: the
     * file path the CLI takes, whose records wider than the window are read through a mapping ({@code MappedRange})
     * rather than the in-memory slice the fuzzing loop uses. Each input is walked twice; the second walk is measured.
     */
    @Test
    void corpus_replaysThroughAFileOnDisk(@TempDir Path dir) throws Exception {
        Path resources = Path.of(CursorFuzzTest.class.getResource("CursorFuzzTestInputs/walk").toURI());
        List<byte[]> inputs = new ArrayList<>(SeedCorpus.logs());
        try (var files = Files.list(resources)) {
            for (Path f : files.sorted().toList()) {
                inputs.add(Files.readAllBytes(f));
            }
        }
        Path log = dir.resolve(LOG);
        for (byte[] data : inputs) {
            Files.write(log, data);
            for (int pass = 0; pass < 2; pass++) {
                try (SegmentChannel ch = SegmentChannel.open(log, WINDOW)) {
                    walk(ch, data, pass == 1);
                }
            }
        }
        check(inputs.size() > SeedCorpus.logs().size(), "the committed corpus was found");
    }

    private static void walkFile(byte[] data) throws IOException {
        try (SegmentChannel ch = SegmentChannel.of(LOG, data, WINDOW)) {
            walk(ch, data, true);
        }
    }

    private static void walk(SegmentChannel ch, byte[] data, boolean measure) throws IOException {
        try (LogCursor cursor = new LogCursor(ch, 0, MAX_BATCH)) {
            List<LogCursor.Batch> batches = new ArrayList<>();
            long frames = 0;
            long before = allocated();
            long expected = 0;
            for (LogCursor.Batch next; (next = cursor.next()) != null; ) {
                LogCursor.Batch b = next;
                long at = expected;
                check(b.position() == expected, () -> "batch at " + b.position() + ", expected " + at);
                check(b.checked() && b.end() <= data.length && b.length() >= BatchHeader.LENGTH, () -> "batch " + b);
                expected = b.end();
                batches.add(b);
                long[] seen = {0, b.position() + BatchHeader.LENGTH};
                Defect framesDefect = cursor.frames(b, f -> {
                    check(f.index() == seen[0] && f.position() == seen[1] && f.end() <= b.end(), () -> "frame " + f);
                    seen[0]++;
                    seen[1] = f.end();
                    return true;
                });
                long[] messages = {0};
                Defect messagesDefect = cursor.messages(b, 16, (MessageView v) -> {
                    messages[0]++;
                    return true;
                });
                check(Objects.equals(framesDefect, messagesDefect), () -> "frames " + framesDefect + " messages "
                        + messagesDefect);
                check(messages[0] == seen[0], () -> "messages " + messages[0] + " frames " + seen[0]);
                frames += seen[0];
            }
            if (measure) {
                assertAllocatedAtMost(before, 65536 + 2048L * batches.size() + 1024L * frames, "walk");
            }
            long walked = expected;
            check(cursor.stopped() && cursor.position() == walked, () -> "walk ended at " + cursor.position()
                    + " after a batch ending at " + walked);
            Defect stop = cursor.stopReason();
            check((stop == null) == (expected == data.length), () -> "stop " + stop + " at " + walked + " of "
                    + data.length);
            if (stop != null) {
                // A nonzero reserved byte is reported where it sits, its offset in the header as the index (F 2.2).
                long where = stop.code() == Defect.Code.RESERVED_NOT_ZERO ? expected + stop.index() : expected;
                check(stop.position() == where, () -> "stop reason " + stop + ", walk at " + walked);
                boolean decoded = stop.code() == Defect.Code.LENGTH_OVER_MAX || stop.code() == Defect.Code.RUNS_PAST_EOF;
                check(decoded == (cursor.stopHeader() != null), () -> "stop header with " + stop);
                check(stop.describe() != null, "description");
            }
            for (LogCursor.Batch b : batches) {
                byte[] bytes = java.util.Arrays.copyOfRange(data, (int) b.position(), (int) b.end());
                Defect inMemory = MEMORY.verify(ByteBuffer.wrap(bytes), 0, bytes.length, b.position());
                check(Objects.equals(inMemory, b.defect()), () -> "file verdict " + b.defect() + ", in memory "
                        + inMemory);
            }
            if (!batches.isEmpty()) {
                cursor.seek(0);
                LogCursor.Batch first = cursor.nextUnverified();
                check(first != null && first.header().equals(batches.get(0).header()) && !first.checked(),
                        "seek(0) does not replay the walk");
                check(Objects.equals(cursor.verify(first).defect(), batches.get(0).defect()), "verify after seek");
            }
            cursor.seek(data.length + 1L);
            check(cursor.next() == null && cursor.stopReason() != null
                    && cursor.stopReason().code() == Defect.Code.HEADER_TRUNCATED, "seek past the end");
        }
    }
}
