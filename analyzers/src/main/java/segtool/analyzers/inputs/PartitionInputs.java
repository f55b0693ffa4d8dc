package segtool.analyzers.inputs;

import java.util.List;
import segtool.formats.naming.PartitionPath;

/**
 * The inputs one partition is judged with: {@code D} and the WAL checkpoint with their sources, notes to print on
 * its verdict, or, instead of a verdict, a refusal: the server's own (it will not start the node, or refuses or
 * skips this partition before segment recovery) or segtool's (a case METADATA 8 leaves open, or a command-line value
 * that contradicts the metadata). The partition's {@link Identity} across replicas is given either way.
 */
public record PartitionInputs(PartitionPath partition, Durability durability, WalInputs wal, List<String> notes,
                              Refusal refusal, String refusalLine, Identity identity) {
    public enum Refusal {
        /** The server does not start the node (enforce_fsync = true, unreadable metadata). */
        SERVER_REFUSES_NODE,
        /** The server refuses this partition before segment recovery (PrepareWal) or does not load it. */
        SERVER_REFUSES_PARTITION,
        /** segtool will not guess: METADATA 8 leaves the case open, or the inputs cannot be read. */
        UNDECIDED,
        /** A command-line value contradicts the metadata and {@code --override-durability} was not given. */
        CONTRADICTS_METADATA
    }

    public PartitionInputs {
        notes = List.copyOf(notes);
    }

    public boolean judgeable() {
        return refusal == null;
    }

    /** How {@link #refusalLine()} starts when a file the inputs come from (or the log they stat) could not be read. */
    public static final String UNREADABLE = "cannot read the inputs: ";

    /**
     * No verdict because reading failed (a symlink loop, a permission, a device error), not because the inputs
     * decide against one: an I/O error, which commands also say on stderr.
     */
    public boolean unreadable() {
        return refusal == Refusal.UNDECIDED && refusalLine != null && refusalLine.startsWith(UNREADABLE);
    }

    public String refusalJson() {
        return refusal == null ? null : refusal.name().toLowerCase();
    }
}
