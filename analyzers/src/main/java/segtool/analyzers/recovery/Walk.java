package segtool.analyzers.recovery;

/**
 * What a walk proved (RECOVERY.md 4.5, 4.6): from where it started, whether it accepted a non-empty record, the
 * bounds, and where and why it stopped. {@code startTimestamp} is meaningful only when {@code provedMessages}.
 */
public record Walk(String name, long from, boolean provedMessages, long startTimestamp, long endOffset,
                   long endTimestamp, long position, long records, long emptyRecords, Stop stop) {
}
