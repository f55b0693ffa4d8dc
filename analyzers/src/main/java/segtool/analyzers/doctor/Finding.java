package segtool.analyzers.doctor;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One thing in a data directory that needs an operator's attention, with what segtool knows about it and the exact
 * next command(s), in the order to run them. {@code details} holds plain values (String, Long, Boolean, lists and
 * maps of them) under snake_case keys; docs/doctor-json.md lists them per kind.
 */
public record Finding(Kind kind, Path partition, Path path, Map<String, Object> details, List<String> next,
                      int exitCode) {
    /** What was found; {@link #exitCode()} gives the exit code each kind contributes. */
    public enum Kind {
        /** Boot recovery refuses the partition (RECOVERY 7.1). */
        REFUSED_PARTITION(2),
        /** An I/O error prevented a verdict. */
        UNREADABLE_PARTITION(3),
        /**
         * No verdict, from the partition's inputs (METADATA): the server refuses the node or the partition before
         * segment recovery (exit 2), the command line contradicts the metadata (64), or segtool cannot decide them
         * (3); the finding's own {@link Finding#exitCode()} says which.
         */
        NO_VERDICT(3),
        /** Boot recovery would change files (truncate, rebuild an index, fence), or the WAL's open first. */
        RECOVERY_WOULD_CHANGE(1),
        /** Bytes boot does not read (durable mode) hold records that fail verification (RECOVERY 11.1). */
        LATENT_DAMAGE(5),
        /** A {@code <partition>.fenced.<n>} directory. */
        FENCE(1),
        /**
         * A segtool quarantine whose repair is unfinished (exit 1), or finished and not restored (exit 0: reported as
         * the handle for undo, nothing pending).
         */
        QUARANTINE(1),
        /** A quarantine segtool cannot read or trust. */
        DAMAGED_QUARANTINE(3),
        /** A scratch ({@code .staging}) or orphan ({@code .index}/{@code .anchor} without a log) file. */
        SCRATCH_FILE(1),
        /**
         * The sweep's naming warning: a {@code .log} whose stem is not 20 digits (the server reads the canonical name
         * instead, RECOVERY 11.2), a {@code .log} whose name is not a start offset (ignored), two names for one start.
         */
        NON_CANONICAL_NAME(1),
        /**
         * A {@code .log} or {@code .index} that is a symlink to nothing: the server reads it as empty (a segment that
         * recovers empty, an index it rebuilds), which is seldom what the operator meant.
         */
        DANGLING_SYMLINK(1);

        private final int exit;

        Kind(int exit) {
            this.exit = exit;
        }

        public int exitCode() {
            return exit;
        }

        public String json() {
            return name().toLowerCase();
        }
    }

    public Finding {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
        next = List.copyOf(next);
    }

    /** A finding contributing its kind's exit code. */
    public Finding(Kind kind, Path partition, Path path, Map<String, Object> details, List<String> next) {
        this(kind, partition, path, details, next, kind.exitCode());
    }
}
