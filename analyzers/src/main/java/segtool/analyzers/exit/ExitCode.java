package segtool.analyzers.exit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.repair.Repairer;

/**
 * Every exit code segtool returns, and the only place one is derived from a result. Commands hand their typed
 * outcomes here (a partition's verdict, a repair's or restore's outcome, whether reading met damage) and
 * {@link #combine} folds the results of one run into one code by a single precedence, {@link #PRECEDENCE}.
 *
 * <p>Precedence, most urgent first: 130 cancelled, 143 terminated, 64 usage, 4 data in use, 3 I/O error, 23
 * collected but incomplete, 2 refused, 5 latent damage
 * (the server boots, readers will fail), 1 changes or damage, 0 clean. A run that met a refused partition and an unreadable one exits 3: the unreadable partition has no
 * verdict at all (it may be refused too), so the operator must see it first; one in use (4) outranks both, since
 * nothing was changed anywhere and running again later is the whole remedy.
 */
public final class ExitCode {
    /** Clean: recovery would accept everything as it is (read commands: everything read is intact). */
    public static final int CLEAN = 0;
    /** Recovery would change files (read commands: reading met damage); a repair still has changes pending. */
    public static final int CHANGES = 1;
    /** Recovery refuses at least one partition (restore: a file changed since the repair). */
    public static final int REFUSED = 2;
    /**
     * The server boots, but bytes it does not read at boot hold records that fail verification (durable mode,
     * RECOVERY 11.1): readers will fail there. Only verdict commands that check for it (scan, explain) return it.
     */
    public static final int LATENT = 5;
    /** An I/O error prevented a verdict. */
    public static final int IO_ERROR = 3;
    /** Another process has the data open (repair, rebuild-index, restore); nothing was changed. */
    public static final int IN_USE = 4;
    /**
     * collect: the manifest was written whole, but files could not be read; the partitions holding them are recorded
     * in it as {@code io_error}. rsync's 23, "partial transfer due to error", is the same answer.
     */
    public static final int INCOMPLETE = 23;
    /** The command line was wrong, or PATH names nothing segtool can open. */
    public static final int USAGE = 64;
    /** The command was interrupted (Ctrl-C, SIGINT); 128 + SIGINT, as shells report it. */
    public static final int CANCELLED = 130;
    /**
     * The command was stopped by SIGTERM (kill, a service manager); 128 + SIGTERM, as shells report it. It stops as
     * for {@link #CANCELLED}; the code only says which signal asked.
     */
    public static final int TERMINATED = 143;

    /** Most urgent first: when one run has several results, the earliest of these present is the exit code. */
    public static final List<Integer> PRECEDENCE = List.of(CANCELLED, TERMINATED, USAGE, IN_USE, IO_ERROR,
            INCOMPLETE, REFUSED, LATENT, CHANGES, CLEAN);

    /** The precedence as one sentence, for --help, the man page and the README. */
    public static final String PRECEDENCE_TEXT = "When one run has mixed results (several partitions, say one "
            + "refused and one unreadable), the most urgent code wins: 130, 143, then 64, 4, 3, 23, 2, 5, 1, 0.";

    private ExitCode() {
    }

    /** Every code with its general meaning, in numeric order, for documentation. */
    public static Map<Integer, String> meanings() {
        Map<Integer, String> m = new LinkedHashMap<>();
        m.put(CLEAN, "clean: recovery would accept everything as it is; for read commands, everything read is "
                + "intact; for repair, nothing to change or --apply succeeded");
        m.put(CHANGES, "boot would change files (recovery: truncate, rebuild an index, fence, delete scratch files; or "
                + "the prepare WAL open before it: cut, replace or delete a segment file); for "
                + "read commands, reading met damage; for repair and restore, files would change (dry run)");
        m.put(REFUSED, "recovery would refuse at least one partition (rebuild-index: cannot rebuild; restore: a "
                + "file changed since the repair); nothing changed");
        m.put(IO_ERROR, "an I/O error prevented reading or judging");
        m.put(IN_USE, "repair, rebuild-index, restore: another process has files of the data open, or another "
                + "segtool run holds a lock on the partition; nothing changed");
        m.put(LATENT, "scan, explain: the server would boot, but records it does not read at boot (durable mode, "
                + "below the last index entry of a segment) fail verification: readers will fail there (latent damage; "
                + "--no-latent skips the check)");
        m.put(INCOMPLETE, "collect: the manifest was written, but files could not be read (one line each on "
                + "stderr); their partitions are recorded in it as io_error: collected, but incomplete");
        m.put(USAGE, "usage error: bad arguments (an offset, position or timestamp past the end of the data is one), "
                + "or PATH names nothing segtool can open");
        m.put(CANCELLED, "cancelled (Ctrl-C, SIGINT): the command stopped, removed its own temporary files, and "
                + "said on stderr, in one line, what it left");
        m.put(TERMINATED, "terminated (SIGTERM): stopped as for 130");
        return m;
    }

    /** The more urgent of two codes by {@link #PRECEDENCE}; a number that is not a segtool exit code is a bug. */
    public static int combine(int a, int b) {
        return rank(a) <= rank(b) ? a : b;
    }

    /** {@link #combine} over several codes; {@link #CLEAN} for none. */
    public static int combine(Iterable<Integer> codes) {
        int worst = CLEAN;
        for (int c : codes) {
            worst = combine(worst, c);
        }
        return worst;
    }

    private static int rank(int code) {
        int i = PRECEDENCE.indexOf(code);
        if (i < 0) {
            throw new IllegalArgumentException("not a segtool exit code: " + code);
        }
        return i;
    }

    /**
     * One partition's verdict: 3 I/O error, 2 refused, 1 accepted and boot would change files (the WAL's open,
     * METADATA 6.7, or segment recovery), 0 accepted and no byte changes (the plan may still list the server's
     * re-install of an identical index, RECOVERY 7.2).
     */
    public static int of(PartitionReport r) {
        switch (r.outcome()) {
            case IO_ERROR:
                return IO_ERROR;
            case REFUSED:
                return REFUSED;
            default:
                return r.bootChangesFiles() ? CHANGES : CLEAN;
        }
    }

    /**
     * True when the WAL's open changes a name of one of {@code segments} (its stem is that segment's start; null: of
     * any segment).
     */
    public static boolean walOpenChanges(PartitionReport r, LongPredicate segments) {
        if (!r.walOpenChangesFiles() || segments == null) {
            return r.walOpenChangesFiles();
        }
        for (String n : r.walOpen().changedNames()) {
            Long start = segtool.formats.naming.SegmentFiles.startOffsetOf(segtool.formats.naming.SegmentFiles
                    .stemOf(n));
            if (start != null && segments.test(start)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A verdict with its latent-damage check ({@code latent}, null when not checked): the verdict's code, or
     * {@link #LATENT} when the check found damage and that is more urgent (it never hides a refusal or an I/O
     * error).
     */
    public static int of(PartitionReport r, LongPredicate segments, segtool.analyzers.recovery.LatentDamage.Report
            latent) {
        int code = of(r, segments);
        if (latent != null && r.outcome() != PartitionReport.Outcome.IO_ERROR) {
            for (var s : latent.segments()) {
                if (s.damaged() && (segments == null || segments.test(s.start()))) {
                    code = combine(code, LATENT);
                }
            }
        }
        return code;
    }

    /**
     * A verdict narrowed to some segments (a SEGMENT argument, rebuild-index's segments): a refusal or I/O error of
     * the partition still counts whole; when accepted, only the planned operations of the chosen segments do.
     * {@code segments == null} means the whole partition.
     */
    public static int of(PartitionReport r, LongPredicate segments) {
        if (segments == null || r.outcome() != PartitionReport.Outcome.ACCEPTED) {
            return of(r);
        }
        if (walOpenChanges(r, segments)) {
            return CHANGES;
        }
        for (SegmentReport s : r.segments()) {
            if (segments.test(s.start()) && s.changesFiles()) {
                return CHANGES;
            }
        }
        return CLEAN;
    }

    /** Several partitions' verdicts, each narrowed to {@code segments} (null: whole partitions), combined. */
    public static int ofReports(List<PartitionReport> reports, LongPredicate segments) {
        int worst = CLEAN;
        for (PartitionReport r : reports) {
            worst = combine(worst, of(r, segments));
        }
        return worst;
    }

    /**
     * A partition that gets no verdict because of its inputs: 2 when the server itself refuses it (or the node), 64
     * when the command line contradicts the metadata, 3 when segtool cannot decide its inputs.
     */
    public static int of(segtool.analyzers.inputs.PartitionInputs.Refusal r) {
        switch (r) {
            case CONTRADICTS_METADATA:
                return USAGE;
            case UNDECIDED:
                return IO_ERROR;
            default:
                return REFUSED;
        }
    }

    /**
     * One repair or rebuild-index outcome: 0 clean or repaired (the next boot finds nothing to do; for
     * rebuild-index, nothing for the rebuilt segments), 1 changes pending, 2 refused or not rebuildable, 3 I/O
     * error, 4 in use.
     */
    public static int of(Repairer.Outcome o) {
        switch (o.status()) {
            case CLEAN:
                // nothing for segtool to do; the WAL's open may still change files at boot (1, as scan says)
                return o.pending().isEmpty() && (o.before() == null || !walOpenChanges(o.before(),
                        o.segments() == null ? null : o.segments()::contains)) ? CLEAN : CHANGES;
            case PLANNED:
            case DECLINED:
                return CHANGES;
            case REFUSED:
            case NOT_REBUILDABLE:
                return REFUSED;
            case IO_ERROR:
                return IO_ERROR;
            case IN_USE:
                return IN_USE;
            case APPLIED:
                if (o.after() == null) {
                    return CLEAN;
                }
                return of(o.after(), o.segments() == null ? null : o.segments()::contains);
            default:
                throw new IllegalStateException(o.status().name());
        }
    }

    /** One restore: 0 restored (or nothing to do), 1 dry run with work to do, 2 conflicts, 3 I/O, 4 in use. */
    public static int of(Repairer.RestoreOutcome o) {
        if (o.error() != null) {
            return IO_ERROR;
        }
        if (o.result() == null) {
            return IN_USE;
        }
        if (!o.result().conflicts().isEmpty()) {
            return REFUSED;
        }
        return o.result().applied() || o.result().actions().isEmpty() ? CLEAN : CHANGES;
    }

    /** A read command (segments, index, batches, messages, find, hexdump, stats): 1 when reading met damage. */
    public static int reading(boolean damaged) {
        return damaged ? CHANGES : CLEAN;
    }
}
