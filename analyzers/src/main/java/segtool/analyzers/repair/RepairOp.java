package segtool.analyzers.repair;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One journaled file operation, as written into the quarantine manifest before anything changes, so that a re-run
 * after a crash finishes the same plan instead of re-deriving one from half-mutated files (a fresh judgement of a
 * log truncated by an interrupted lenient repair keeps the old index where the uninterrupted run installs a rebuilt
 * one). File names are relative to the partition directory; {@code seq} is the position in the plan.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "op")
@JsonSubTypes({
    @JsonSubTypes.Type(value = RepairOp.Delete.class, name = "delete"),
    @JsonSubTypes.Type(value = RepairOp.StageIndex.class, name = "stage_index"),
    @JsonSubTypes.Type(value = RepairOp.Fence.class, name = "fence"),
    @JsonSubTypes.Type(value = RepairOp.TruncateLog.class, name = "truncate_log"),
    @JsonSubTypes.Type(value = RepairOp.InstallIndex.class, name = "install_index"),
    @JsonSubTypes.Type(value = RepairOp.TruncateIndex.class, name = "truncate_index")
})
public sealed interface RepairOp {
    int seq();

    /** The file the operation changes, relative to the partition directory. */
    String file();

    /** The stable name used in JSON, equal to the engine's {@code PlannedOp.kind()}. */
    @JsonIgnore
    String kind();

    /** The sweep deletes a scratch or orphan file of {@code length} bytes. */
    record Delete(int seq, String file, String reason, long length) implements RepairOp {
        public String kind() {
            return "delete";
        }
    }

    /**
     * Writes {@code content} (a file inside the quarantine directory, {@code length} bytes, {@code xxh3}) to the
     * staging file {@code file}, then forces it to disk.
     */
    record StageIndex(int seq, String file, String content, long length, String xxh3) implements RepairOp {
        public String kind() {
            return "stage_index";
        }
    }

    /**
     * Moves {@code file} (the log) and {@code index} into the sibling fence directory {@code directory}, then seeds
     * empty files under both names (RECOVERY 6.2). {@code logExisted}/{@code indexExisted} are as planned.
     */
    record Fence(int seq, String file, String index, String directory, boolean logExisted, boolean indexExisted,
                 long logBytes, long indexBytes) implements RepairOp {
        public String kind() {
            return "fence";
        }
    }

    /** Truncates the log from {@code from} to {@code to} bytes. */
    record TruncateLog(int seq, String file, long from, long to) implements RepairOp {
        public String kind() {
            return "truncate_log";
        }
    }

    /**
     * Renames {@code staging} over {@code file}, whose {@code from} bytes it replaces ({@code existed} false when
     * there was no file), and forces the directory. The installed content is {@code content} ({@code length} bytes,
     * {@code xxh3}).
     */
    record InstallIndex(int seq, String file, String staging, long from, boolean existed, String content,
                        long length, String xxh3) implements RepairOp {
        public String kind() {
            return "install_index";
        }
    }

    /** Truncates the index from {@code from} to {@code to} bytes. */
    record TruncateIndex(int seq, String file, long from, long to) implements RepairOp {
        public String kind() {
            return "truncate_index";
        }
    }
}
