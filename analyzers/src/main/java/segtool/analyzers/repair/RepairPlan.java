package segtool.analyzers.repair;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.formats.naming.PartitionPath;

/**
 * What one {@code --apply} will do to one partition: the operations in order, every byte range they remove (copied
 * into the quarantine first), and the new index contents they install. {@code engineOps} are the judgement's
 * planned operations the journaled ones were made from, for printing; {@code report} is that judgement (null for a
 * resumed plan); {@code notes} are what an operator must read before approving it (a truncated log whose inode the
 * prepare WAL also holds).
 */
public record RepairPlan(String command, PartitionPath partition, boolean durable, List<RepairOp> ops,
                         List<Leaving> leaving, Map<String, byte[]> contents, List<PlannedOp> engineOps,
                         PartitionReport report, List<String> notes) {

    public RepairPlan {
        notes = List.copyOf(notes);
    }

    /** A plan without notes. */
    public RepairPlan(String command, PartitionPath partition, boolean durable, List<RepairOp> ops,
                      List<Leaving> leaving, Map<String, byte[]> contents, List<PlannedOp> engineOps,
                      PartitionReport report) {
        this(command, partition, durable, ops, leaving, contents, engineOps, report, List.of());
    }

    /** Bytes {@code [offset, offset + length)} of {@code file}, then {@code originalLength} long, removed by op. */
    public record Leaving(int op, String file, long offset, long length, long originalLength, String reason) {
    }

    public Path directory() {
        return partition.directory();
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    /** Total bytes that will be copied into the quarantine. */
    public long quarantineBytes() {
        long n = 0;
        for (Leaving l : leaving) {
            n += l.length();
        }
        return n;
    }
}
