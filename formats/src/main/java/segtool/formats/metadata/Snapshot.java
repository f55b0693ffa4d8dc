package segtool.formats.metadata;

import java.util.List;

/**
 * What segtool takes from {@code metadata/snapshot.bin} (METADATA 2.3, 2.6): the format version, the op it covers,
 * the streams with their topics (options, partitions), the partition-shaping {@code revision}, the writing build,
 * and how the trailer was found.
 */
public record Snapshot(long version, long createdAt, long sequenceNumber, List<Stream> streams, long revision,
                       long writerRelease, Trailer trailer, long checksum) {
    /** How the 20-byte trailer (METADATA 2.1) was found. A mismatching checksum is never a {@code Snapshot}. */
    public enum Trailer {
        /** Magic present, XXH3-64 of the payload matches. */
        VERIFIED,
        /** File shorter than 20 bytes: only builds up to 2026-08-21 accept it, unverified. */
        ABSENT_SHORT,
        /** The last 20 bytes lack the magic: only builds up to 2026-08-21 accept it, unverified. */
        ABSENT_NO_MAGIC
    }

    public Snapshot {
        streams = List.copyOf(streams);
    }

    /** {@code [stream_key, StreamSnapshot]}: key, {@code id}, {@code name}, topics. */
    public record Stream(long key, long id, String name, List<Topic> topics) {
        public Stream {
            topics = List.copyOf(topics);
        }
    }

    /** {@code [topic_key, TopicSnapshot]}: key, {@code id}, {@code name}, partitions and the stored options map. */
    public record Topic(long key, long id, String name, List<Partition> partitions, List<TopicOption> options) {
        public Topic {
            partitions = List.copyOf(partitions);
            options = List.copyOf(options);
        }
    }

    /** {@code PartitionSnapshot}; {@code createdView} is null in the 6-element shape. */
    public record Partition(long id, long consensusGroupId, long createdAt, long createdRevision,
                            long deletedUpToOffset, long purgeGeneration, Long createdView) {
    }
}
