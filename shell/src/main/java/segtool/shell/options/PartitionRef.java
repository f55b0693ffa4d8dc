package segtool.shell.options;

import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.ShellSession;

/** A PARTITION argument (or a segment file standing for its partition) resolved, with the segment if one was named. */
public record PartitionRef(PartitionPath partition, Long segment) {

    public Path directory() {
        return partition.directory();
    }

    public static PartitionRef resolve(CommandSpec spec, Path arg, Long partitionId) throws IOException {
        Path path = ShellSession.resolve(spec, arg);
        Targets t = ShellSession.targets(spec, path);
        if (t.kind() == Targets.Kind.DATA_DIRECTORY && t.partitions().size() != 1) {
            throw new Targets.NotATarget(path + ": a data directory holds " + t.partitions().size()
                    + " partitions; name one (" + path + "/streams/<s>/topics/<t>/partitions/<p>)");
        }
        PartitionPath p = t.partitions().get(0);
        if (partitionId != null) {
            p = p.withPartitionId(partitionId);
        }
        return new PartitionRef(p, t.segment());
    }
}
