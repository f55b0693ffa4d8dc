package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.recovery.RecoveryEngine;

/**
 * What a repair, rebuild-index, plan apply or restore stopped by an interrupt (Ctrl-C, SIGTERM) left in a partition,
 * read from disk, not assumed: the apply's on-disk protocol (quarantine, commit point, journal) makes every stop a
 * state the next run finishes, and this says which one, for the interrupt line.
 */
public final class Interrupted {
    private Interrupted() {
    }

    /**
     * The cancellation of a write in {@code dir}: {@code applied} are the quarantines this run completed (their
     * repairs are done). Reads the quarantines with the interrupt cleared (an interrupted read would fail), then sets
     * it again.
     */
    public static RecoveryEngine.Cancelled of(Path dir, List<Path> applied, Throwable cause) {
        return of(dir, applied, null, cause);
    }

    /** As above, with {@code also} (null for none) said after the partition's state. */
    public static RecoveryEngine.Cancelled of(Path dir, List<Path> applied, String also, Throwable cause) {
        boolean was = Thread.interrupted();
        try {
            return new RecoveryEngine.Cancelled(state(dir, applied) + (also == null ? "" : "; " + also), cause);
        } finally {
            if (was) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The cancellation of a restore of {@code quarantine}: {@code changed} when it had begun putting bytes back (a
     * restore run again finishes what an interrupted one began; the quarantine keeps every byte until then).
     */
    public static RecoveryEngine.Cancelled restore(Path quarantine, boolean changed, Throwable cause) {
        return new RecoveryEngine.Cancelled(quarantine + ": " + (changed ? "the restore stopped part way; the "
                + "quarantine still holds every byte: run `segtool restore --apply` on it again to finish"
                : "nothing changed"), cause);
    }

    static String state(Path dir, List<Path> applied) {
        List<String> unfinished = new ArrayList<>();
        List<String> unprepared = new ArrayList<>();
        try {
            for (Path q : Quarantine.of(dir)) {
                if (Files.isSymbolicLink(q)) {
                    continue;
                }
                if (!Quarantine.hasManifest(q)) {
                    unprepared.add(q.getFileName().toString());
                } else if (Quarantine.open(q).unfinished()) {
                    unfinished.add(q.toString());
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return dir + ": the quarantines could not be read to say how far it got ("
                    + (unreadable.getMessage() == null ? unreadable : unreadable.getMessage())
                    + "); run `segtool repair` to see";
        }
        String state;
        if (!unfinished.isEmpty()) {
            state = String.join(", ", unfinished) + " holds every byte removed so far: run `segtool repair --apply` "
                    + "again to finish the plan, or `segtool restore --apply` on it to undo it";
        } else if (!applied.isEmpty()) {
            state = "repaired, the removed bytes in " + String.join(", ", applied.stream().map(p -> p.getFileName()
                    .toString()).toList()) + "; not judged again after it: run `segtool scan`";
        } else {
            state = "nothing changed";
        }
        if (!unprepared.isEmpty()) {
            state += " (" + String.join(", ", unprepared) + ": a preparation that changed nothing; the next --apply "
                    + "removes it)";
        }
        return dir + ": " + state;
    }
}
