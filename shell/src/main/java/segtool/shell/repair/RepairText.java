package segtool.shell.repair;

import java.io.PrintWriter;
import java.util.List;
import segtool.analyzers.recovery.PlannedOp;
import segtool.analyzers.repair.Refusals;
import segtool.analyzers.repair.RepairPlan;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.formats.index.IndexEntry;
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
                out.println("  quarantine: " + o.quarantine() + "; undo with: segtool restore " + o.quarantine()
                        + " --apply");
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
        switch (o.status()) {
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
                            + o.quarantine() + " --apply");
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

    static String headline(Repairer.Outcome o) {
        switch (o.status()) {
            case CLEAN:
                return o.pending().isEmpty() ? "clean, nothing to change"
                        : "an interrupted repair is unfinished; --apply finishes it";
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
        String file = op.path().getFileName().toString();
        if (op instanceof PlannedOp.Delete) {
            return String.format("%-14s %s: %s", "delete", file, ((PlannedOp.Delete) op).reason());
        }
        if (op instanceof PlannedOp.StageIndex) {
            return String.format("%-14s %s (%d entries)", "stage_index", file,
                    ((PlannedOp.StageIndex) op).entries().size());
        }
        if (op instanceof PlannedOp.Fence) {
            PlannedOp.Fence f = (PlannedOp.Fence) op;
            return String.format("%-14s %s and its index (%d + %d bytes) into %s/, empty files in their place",
                    "fence", file, f.logBytes(), f.indexBytes(), f.fenceDirectory().getFileName());
        }
        if (op instanceof PlannedOp.TruncateLog) {
            PlannedOp.TruncateLog t = (PlannedOp.TruncateLog) op;
            return String.format("%-14s %s %d -> %d bytes", "truncate_log", file, t.from(), t.to());
        }
        if (op instanceof PlannedOp.InstallIndex) {
            PlannedOp.InstallIndex i = (PlannedOp.InstallIndex) op;
            return String.format("%-14s %s over %s (%d -> %d bytes, %d entries)", "install_index",
                    i.staging().getFileName(), file, i.from(), (long) i.entries().size() * IndexEntry.LENGTH,
                    i.entries().size());
        }
        PlannedOp.TruncateIndex t = (PlannedOp.TruncateIndex) op;
        return String.format("%-14s %s %d -> %d bytes", "truncate_index", file, t.from(), t.to());
    }

    static String bytes(long n) {
        return String.format("%,d bytes", n);
    }

    static void restore(PrintWriter out, List<String> actions) {
        for (String a : actions) {
            out.println("    " + a);
        }
    }
}
