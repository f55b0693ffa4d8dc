package segtool.analyzers.recovery;

/**
 * The durable-mode anchor search of RECOVERY.md 4.8: how many index entries the log backs. {@code charged} is
 * false when it was run for evidence only (lenient mode), with no effect on the budget or the verdict.
 */
public record AnchorSearch(long provableEntries, long provablePosition, long searchedEntries, boolean charged,
                           boolean exhausted) {
}
