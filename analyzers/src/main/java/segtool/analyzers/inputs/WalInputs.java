package segtool.analyzers.inputs;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.Checkpoint;

/**
 * What the partition prepare WAL hands segment recovery (METADATA 6): the checkpoint {@code (C, Lc, N)} when the
 * winning frontier slot carries segment state (else null), where it came from, and what the WAL's own open does to
 * the partition directory first (6.7), in order. The checkpoint's {@link Checkpoint#opened() view} is the directory
 * those steps leave, which is the one segment recovery is judged on.
 */
public record WalInputs(Checkpoint checkpoint, String source, List<WalOpenStep> openSteps, List<String> notes) {
    public WalInputs {
        openSteps = List.copyOf(openSteps);
        notes = List.copyOf(notes);
    }

    /** The open's steps as text, in order. */
    public List<String> openActions() {
        List<String> out = new ArrayList<>();
        for (WalOpenStep s : openSteps) {
            out.add(s.text());
        }
        return out;
    }

    /**
     * True when the open changes what segment recovery lists or reads (a name removed, re-linked or cut), so the
     * verdict is on the changed directory and boot changes files (exit 1). A step that changes only
     * {@code prepares-<rev>/} (the retained link made from the public name), or removes a leftover
     * {@code <S>.log.tmp} (the sweep ignores {@code .tmp}, so recovery reads the same names), does not count.
     */
    public boolean openChangesDirectory() {
        return checkpoint != null && !checkpoint.opened().asIs();
    }

    /** {@code checkpoint=(0, 1145, 5) (from prepares-1/frontier slot 0, sequence 2)} or {@code checkpoint=none (...)}. */
    public String text() {
        return "checkpoint=" + (checkpoint == null ? "none" : "(" + Long.toUnsignedString(checkpoint.startOffset())
                + ", " + Long.toUnsignedString(checkpoint.length()) + ", "
                + Long.toUnsignedString(checkpoint.nextOffset()) + ")") + (checkpoint == null ? " (" : " (from ")
                + source + ")";
    }
}
