package segtool.analyzers.repair;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import segtool.analyzers.archive.FileRange;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.PlannedOp;
import segtool.formats.naming.PartitionPath;

/**
 * What one {@code --apply} will do to one partition: the operations in order, every byte range they remove (copied
 * into the quarantine first), and the new index contents they install. {@code engineOps} are the judgement's
 * planned operations the journaled ones were made from, for printing; {@code report} is that judgement (null for a
 * resumed plan). New contents are either bytes ({@code contents}: rebuilt indexes) or assembled from
 * ranges of existing files ({@code assembled}: a segment taken from a donor replica), which the applier streams
 * through a bounded buffer, so a new file of any size costs no memory.
 */
public record RepairPlan(String command, PartitionPath partition, boolean durable, List<RepairOp> ops,
                         List<Leaving> leaving, Map<String, byte[]> contents, List<PlannedOp> engineOps,
                         PartitionReport report, Map<String, List<FileRange>> assembled) {

    public RepairPlan {
        assembled = Map.copyOf(assembled);
    }

    /** A plan whose new contents are all bytes. */
    public RepairPlan(String command, PartitionPath partition, boolean durable, List<RepairOp> ops,
                      List<Leaving> leaving, Map<String, byte[]> contents, List<PlannedOp> engineOps,
                      PartitionReport report) {
        this(command, partition, durable, ops, leaving, contents, engineOps, report, Map.of());
    }

    /** Bytes of new content the applier writes into the quarantine first. */
    public long newContentBytes() {
        long n = 0;
        for (byte[] c : contents.values()) {
            n += c.length;
        }
        for (List<FileRange> pieces : assembled.values()) {
            for (FileRange r : pieces) {
                n += r.length();
            }
        }
        return n;
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
