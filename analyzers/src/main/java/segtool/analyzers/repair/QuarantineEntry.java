package segtool.analyzers.repair;

/**
 * One range of original bytes copied aside before an operation removed it from {@code file}: bytes
 * {@code [offset, offset + length)} of a file that was {@code originalLength} bytes long, hashing to {@code xxh3}
 * (XXH3-64, seed 0, {@code 0x}-prefixed hex), stored in the quarantine directory as {@code copy}. {@code op} is the
 * {@link RepairOp#seq()} of the operation that removes them.
 */
public record QuarantineEntry(int id, int op, String file, long offset, long length, long originalLength,
                              String xxh3, String copy, String reason, String time, String segtoolVersion) {
    public long end() {
        return offset + length;
    }
}
