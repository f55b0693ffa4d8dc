package segtool.shell.options;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
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

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /**
     * {@code t} narrowed to the selection; a usage error (NotATarget, exit 64) when nothing is left, or when an option
     * was given a list without an id (only separators: {@code --partition ,}), which would otherwise select nothing
     * and so mean "every partition".
     */
    public Targets apply(Targets t) throws Targets.NotATarget {
        requireIds("--stream", "stream");
        requireIds("--topic", "topic");
        requireIds("--partition", "partition");
        return t.select(set(streams), set(topics), set(partitions));
    }

    private void requireIds(String option, String what) throws Targets.NotATarget {
        CommandLine line = mixee == null ? null : mixee.commandLine();
        CommandLine.ParseResult parsed = line == null ? null : line.getParseResult();
        CommandLine.Model.OptionSpec matched = parsed == null ? null : parsed.matchedOption(option);
        if (matched == null) {
            return;
        }
        for (String given : matched.originalStringValues()) {
            // picocli splits at "," and drops trailing empty items, so "," gives no id at all (an empty item among
            // ids, "1,,2", is already refused by the converter)
            if (given.chars().allMatch(c -> c == ',')) {
                throw new Targets.NotATarget(option + " '" + given + "' names no " + what + " id (give "
                        + "ID[,ID...], comma-separated ids)");
            }
        }
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
