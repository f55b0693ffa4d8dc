package segtool.analyzers.replica;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * Replicas made by the byte-exact writer from the same messages: the same seed, segment size and batch size, so
 * every sealed log is the same bytes, and a different flush threshold per replica, so the indexes differ.
 */
final class Replicas {
    static final int MESSAGES = 600;
    static final int PER_BATCH = 3;
    static final int PAYLOAD = 40;
    static final long SEGMENT = 4096;
    static final long SEED = 42;

    private Replicas() {
    }

    /** {@code <root>/<name>/streams/1/topics/1/partitions/1}, flushed every {@code flushEvery} messages. */
    static List<PartitionWriter.SegmentLayout> make(Path root, String name, int flushEvery) {
        return PartitionWriter.fill(partition(root, name), PartitionWriter.Config.of(1).segmentSize(SEGMENT)
                .messagesRequiredToSave(flushEvery), MESSAGES, PER_BATCH, PAYLOAD, SEED);
    }

    static Path partition(Path root, String name) {
        return root.resolve(name).resolve("streams/1/topics/1/partitions/1");
    }

    /** Collects each data directory in memory, as {@code compare} does, under the lenient mode. */
    static List<ReplicaComparison.Replica> collect(Path root, boolean durable, String... names)
            throws IOException, InterruptedException {
        List<ReplicaComparison.Replica> out = new ArrayList<>();
        Collector c = new Collector(RecoveryOptions.defaults(), 2, Throttle.NONE);
        for (String n : names) {
            List<PartitionPath> parts = Targets.resolve(root.resolve(n)).partitions();
            InputsResolver inputs = new InputsResolver(new InputsResolver.CommandLine(durable, false, null));
            out.add(new ReplicaComparison.Replica(n, c.collect(n, inputs.resolve(parts))));
        }
        return out;
    }

    static ReplicaComparison.Result compare(Path root, String... names) throws IOException, InterruptedException {
        return ReplicaComparison.compare(collect(root, false, names));
    }
}
