package segtool.analyzers.recovery;

/** A WAL checkpoint (RECOVERY.md 9): segment start {@code C}, checkpointed length {@code Lc}, next offset {@code N}. */
public record Checkpoint(long startOffset, long length, long nextOffset) {
}
