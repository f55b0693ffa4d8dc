package segtool.analyzers.replica;

import java.util.Comparator;
import java.util.Objects;
import segtool.formats.io.U64;

/**
 * What joins one partition across replicas: {@code (stream, topic, partition, created_revision, purge_generation)}
 * (METADATA 2.6). The last two come from the node's metadata; when a node's metadata was not read they are null and
 * partitions join by stream, topic and partition alone, which {@link ReplicaComparison} warns about (a deleted and
 * recreated partition would be joined with its old incarnation).
 */
public record PartitionKey(long stream, long topic, long partition, Long createdRevision, Long purgeGeneration)
        implements Comparable<PartitionKey> {

    private static final Comparator<PartitionKey> ORDER = Comparator
            .comparing(PartitionKey::stream, Long::compareUnsigned)
            .thenComparing(PartitionKey::topic, Long::compareUnsigned)
            .thenComparing(PartitionKey::partition, Long::compareUnsigned)
            .thenComparing(PartitionKey::createdRevision, Comparator.nullsFirst(Long::compareUnsigned))
            .thenComparing(PartitionKey::purgeGeneration, Comparator.nullsFirst(Long::compareUnsigned));

    /** A key from the path alone. */
    public static PartitionKey ofPath(long stream, long topic, long partition) {
        return new PartitionKey(stream, topic, partition, null, null);
    }

    /** True when the metadata's incarnation numbers are part of the key. */
    public boolean fromMetadata() {
        return createdRevision != null && purgeGeneration != null;
    }

    /** The path part of the key, without the incarnation. */
    public PartitionKey pathPart() {
        return ofPath(stream, topic, partition);
    }

    /** {@code 1/2/3} or {@code 1/2/3@rev5.gen0}. */
    public String label() {
        String base = id(stream) + "/" + id(topic) + "/" + id(partition);
        return fromMetadata() ? base + "@rev" + U64.str(createdRevision) + ".gen" + U64.str(purgeGeneration) : base;
    }

    private static String id(long v) {
        return v == -1 ? "?" : U64.str(v);
    }

    @Override
    public int compareTo(PartitionKey o) {
        return ORDER.compare(this, o);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionKey k && k.stream == stream && k.topic == topic && k.partition == partition
                && Objects.equals(k.createdRevision, createdRevision)
                && Objects.equals(k.purgeGeneration, purgeGeneration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(stream, topic, partition, createdRevision, purgeGeneration);
    }
}
