package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import segtool.formats.index.IndexFile;

/**
 * A test oracle for the fixpoint property: performs a plan's operations literally, in order, on a scratch copy
 * (no quarantine, no fsync). The production applier lives in the repair package.
 */
final class PlanApplier {
    private PlanApplier() {
    }

    static void apply(PartitionReport report) throws IOException {
        for (PlannedOp op : report.operations()) {
            if (op instanceof PlannedOp.Delete) {
                Files.deleteIfExists(op.path());
            } else if (op instanceof PlannedOp.StageIndex) {
                Files.write(op.path(), IndexFile.encode(((PlannedOp.StageIndex) op).entries()));
            } else if (op instanceof PlannedOp.Fence) {
                PlannedOp.Fence f = (PlannedOp.Fence) op;
                Files.createDirectory(f.fenceDirectory());
                Path index = f.path().resolveSibling(f.path().getFileName().toString().replace(".log", ".index"));
                for (Path p : new Path[]{f.path(), index}) {
                    if (Files.exists(p)) {
                        Files.move(p, f.fenceDirectory().resolve(p.getFileName()));
                    }
                }
                Files.write(index, new byte[0]);
                Files.write(f.path(), new byte[0]);
            } else if (op instanceof PlannedOp.TruncateLog) {
                truncate(op.path(), ((PlannedOp.TruncateLog) op).to());
            } else if (op instanceof PlannedOp.TruncateIndex) {
                truncate(op.path(), ((PlannedOp.TruncateIndex) op).to());
            } else if (op instanceof PlannedOp.InstallIndex) {
                Files.move(((PlannedOp.InstallIndex) op).staging(), op.path(), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }

    private static void truncate(Path p, long to) throws IOException {
        if (!Files.exists(p)) {
            if (to != 0) {
                throw new IOException(p + ": would extend a missing file to " + to);
            }
            return;
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            if (ch.size() < to) {
                throw new IOException(p + ": would extend " + ch.size() + " -> " + to);
            }
            ch.truncate(to);
        }
    }
}
