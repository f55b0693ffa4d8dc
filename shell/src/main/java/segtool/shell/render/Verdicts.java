package segtool.shell.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;

/** Short plain-language summaries of verdicts, shared by the table and the explanations. */
public final class Verdicts {
    private Verdicts() {
    }

    /**
     * {@code refused: InteriorDamage {...}}, {@code accepted: 1 truncated, 2 clean} or {@code accepted: 1 clean, 1 file(s)
     * changed by the WAL open first} (METADATA 6.7).
     */
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
                    return "accepted: no segments (no segment files: nothing judged)";
                }
                List<String> parts = new ArrayList<>();
                counts.forEach((k, v) -> parts.add(v + " " + k));
                String swept = r.swept().isEmpty() ? "" : ", " + r.swept().size() + " file(s) swept";
                String wal = r.walOpenChangesFiles() ? ", " + r.walOpen().changedNames().size()
                        + " file(s) changed by the WAL open first" : "";
                return "accepted: " + String.join(", ", parts) + swept + wal;
        }
    }

    /**
     * {@code 23 partitions: 7 refused, 9 would change files, 7 clean, 0 without a verdict}: the last counts I/O errors
     * and partitions whose inputs give none (the server refuses the node, METADATA leaves it open, the command line
     * contradicts the metadata); each names its reason in the report.
     */
    public static String tally(List<PartitionReport> reports) {
        int[] bySeverity = new int[4];
        for (PartitionReport r : reports) {
            bySeverity[ExitCode.of(r)]++;
        }
        return reports.size() + " partitions: " + bySeverity[2] + " refused, " + bySeverity[1]
                + " would change files, " + bySeverity[0] + " clean, " + bySeverity[3] + " without a verdict";
    }

    public static String mode(boolean durable) {
        return "durability=" + (durable ? "persisted" : "replicated");
    }

    /** A partition's name for tables and headlines: {@link #name(PartitionPath, java.nio.file.Path)} without a base. */
    public static String name(PartitionReport r) {
        return name(r.partition(), null);
    }

    /** {@link #name(PartitionPath, java.nio.file.Path)} of the report's partition. */
    public static String name(PartitionReport r, java.nio.file.Path base) {
        return name(r.partition(), base);
    }

    /**
     * The one name a partition has in every command's text output: {@code s<stream>/t<topic>/p<partition>} for a
     * partition where the server keeps it; prefixed by its data directory relative to {@code base} (the PATH given)
     * when PATH holds several data directories ({@code node-2:s1/t1/p1}); a partition outside the server's layout is
     * its directory (relative to {@code base} when under it).
     */
    public static String name(PartitionPath p, java.nio.file.Path base) {
        java.nio.file.Path dir = p.directory().toAbsolutePath().normalize();
        java.nio.file.Path b = base == null ? null : base.toAbsolutePath().normalize();
        if (p.isCanonical()) {
            String id = "s" + U64.str(p.streamId()) + "/t" + U64.str(p.topicId()) + "/p" + U64.str(p.partitionId());
            java.nio.file.Path dataDir = dir;
            for (int i = 0; i < 6 && dataDir != null; i++) {
                dataDir = dataDir.getParent();
            }
            if (b != null && dataDir != null && dataDir.startsWith(b) && !dataDir.equals(b)) {
                return b.relativize(dataDir) + ":" + id;
            }
            return id;
        }
        if (b != null && dir.startsWith(b) && !dir.equals(b)) {
            return b.relativize(dir).toString();
        }
        return p.directory().toString();
    }

    public static String u64(long v) {
        return U64.str(v);
    }
}
