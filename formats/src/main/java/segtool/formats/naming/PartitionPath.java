package segtool.formats.naming;

import java.nio.file.Path;
import segtool.formats.io.U64;

/**
 * A partition directory {@code <system>/streams/<s>/topics/<t>/partitions/<p>/} (F 1.1) with the ids its path
 * names. Ids are u64 held in a long (2^63 and above are negative here, 2^64-1 is -1); {@code known} says which are
 * known ({@link #STREAM}, {@link #TOPIC}, {@link #PARTITION} bits), so every u64 is a valid id. An id the path does
 * not give is -1 and not known; the partition id can be supplied by the caller instead.
 */
public record PartitionPath(Path directory, long streamId, long topicId, long partitionId, int known) {
    public static final String STREAMS = "streams";
    public static final String TOPICS = "topics";
    public static final String PARTITIONS = "partitions";
    public static final int STREAM = 1;
    public static final int TOPIC = 2;
    public static final int PARTITION = 4;

    /** Ids with -1 taken as unknown: for callers that never hold the id 2^64-1. */
    public PartitionPath(Path directory, long streamId, long topicId, long partitionId) {
        this(directory, streamId, topicId, partitionId, (streamId != -1 ? STREAM : 0) | (topicId != -1 ? TOPIC : 0)
                | (partitionId != -1 ? PARTITION : 0));
    }

    /** Reads the ids off the last six path components; missing ones are -1 (unknown). */
    public static PartitionPath of(Path directory) {
        Path abs = directory.toAbsolutePath().normalize();
        int n = abs.getNameCount();
        Long partition = n >= 1 ? id(abs.getName(n - 1)) : null;
        Long topic = null;
        Long stream = null;
        if (n >= 6 && name(abs, n - 2).equals(PARTITIONS) && name(abs, n - 4).equals(TOPICS)
                && name(abs, n - 6).equals(STREAMS)) {
            topic = id(abs.getName(n - 3));
            stream = id(abs.getName(n - 5));
        }
        return new PartitionPath(directory, stream == null ? -1 : stream, topic == null ? -1 : topic,
                partition == null ? -1 : partition, (stream != null ? STREAM : 0) | (topic != null ? TOPIC : 0)
                | (partition != null ? PARTITION : 0));
    }

    /** The same directory with the partition id {@code id} (any u64, 2^64-1 included), known. */
    public PartitionPath withPartitionId(long id) {
        return new PartitionPath(directory, streamId, topicId, id, known | PARTITION);
    }

    /** The same ids and knowledge for another spelling of the directory (its real path, say). */
    public PartitionPath withDirectory(Path other) {
        return new PartitionPath(other, streamId, topicId, partitionId, known);
    }

    /** True when a partition id is known (from the path or the caller). */
    public boolean hasPartitionId() {
        return (known & PARTITION) != 0;
    }

    public boolean hasStreamId() {
        return (known & STREAM) != 0;
    }

    public boolean hasTopicId() {
        return (known & TOPIC) != 0;
    }

    /** True when the directory sits where the server keeps partitions. */
    public boolean isCanonical() {
        return known == (STREAM | TOPIC | PARTITION);
    }

    private static String name(Path p, int i) {
        return p.getName(i).toString();
    }

    /** The u64 a path component names, or null when it is not one. */
    private static Long id(Path component) {
        String s = component.toString();
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        return U64.parse(s);
    }
}
