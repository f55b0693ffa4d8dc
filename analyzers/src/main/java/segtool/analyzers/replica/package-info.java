/**
 * Replicas of one partition on several nodes: what each holds ({@link PartitionManifest}, collected by
 * {@link Collector} from a directory and the engine's verdict, or read back from a {@code segtool.manifest/1} file by
 * {@link ManifestJson}), and how they compare ({@link ReplicaComparison}): the verified chain of each, the first
 * divergence at batch granularity, prefixes, the donor, and the byte ranges each damaged replica would take from it
 * ({@code segtool.compare/2}, {@code segtool.plan/2}). {@code compare} on directories is a collect in memory followed
 * by the same comparison {@code plan} runs over manifests. {@code apply} carries a plan out on one node.
 */
package segtool.analyzers.replica;
