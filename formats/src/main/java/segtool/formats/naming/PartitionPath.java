package segtool.formats.naming;

import java.nio.file.Path;
import segtool.formats.io.U64;

/**
 * A partition directory {@code <system>/streams/<s>/topics/<t>/partitions/<p>/} (F 1.1) with the ids its path
 * names. An id the path does not give is -1; the partition id can be supplied by the caller instead.
 */
public record PartitionPath(Path directory, long streamId, long topicId, long partitionId) {
    public static final String STREAMS = "streams";
    public static final String TOPICS = "topics";
    public static final String PARTITIONS = "partitions";

    /** Reads the ids off the last six path components; missing ones are -1 (unknown). */
    public static PartitionPath of(Path directory) {
        Path abs = directory.toAbsolutePath().normalize();
        int n = abs.getNameCount();
        long partition = n >= 1 ? id(abs.getName(n - 1)) : -1;
        long topic = -1;
        long stream = -1;
        if (n >= 6 && name(abs, n - 2).equals(PARTITIONS) && name(abs, n - 4).equals(TOPICS)
                && name(abs, n - 6).equals(STREAMS)) {
            topic = id(abs.getName(n - 3));
            stream = id(abs.getName(n - 5));
        }
        return new PartitionPath(directory, stream, topic, partition);
    }

    public PartitionPath withPartitionId(long id) {
        return new PartitionPath(directory, streamId, topicId, id);
    }

    /**
     * True when a partition id is known (from the path or the caller). Ids are u64 held in a long, so 2^63 and above
     * are negative here; only -1 (2^64-1) doubles as "unknown", and a caller that sets that id knows it set it.
     */
    public boolean hasPartitionId() {
        return partitionId != -1;
    }

    /** True when the directory sits where the server keeps partitions. */
    public boolean isCanonical() {
        return streamId != -1 && topicId != -1 && partitionId != -1;
    }

    private static String name(Path p, int i) {
        return p.getName(i).toString();
    }

    private static long id(Path component) {
        String s = component.toString();
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        Long v = U64.parse(s);
        return v == null ? -1 : v;
    }
}
