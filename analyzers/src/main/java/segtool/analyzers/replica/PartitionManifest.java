package segtool.analyzers.replica;

import java.util.List;

/**
 * What one replica holds of one partition, and what the engine decided about it: the unit {@code collect} writes, a
 * {@code segtool.manifest/1} line carries, and {@link ReplicaComparison} compares. Never payloads.
 *
 * @param node       the replica's name (a host, or the PATH it was read from)
 * @param path       the partition directory on that node
 * @param durable    the durable-mode flag {@code D} the verdict was reached under ({@code durability = persisted})
 * @param durabilitySource where {@code durable} came from ({@code snapshot}, {@code journal}, {@code no durability
 *                   key}, {@code command line}, as scan's {@code durability_source}); null when not judged
 * @param checkpoint the WAL checkpoint the verdict assumed (the frontier's, or --wal-checkpoint), or null
 */
public record PartitionManifest(String node, PartitionKey key, String path, boolean durable, String durabilitySource,
                                Verdict verdict, List<Segment> segments, Checkpoint checkpoint,
                                List<Anchor> anchors, List<String> warnings) {
    /** The outcome of a partition whose inputs give no verdict (the reason is the verdict's {@code ioError}). */
    public static final String NOT_JUDGED = "not_judged";

    /**
     * The engine's verdict, reduced to what replicas are compared by: outcome, its exit-code class, the refusal or
     * I/O error, and the verified chain.
     */
    public record Verdict(String outcome, int exitCode, String refusal, String refusalVariant, Long refusalSegment,
                          String ioError, Chain chain) {
        /** False when there is no verdict to compare: an I/O error, or inputs that refuse one. */
        public boolean judged() {
            return ioError == null;
        }
    }

    /**
     * The verified chain: the prefix of the partition boot recovery proves, segment by segment, from the first
     * segment up to the first segment it refuses or cannot bound (see {@link EngineView}). {@code lastOffset} is
     * meaningless when {@code offsets == 0}.
     */
    public record Chain(long firstOffset, long lastOffset, long bytes, long offsets, List<ChainPart> parts) {
        public static final Chain EMPTY = new Chain(0, 0, 0, 0, List.of());

        /** The verified bytes of segment {@code start}, or -1 when the chain does not reach it. */
        public long bytesOf(long start) {
            for (ChainPart p : parts) {
                if (p.start() == start) {
                    return p.bytes();
                }
            }
            return -1;
        }

        /** True when offset {@code o} is in the chain. */
        public boolean covers(long o) {
            for (ChainPart p : parts) {
                if (p.offsets() > 0 && Long.compareUnsigned(o, p.start()) >= 0
                        && Long.compareUnsigned(o, p.endOffset()) <= 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** One segment's share of the chain: its start, the last offset proven, and the proven log bytes. */
    public record ChainPart(long start, long endOffset, long bytes, long offsets) {
    }

    /**
     * One segment as found: the {@code .log} length and XXH3-64, the {@code .index} length (its content is not
     * compared: entries follow flush timing, which differs per node), and the header walk of the log: every record
     * framed from byte 0, and where and why the walk ended ({@code walkStop} null when it consumed the log).
     */
    public record Segment(long start, long logLength, long logXxh3, long indexLength, Batches batches, long walkEnd,
                          String walkStop) {
    }

    /** An {@code <S>.anchor} file: its name's start offset, length and XXH3-64. */
    public record Anchor(long start, long length, long xxh3) {
    }

    /** The WAL checkpoint (RECOVERY 9) the verdict was reached with. */
    public record Checkpoint(long startOffset, long length, long nextOffset) {
    }

    /** The segment starting at {@code start}, or null. */
    public Segment segment(long start) {
        for (Segment s : segments) {
            if (s.start() == start) {
                return s;
            }
        }
        return null;
    }

    /** The highest offset of a non-empty record that verifies anywhere in this replica's logs, or null. */
    public Long highestVerifiedOffset() {
        Long best = null;
        for (Segment s : segments) {
            Batches b = s.batches();
            for (int i = 0; i < b.size(); i++) {
                if (b.verified(i) && b.count(i) > 0) {
                    long end = b.baseOffset(i) + b.count(i) - 1;
                    if (best == null || Long.compareUnsigned(end, best) > 0) {
                        best = end;
                    }
                }
            }
        }
        return best;
    }
}
