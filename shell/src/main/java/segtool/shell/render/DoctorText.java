package segtool.shell.render;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import segtool.analyzers.doctor.Doctor;
import segtool.analyzers.doctor.Finding;
import segtool.analyzers.report.ShellWords;

/** The text form of a doctor report: per partition, each finding in a sentence, its facts, and the next commands. */
public final class DoctorText {
    private DoctorText() {
    }

    public static void report(PrintWriter w, Doctor.Report r, boolean quiet, Style style) {
        Path last = null;
        for (Finding f : r.findings()) {
            if (!f.partition().equals(last)) {
                w.println(style.bold(f.partition().toString()));
                last = f.partition();
            }
            w.println("  " + headline(f, style));
            if (!quiet) {
                java.util.Set<String> said = inHeadline(f.kind());
                for (Map.Entry<String, Object> e : f.details().entrySet()) {
                    if (e.getValue() != null && !said.contains(e.getKey())) {
                        w.println("      " + e.getKey() + ": " + show(e.getValue()));
                    }
                }
                for (String n : f.next()) {
                    w.println("    next: " + n);
                }
            }
        }
        long kinds = r.findings().size();
        long notes = r.findings().stream().filter(f -> f.exitCode() == 0).count();
        w.println(r.partitions() + " partition(s) examined: " + (kinds == notes ? "nothing needs attention"
                + (notes == 0 ? "" : " (" + notes + " note(s): finished repairs, their quarantines kept for undo)")
                : kinds + " finding(s)"));
    }

    /** The details a kind's headline already says (not printed again below it). */
    private static java.util.Set<String> inHeadline(Finding.Kind kind) {
        return switch (kind) {
            case NO_VERDICT, SCRATCH_FILE -> java.util.Set.of("reason");
            case NON_CANONICAL_NAME, DANGLING_SYMLINK -> java.util.Set.of("warning");
            case QUARANTINE -> java.util.Set.of("state", "meaning");
            case UNREADABLE_PARTITION, DAMAGED_QUARANTINE -> java.util.Set.of("error");
            case RECOVERY_WOULD_CHANGE -> java.util.Set.of("operations");
            default -> java.util.Set.of();
        };
    }

    private static String headline(Finding f, Style style) {
        Map<String, Object> d = f.details();
        String name = ShellWords.shown(f.path().getFileName().toString());
        return switch (f.kind()) {
            case REFUSED_PARTITION -> style.paint(Style.Paint.RED, "REFUSED: " + d.get("variant") + " "
                    + d.get("fields")) + (d.containsKey("lost_offsets") ? "; lost offsets "
                    + show(d.get("lost_offsets")) + ", salvageable " + show(d.get("salvageable_offsets")) : "");
            case UNREADABLE_PARTITION -> style.paint(Style.Paint.RED, "cannot be judged: " + d.get("error"));
            case NO_VERDICT -> style.paint(Style.Paint.RED, "no verdict: " + d.get("reason"));
            case RECOVERY_WOULD_CHANGE -> "the next boot would change files: " + (d.containsKey("wal_open")
                    ? "the WAL's open first, then " : "") + show(d.get("operations"));
            case LATENT_DAMAGE -> style.paint(Style.Paint.RED, "latent damage: " + ((List<?>) d.get("stretches")).size()
                    + " stretch(es) boot does not read fail verification; readers will fail there");
            case FENCE -> "fence " + name + " (fenced " + d.get("fenced_at") + "): " + d.get("records_that_verify")
                    + " record(s) that verify, offsets " + show(d.get("offsets"));
            case QUARANTINE -> "quarantine " + name + ": " + d.get("state") + (d.containsKey("meaning")
                    ? " (" + d.get("meaning") + ")" : "");
            case DAMAGED_QUARANTINE -> style.paint(Style.Paint.RED, "quarantine " + name + " cannot be used: "
                    + d.get("error"));
            case SCRATCH_FILE -> "scratch file " + name + ": " + d.get("reason");
            case NON_CANONICAL_NAME -> "segment naming: " + d.get("warning");
            case DANGLING_SYMLINK -> "dangling symlink: " + d.get("warning");
        };
    }

    private static String show(Object v) {
        if (v instanceof List<?> l) {
            return l.isEmpty() ? "none" : String.join(", ", l.stream().map(DoctorText::show).toList());
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder();
            m.forEach((k, x) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(' ').append(show(x)));
            return sb.toString();
        }
        if (v instanceof Long l && l < 0) {
            return Long.toUnsignedString(l);
        }
        return ShellWords.shown(String.valueOf(v));
    }
}
