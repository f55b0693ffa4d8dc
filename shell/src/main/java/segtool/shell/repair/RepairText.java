package segtool.shell.repair;

import java.io.PrintWriter;
import java.util.List;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.repair.Refusals;
import segtool.analyzers.repair.RepairPlan;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.report.ShellWords;
import segtool.formats.index.IndexEntry;
import segtool.shell.render.Bytes;
import segtool.shell.render.Verdicts;

/** The plain-text report of repair and rebuild-index: one headline per partition, then the details. */
final class RepairText {
    private RepairText() {
    }

    static void outcome(PrintWriter out, Repairer.Outcome o, String name, boolean quiet) {
        out.println(name + ": " + headline(o));
        if (quiet) {
            // the quarantine is the only handle for undo: -q keeps it
            if (o.status() == Repairer.Status.APPLIED && o.quarantine() != null) {
                out.println("  quarantine: " + o.quarantine() + "; undo with: segtool restore "
                        + ShellWords.quote(o.quarantine()) + " --apply");
            }
            return;
        }
        for (var q : o.resumed()) {
            out.println("  finished an interrupted repair first: " + q);
        }
        for (var q : o.discarded()) {
            out.println("  removed " + q.getFileName() + " (an apply that stopped before changing anything)");
        }
        for (var q : o.pending()) {
            out.println("  an interrupted repair is unfinished: " + q.directory() + "; --apply finishes it first");
        }
        boolean lossShown = o.loss() != null && o.loss().survey() != null
                && (o.status() == Repairer.Status.PLANNED || o.status() == Repairer.Status.APPLIED);
        switch (lossShown ? Repairer.Status.DECLINED : o.status()) {
            case PLANNED:
                plan(out, o.plan());
                out.println("  --apply copies " + o.plan().leaving().size() + " byte range(s) (" + bytes(
                        o.plan().quarantineBytes()) + ") into " + o.partition().directory().getFileName()
                        + ".segtool-quarantine.<time>/ first");
                break;
            case APPLIED:
                if (o.plan() != null) {
                    plan(out, o.plan());
                }
                if (o.quarantine() != null) {
                    out.println("  quarantine: " + o.quarantine() + " (" + o.plan().leaving().size()
                            + " range(s), " + bytes(o.plan().quarantineBytes()) + "); undo with: segtool restore "
                            + ShellWords.quote(o.quarantine()) + " --apply");
                }
                if (o.after() != null) {
                    out.println("  now: " + Verdicts.summary(o.after()));
                }
                break;
            case REFUSED:
                out.println("  " + Refusals.explain(o.before().refusal()));
                out.println("  next steps:");
                for (String s : Refusals.nextSteps(o.before().refusal(), o.before())) {
                    out.println("    - " + s);
                }
                break;
            case IN_USE:
                for (String r : o.server().reasons()) {
                    out.println("    " + r);
                }
                out.println("  stop the server first; --force overrides this check (dangerous)");
                break;
            default:
                break;
        }
        for (String n : o.notes()) {
            if (!n.startsWith("--force") && !(o.status() == Repairer.Status.NOT_REBUILDABLE
                    && n.startsWith("cannot rebuild"))) {
                out.println("  note: " + n);
            }
        }
        ServerGuard.Report s = o.server();
        if (s != null && o.status() != Repairer.Status.IN_USE) {
            if (s.busy()) {
                out.println("  warning: the data is in use: " + String.join("; ", s.reasons()));
            }
            s.notes().forEach(n -> out.println("  note: " + n));
        }
    }

    /**
     * The accept-loss part of a partition's report: per cut, the refusal it answers, what leaves the live partition
     * (offsets and bytes) and where it is kept, the offsets no record holds, that clients were already promised
     * them, and the plan; the salvage archive; the restore commands, newest first.
     */
    static void loss(PrintWriter out, Repairer.Outcome o) {
        Repairer.Loss l = o.loss();
        if (l.unsafe() != null) {
            out.println("  accept-loss: no safe cut: " + l.unsafe());
        }
        if (l.survey() == null) {
            return;
        }
        out.println("  salvage archive: " + (l.archive() == null ? "not written yet (--apply --salvage-to DIR writes "
                + "it before any cut)" : l.archive() + (l.archiveReused() ? " (reused)" : ""))
                + ": " + (l.survey().archived().isEmpty() ? "no record verifies anywhere"
                : "offsets " + ranges(l.survey().archived().list()) + " in " + l.survey().batches() + " record(s) that verify"));
        int n = 0;
        for (Repairer.Cut c : l.cuts()) {
            n++;
            if (c.stake() == null) {
                out.println("  step " + n + ": the ordinary repair of the accepted partition"
                        + (c.quarantine() == null ? "" : ", quarantine " + c.quarantine()));
                plan(out, c.plan());
                continue;
            }
            var cut = c.stake().cut();
            out.println("  cut " + n + ", for " + c.refusal() + (c.quarantine() == null ? " (not applied)"
                    : ", quarantine " + c.quarantine()) + ":");
            out.println("    " + cutWords(cut));
            String leaving = cut.offsetsLeaving().isEmpty() ? "no offset held by a record that verifies"
                    : "offsets " + ranges(cut.offsetsLeaving());
            long logBytes = c.plan().leaving().stream().filter(x -> x.file().endsWith(".log"))
                    .mapToLong(RepairPlan.Leaving::length).sum();
            out.println("    leaving the live partition: " + leaving + ", " + bytes(logBytes)
                    + " of log; the salvage archive keeps the records, the quarantine every byte ("
                    + bytes(c.plan().quarantineBytes()) + " with the indexes)");
            List<String> missing = c.stake().missing().stream().map(m -> m.offsets().toString()).toList();
            if (!missing.isEmpty()) {
                out.println("    no record that verifies holds offsets " + String.join(", ", missing)
                        + ": they are lost for good unless a replica or a backup has them");
            }
            out.println("    clients were already promised these offsets: the server acknowledged them to producers "
                    + "and may have served them to consumers; after the cut the server may hand them out again to "
                    + "new messages, with other contents");
            plan(out, c.plan());
        }
        if (o.status() == Repairer.Status.PLANNED) {
            out.println("  after this cut segtool judges again: a further refusal gets its own cut, shown (and asked "
                    + "for, unless -y) before it is applied; then the ordinary repair");
        }
        List<java.nio.file.Path> undo = l.quarantinesNewestFirst();
        if (!undo.isEmpty()) {
            out.println("  undo, newest first:");
            for (java.nio.file.Path q : undo) {
                out.println("    $ segtool restore " + ShellWords.quote(q) + " --apply");
            }
        }
        if (o.after() != null) {
            out.println("  now: " + Verdicts.summary(o.after()));
        }
    }

    private static String ranges(List<segtool.analyzers.salvage.OffsetRanges.Range> r) {
        return String.join(", ", r.stream().map(Object::toString).toList());
    }

    private static String cutWords(segtool.analyzers.salvage.AtStake.Cut c) {
        String seg = "segment " + segtool.formats.io.U64.str(c.segment());
        return switch (c.plan()) {
            case CUT_LOG -> "truncate " + seg + "'s log at byte " + segtool.formats.io.U64.str(c.position())
                    + ", move every later segment aside";
            case MOVE_SEGMENTS_ASIDE -> "move the segments from " + seg + " on aside";
            case MOVE_EMPTY_ASIDE -> "move the empty " + seg + " aside";
            case REBUILD_INDEX -> "rebuild " + seg + "'s index from what its log proves";
            case NONE -> "no cut";
        };
    }

    static String headline(Repairer.Outcome o) {
        if (o.loss() != null && o.loss().survey() != null) {
            switch (o.status()) {
                case PLANNED:
                    return "refused (" + o.before().refusal().variant() + "); accept-loss would cut (dry run; "
                            + "--apply --salvage-to DIR to do it)";
                case APPLIED:
                    return "accepted the loss: " + o.loss().cuts().size() + " step(s) applied"
                            + (o.exitCode() == 0 ? "; the next boot finds nothing to do" : "");
                default:
                    break;
            }
        }
        switch (o.status()) {
            case CLEAN:
                if (!o.pending().isEmpty()) {
                    return "an interrupted repair is unfinished; --apply finishes it";
                }
                return o.before() != null && o.before().walOpenChangesFiles()
                        ? "nothing for segtool to change, but not clean: the server's WAL open changes these files at "
                        + "boot (METADATA 6.7: " + String.join(", ", o.before().walOpen().changedNames()) + "); "
                        + "segtool does not do the WAL's work" : "clean, nothing to change";
            case PLANNED:
                return "would change files (dry run; --apply to do it): " + o.plan().ops().size()
                        + " operation(s)";
            case APPLIED:
                return o.plan() == null ? "finished an interrupted repair" : "repaired: " + o.plan().ops().size()
                        + " operation(s) applied" + (o.exitCode() == 0 ? "; the next boot finds nothing to do" : "");
            case DECLINED:
                return "not changed (declined)";
            case REFUSED:
                return "refused, not changed: " + o.before().refusal();
            case NOT_REBUILDABLE:
                return "not changed: " + String.join("; ", o.notes().stream()
                        .filter(n -> n.startsWith("cannot rebuild")).toList());
            case IN_USE:
                return "not changed: the data is in use";
            case IO_ERROR:
                return "cannot repair: " + (o.error() != null ? o.error() : o.before().ioError());
            default:
                return o.status().json();
        }
    }

    static void plan(PrintWriter out, RepairPlan plan) {
        for (PlannedOp op : plan.engineOps()) {
            out.println("    " + op(op));
        }
    }

    static String op(PlannedOp op) {
        String file = ShellWords.shown(op.path().getFileName().toString());
        if (op instanceof PlannedOp.Delete) {
            return String.format("%-14s %s: %s", "delete", file, ((PlannedOp.Delete) op).reason());
        }
        if (op instanceof PlannedOp.StageIndex) {
            return String.format("%-14s %s (%d entries)", "stage_index", file,
                    ((PlannedOp.StageIndex) op).entries().size());
        }
        if (op instanceof PlannedOp.Fence) {
            PlannedOp.Fence f = (PlannedOp.Fence) op;
            return String.format("%-14s %s and its index (%s + %s) into %s/, empty files in their place",
                    "fence", file, Bytes.count(f.logBytes()), Bytes.count(f.indexBytes()),
                    f.fenceDirectory().getFileName());
        }
        if (op instanceof PlannedOp.TruncateLog) {
            PlannedOp.TruncateLog t = (PlannedOp.TruncateLog) op;
            return String.format("%-14s %s %d -> %s", "truncate_log", file, t.from(), Bytes.count(t.to()));
        }
        if (op instanceof PlannedOp.InstallIndex) {
            PlannedOp.InstallIndex i = (PlannedOp.InstallIndex) op;
            return String.format("%-14s %s over %s (%d -> %d bytes, %d entries)", "install_index",
                    i.staging().getFileName(), file, i.from(), (long) i.entries().size() * IndexEntry.LENGTH,
                    i.entries().size());
        }
        PlannedOp.TruncateIndex t = (PlannedOp.TruncateIndex) op;
        return String.format("%-14s %s %d -> %s", "truncate_index", file, t.from(), Bytes.count(t.to()));
    }

    static String bytes(long n) {
        return Bytes.count(n);
    }

    static void restore(PrintWriter out, List<String> actions) {
        for (String a : actions) {
            out.println("    " + a);
        }
    }
}
