package segtool.shell.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.io.U64;

/** Short plain-language summaries of verdicts, shared by the table and the explanations. */
public final class Verdicts {
    private Verdicts() {
    }

    /** {@code refused: InteriorDamage {...}} or {@code accepted: 1 truncated, 2 clean}. */
    public static String summary(PartitionReport r) {
        switch (r.outcome) {
            case IO_ERROR:
                return "cannot judge: " + r.ioError;
            case REFUSED:
                return "refused: " + r.refusal;
            default:
                Map<String, Integer> counts = new TreeMap<>();
                for (SegmentReport s : r.segments) {
                    counts.merge(s.status.json(), 1, Integer::sum);
                }
                if (counts.isEmpty()) {
                    return "accepted: no segments";
                }
                List<String> parts = new ArrayList<>();
                counts.forEach((k, v) -> parts.add(v + " " + k));
                String swept = r.swept.isEmpty() ? "" : ", " + r.swept.size() + " file(s) swept";
                return "accepted: " + String.join(", ", parts) + swept;
        }
    }

    public static String mode(boolean durable) {
        return "enforce_fsync=" + durable;
    }

    /** A partition's name for tables: {@code stream 1 / topic 2 / partition 3}, or its directory. */
    public static String name(PartitionReport r) {
        var p = r.partition;
        if (p.isCanonical()) {
            return "s" + p.streamId() + "/t" + p.topicId() + "/p" + p.partitionId();
        }
        return p.directory().toString();
    }

    public static String u64(long v) {
        return U64.str(v);
    }
}
