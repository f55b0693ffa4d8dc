package segtool.shell.options;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;
import segtool.analyzers.layout.Targets;

/**
 * Which partitions of a data directory a command looks at: {@code --stream}, {@code --topic} and {@code --partition},
 * each a comma-separated list of ids (as pg_amcheck's table patterns or kafka-dump-log's --files narrow a big run).
 * Given together they all have to match; none given: every partition.
 */
public final class Selection {
    @Option(names = "--stream", paramLabel = "ID[,ID...]", split = ",", converter = Numbers.U64Converter.class,
            description = "Only partitions of these streams (stream ids, comma-separated).")
    List<Long> streams;

    @Option(names = "--topic", paramLabel = "ID[,ID...]", split = ",", converter = Numbers.U64Converter.class,
            description = "Only partitions of these topics (topic ids, comma-separated).")
    List<Long> topics;

    @Option(names = "--partition", paramLabel = "ID[,ID...]", split = ",", converter = Numbers.U64Converter.class,
            description = "Only these partitions (partition ids, comma-separated).")
    List<Long> partitions;

    /** {@code t} narrowed to the selection; a usage error (NotATarget, exit 64) when nothing is left. */
    public Targets apply(Targets t) throws Targets.NotATarget {
        return t.select(set(streams), set(topics), set(partitions));
    }

    /** True when any of the three was given. */
    public boolean any() {
        return streams != null && !streams.isEmpty() || topics != null && !topics.isEmpty()
                || partitions != null && !partitions.isEmpty();
    }

    private static Set<Long> set(List<Long> ids) {
        return ids == null ? Set.of() : new LinkedHashSet<>(ids);
    }
}
