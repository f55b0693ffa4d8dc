package segtool.shell.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.io.U64;

/** Short plain-language summaries of verdicts, shared by the table and the explanations. */
public final class Verdicts {
    private Verdicts() {
    }

    /** {@code refused: InteriorDamage {...}} or {@code accepted: 1 truncated, 2 clean}. */
    public static String summary(PartitionReport r) {
        switch (r.outcome()) {
            case IO_ERROR:
                return "cannot judge: " + r.ioError();
            case REFUSED:
                return "refused: " + r.refusal();
            default:
                Map<String, Integer> counts = new TreeMap<>();
                for (SegmentReport s : r.segments()) {
                    counts.merge(s.status().json(), 1, Integer::sum);
                }
                if (counts.isEmpty()) {
                    return "accepted: no segments";
                }
                List<String> parts = new ArrayList<>();
                counts.forEach((k, v) -> parts.add(v + " " + k));
                String swept = r.swept().isEmpty() ? "" : ", " + r.swept().size() + " file(s) swept";
                return "accepted: " + String.join(", ", parts) + swept;
        }
    }

    /** {@code 23 partitions: 7 refused, 9 would change files, 7 clean, 0 I/O errors}. */
    public static String tally(List<PartitionReport> reports) {
        int[] bySeverity = new int[4];
        for (PartitionReport r : reports) {
            bySeverity[ExitCode.of(r)]++;
        }
        return reports.size() + " partitions: " + bySeverity[2] + " refused, " + bySeverity[1]
                + " would change files, " + bySeverity[0] + " clean, " + bySeverity[3] + " I/O errors";
    }

    public static String mode(boolean durable) {
        return "durability=" + (durable ? "persisted" : "replicated");
    }

    /** A partition's name for tables: {@code stream 1 / topic 2 / partition 3}, or its directory. */
    public static String name(PartitionReport r) {
        var p = r.partition();
        if (p.isCanonical()) {
            return "s" + p.streamId() + "/t" + p.topicId() + "/p" + p.partitionId();
        }
        return p.directory().toString();
    }

    /** The partition directory relative to {@code base} (the PATH given), or {@link #name} when it is the base. */
    public static String name(PartitionReport r, java.nio.file.Path base) {
        java.nio.file.Path dir = r.partition().directory().toAbsolutePath().normalize();
        java.nio.file.Path b = base.toAbsolutePath().normalize();
        if (dir.startsWith(b) && !dir.equals(b)) {
            return b.relativize(dir).toString();
        }
        return name(r);
    }

    public static String u64(long v) {
        return U64.str(v);
    }
}
