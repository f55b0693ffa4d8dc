package segtool.analyzers.recovery;

/**
 * The index consistency scan of RECOVERY.md 4.2. {@code firstBadEntry} is the entry that broke the structure (or
 * -1); {@code firstUnmatched} the first entry that did not describe the batch at its position (or -1), with why.
 */
public record IndexScan(boolean structural, boolean mappings, long firstBadEntry, String structuralReason,
                        long firstUnmatched, String mappingReason) {
}
