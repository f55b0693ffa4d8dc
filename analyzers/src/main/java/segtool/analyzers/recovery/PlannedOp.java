package segtool.analyzers.recovery;

import java.nio.file.Path;
import java.util.List;
import segtool.formats.index.IndexEntry;

/** One file operation recovery would perform, in the order it would perform it (RECOVERY.md 3, 4.11, 6). */
public sealed interface PlannedOp {
    Path path();

    /** A short stable name for JSON: delete, stage_index, fence, truncate_log, install_index, truncate_index. */
    String kind();

    /** The boot sweep deletes a scratch or orphan file. */
    record Delete(Path path, String reason) implements PlannedOp {
        public String kind() {
            return "delete";
        }
    }

    /** Pass A writes a rebuilt index to {@code <S>.index.staging}. */
    record StageIndex(Path path, long segmentStart, List<IndexEntry> entries) implements PlannedOp {
        public String kind() {
            return "stage_index";
        }
    }

    /** Pass C moves a recovered-empty segment's files into a fresh fence directory and seeds empty files. */
    record Fence(Path path, long segmentStart, Path fenceDirectory, long logBytes, long indexBytes)
            implements PlannedOp {
        public String kind() {
            return "fence";
        }
    }

    /** Pass C truncates the log from {@code from} to {@code to} bytes. */
    record TruncateLog(Path path, long segmentStart, long from, long to) implements PlannedOp {
        public String kind() {
            return "truncate_log";
        }
    }

    /** Pass C renames the staged index over {@code <S>.index}. */
    record InstallIndex(Path path, long segmentStart, Path staging, List<IndexEntry> entries, long from)
            implements PlannedOp {
        public String kind() {
            return "install_index";
        }
    }

    /** Pass C truncates the index from {@code from} to {@code to} bytes. */
    record TruncateIndex(Path path, long segmentStart, long from, long to) implements PlannedOp {
        public String kind() {
            return "truncate_index";
        }
    }
}
