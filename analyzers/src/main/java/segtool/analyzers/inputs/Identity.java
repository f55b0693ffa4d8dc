package segtool.analyzers.inputs;

/**
 * The incarnation part of a partition's identity across replicas, {@code (created_revision, purge_generation)}
 * (METADATA 2.6): from the node's metadata where it was read and names the partition, else from the partition
 * directory's own {@code created.revision} and {@code purge.gen} (FORMAT 7). A value that cannot be known is null,
 * and {@code from} says where they came from ({@code metadata}, {@code created.revision + purge.gen},
 * {@code metadata (purge_generation unknown)}, ...).
 */
public record Identity(Long createdRevision, Long purgeGeneration, String from) {
    public static final Identity UNKNOWN = new Identity(null, null, "not known");

    public boolean complete() {
        return createdRevision != null && purgeGeneration != null;
    }
}
