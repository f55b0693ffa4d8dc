package segtool.analyzers.recovery;

import java.util.Objects;

/**
 * A WAL checkpoint (RECOVERY.md 9): segment start {@code C}, checkpointed length {@code Lc}, next offset {@code N},
 * and {@code opened}, the partition directory as the WAL's own open leaves it before segment recovery reads it
 * (METADATA 6.7; RECOVERY 9 step 0, "the WAL open has already applied METADATA 6.7 to the directory"). The open runs
 * exactly when the WAL hands a checkpoint over (its frontier carries segment state), so the two travel together and
 * every judgement that is given the checkpoint judges the directory the open leaves. A checkpoint given on the
 * command line, or one whose open changes nothing, has {@link DirectoryView#AS_IS}.
 */
public record Checkpoint(long startOffset, long length, long nextOffset, DirectoryView opened) {
    public Checkpoint {
        Objects.requireNonNull(opened, "opened");
    }

    public Checkpoint(long startOffset, long length, long nextOffset) {
        this(startOffset, length, nextOffset, DirectoryView.AS_IS);
    }

    /** {@code START:LENGTH:NEXT}, unsigned, as {@code --wal-checkpoint} takes it. */
    public String spelled() {
        return Long.toUnsignedString(startOffset) + ":" + Long.toUnsignedString(length) + ":"
                + Long.toUnsignedString(nextOffset);
    }

    /** True when {@code other} names the same {@code (C, Lc, N)}, whatever the open does to the directory. */
    public boolean samePosition(Checkpoint other) {
        return other != null && startOffset == other.startOffset && length == other.length
                && nextOffset == other.nextOffset;
    }
}
