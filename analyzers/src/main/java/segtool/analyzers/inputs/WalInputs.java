package segtool.analyzers.inputs;

import java.util.List;
import segtool.analyzers.recovery.Checkpoint;

/**
 * What the partition prepare WAL hands segment recovery (METADATA 6): the checkpoint {@code (C, Lc, N)} when the
 * winning frontier slot carries segment state (else null), where it came from, and what the WAL's own open does to
 * the partition directory first (6.7), in order.
 */
public record WalInputs(Checkpoint checkpoint, String source, List<String> openActions, List<String> notes) {
    public WalInputs {
        openActions = List.copyOf(openActions);
        notes = List.copyOf(notes);
    }

    /** {@code checkpoint=(0, 1145, 5) (from prepares-1/frontier slot 0, sequence 2)} or {@code checkpoint=none (...)}. */
    public String text() {
        return "checkpoint=" + (checkpoint == null ? "none" : "(" + Long.toUnsignedString(checkpoint.startOffset())
                + ", " + Long.toUnsignedString(checkpoint.length()) + ", "
                + Long.toUnsignedString(checkpoint.nextOffset()) + ")") + (checkpoint == null ? " (" : " (from ")
                + source + ")";
    }
}
