package segtool.shell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import segtool.analyzers.inputs.PartitionInputs;

/** Text for the inputs a partition was judged with (analyzers.inputs), shared by scan and explain. */
final class Inputs {
    /** Printed under the WAL open's steps when they change the directory. */
    static final String AFTER_OPEN = "the server's WAL open will first make the changes above; then segment recovery "
            + "runs on the directory it leaves, and this partition's verdict is on that directory (RECOVERY 9 step 0), "
            + "not on the files as they are now";

    private Inputs() {
    }

    /**
     * {@code NAME: judged after the WAL open, which first will truncate ...; delete ...}, for a partition whose WAL
     * open changes its directory, else null (the partition table's line under {@code scan DATA_DIR}).
     */
    static String openLine(PartitionInputs in, String name) {
        if (in == null || !in.judgeable() || !in.wal().openChangesDirectory()) {
            return null;
        }
        List<String> changes = new ArrayList<>();
        in.wal().openSteps().stream().filter(s -> s.changes()).forEach(s -> changes.add(s.text()));
        return name + ": judged on the directory after the server's WAL open (METADATA 6.7), which first will "
                + String.join("; ", changes);
    }

    /** {@code durability=... (from ...)}, {@code checkpoint=... (from ...)}, the WAL open's steps and the notes. */
    static List<String> lines(PartitionInputs in) {
        List<String> out = new ArrayList<>();
        if (in.judgeable()) {
            out.add(in.durability().text());
            out.add(in.wal().text());
            for (String a : in.wal().openActions()) {
                out.add("WAL open, before segment recovery (METADATA 6.7): " + a);
            }
            if (in.wal().openChangesDirectory()) {
                out.add(AFTER_OPEN);
            }
        }
        for (String n : in.notes()) {
            out.add("note: " + n);
        }
        return out;
    }

    /** The notes of many partitions, each once (node notes repeat on every partition of a data directory). */
    static List<String> notes(List<PartitionInputs> inputs) {
        Set<String> out = new LinkedHashSet<>();
        for (PartitionInputs in : inputs) {
            for (String n : in.notes()) {
                out.add("note: " + n);
            }
        }
        return new ArrayList<>(out);
    }

    /** The INPUTS cell of the partition table: the durability text and, when there is one, the checkpoint. */
    static String cell(PartitionInputs in) {
        if (in == null || !in.judgeable()) {
            return "-";
        }
        String d = in.durability().text();
        return in.wal().checkpoint() == null ? d : d + "; " + in.wal().text();
    }
}
