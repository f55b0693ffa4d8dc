package segtool.formats.writer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a large healthy partition for benchmarks and memory measurements:
 * {@code Fill DIR PARTITION_ID TOTAL_BYTES [BATCH_BYTES] [MESSAGES_PER_BATCH] [SEGMENT_SIZE]}.
 * One flush per batch, so the index is as dense as the server makes it with small flush thresholds.
 */
public final class Fill {
    private Fill() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: Fill DIR PARTITION_ID TOTAL_BYTES [BATCH_BYTES] [MESSAGES_PER_BATCH] "
                    + "[SEGMENT_SIZE]");
            System.exit(64);
        }
        Path dir = Path.of(args[0]);
        long pid = Long.parseLong(args[1]);
        long total = Long.parseLong(args[2]);
        int batchBytes = args.length > 3 ? Integer.parseInt(args[3]) : 1 << 20;
        int perBatch = args.length > 4 ? Integer.parseInt(args[4]) : 64;
        long segmentSize = args.length > 5 ? Long.parseLong(args[5]) : Long.MAX_VALUE;
        int payload = Math.max(0, (batchBytes - 256) / perBatch - 48);
        long batches = Math.max(1, total / (256 + (long) perBatch * (48 + payload)));
        List<PartitionWriter.SegmentLayout> segments = PartitionWriter.fill(dir, PartitionWriter.Config.of(pid)
                .segmentSize(segmentSize).messagesRequiredToSave(perBatch).trackLayout(false),
                (int) Math.min(Integer.MAX_VALUE, batches * perBatch), perBatch, payload, 1);
        long bytes = segments.stream().mapToLong(PartitionWriter.SegmentLayout::length).sum();
        System.out.println(dir + ": " + segments.size() + " segment(s), " + bytes + " bytes");
    }
}
