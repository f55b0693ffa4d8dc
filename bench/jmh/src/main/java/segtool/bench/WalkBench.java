package segtool.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * The whole byte-0 judgement (lenient mode: R() verifies every batch) of one cached 256 MiB segment, in process:
 * the engine's walk with {@code threads} verifying cores and {@code window}-byte windows, without the JVM's start.
 * GB/s = 0.268 / (s/op). {@code payload} 17 is the small-message case (1,000 per batch), 16332 Fill's default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WalkBench {
    @Param({"17", "16332"})
    public int payload;

    @Param({"1", "2"})
    public int threads;

    @Param({"1048576"})
    public int window;

    private Path root;
    private PartitionPath partition;
    private RecoveryEngine engine;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        root = Files.createTempDirectory("segtool-walkbench");
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        int perBatch = payload == 17 ? 1000 : 64;
        long frame = 48L + payload;
        int total = (int) ((256L << 20) / frame / perBatch * perBatch);
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(perBatch).trackLayout(false),
                total, perBatch, payload, 1);
        partition = PartitionPath.of(dir);
        engine = new RecoveryEngine(RecoveryOptions.defaults().withThreads(threads).withWindow(window));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public PartitionReport judgeLenient() {
        PartitionReport r = engine.judge(partition, false);
        if (r.outcome() != PartitionReport.Outcome.ACCEPTED) {
            throw new IllegalStateException("not accepted: " + r.outcome());
        }
        return r;
    }
}
