package segtool.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.DirectBuffers;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.FrameHeader;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;

/**
 * The verify loop on one core: one window (about 4 MiB, page-aligned, as the walk's) of records made by the encoder,
 * verified record by record exactly as the walk's workers do ({@link RecordVerifier#verify(ByteBuffer, int, long,
 * long)}), against the two hashing floors of the same bytes: one XXH3 per frame (the per-message checksums alone)
 * and one XXH3 over the whole window (what {@code xxhsum} does). An operation is one window: GB/s = ops/s x
 * {@code bytes} (printed at setup). {@code payload} 17 is the small-message worst case (1,000 per batch); 16332 is
 * Fill's default (64 messages per 1 MiB batch).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class VerifyBench {
    @Param({"17", "16332"})
    public int payload;

    private ByteBuffer window;
    private int[] recordAt;
    private int[] recordLength;
    private int[] frameAt;
    private int[] frameLength;
    private int bytes;
    private RecordVerifier verifier;

    @Setup(Level.Trial)
    public void setup() {
        int perBatch = payload == 17 ? 1000 : 64;
        Random r = new Random(15);
        List<byte[]> records = new ArrayList<>();
        int total = 0;
        List<Integer> frames = new ArrayList<>();
        for (long offset = 0; total < (4 << 20) - (1 << 20); offset += perBatch) {
            List<Message> ms = new ArrayList<>(perBatch);
            for (int m = 0; m < perBatch; m++) {
                byte[] p = new byte[payload];
                r.nextBytes(p);
                ms.add(Message.of(offset + m, p));
            }
            byte[] rec = RecordEncoder.encode(1, offset, 1_700_000_000_000_000L + offset, 1_700_000_000_000_000L, ms);
            for (int m = 0, f = total + BatchHeader.LENGTH; m < perBatch; m++, f += FrameHeader.LENGTH + payload) {
                frames.add(f);
            }
            records.add(rec);
            total += rec.length;
        }
        window = DirectBuffers.allocateAligned(total);
        recordAt = new int[records.size()];
        recordLength = new int[records.size()];
        int at = 0;
        for (int i = 0; i < records.size(); i++) {
            recordAt[i] = at;
            recordLength[i] = records.get(i).length;
            window.put(at, records.get(i));
            at += records.get(i).length;
        }
        frameAt = frames.stream().mapToInt(Integer::intValue).toArray();
        frameLength = new int[frameAt.length];
        java.util.Arrays.fill(frameLength, FrameHeader.LENGTH + payload - FrameHeader.ID_OFFSET);
        bytes = total;
        verifier = new RecordVerifier();
        System.out.printf("%nwindow: %d bytes, %d records, %d frames (payload %d)%n", bytes, recordAt.length,
                frameAt.length, payload);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        verifier.close();
    }

    /** Verifies every record of the window, as a walk's worker does. */
    @Benchmark
    public int verify() throws IOException {
        int failed = 0;
        for (int i = 0; i < recordAt.length; i++) {
            Defect d = verifier.verify(window, recordAt[i], recordLength[i], recordAt[i]);
            if (d != null) {
                failed++;
            }
        }
        if (failed != 0) {
            throw new IllegalStateException(failed + " records failed to verify");
        }
        return failed;
    }

    /** The per-message XXH3s alone: the hashing cost verification cannot avoid. */
    @Benchmark
    public long xxh3PerFrame() {
        long h = 0;
        for (int i = 0; i < frameAt.length; i++) {
            h ^= Xxh3.hash(window, frameAt[i] + FrameHeader.ID_OFFSET, frameLength[i]);
        }
        return h;
    }

    /** One XXH3 over the whole window, as {@code xxhsum -H3} hashes a file: the bulk floor. */
    @Benchmark
    public long xxh3Bulk() {
        return Xxh3.hash(window, 0, bytes);
    }
}
