package segtool.shell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import segtool.analyzers.inputs.PartitionInputs;

/** Text for the inputs a partition was judged with (analyzers.inputs), shared by scan and explain. */
final class Inputs {
    private Inputs() {
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
