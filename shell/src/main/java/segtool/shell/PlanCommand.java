package segtool.shell;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.replica.ManifestJson;
import segtool.analyzers.replica.ReplicaComparison;
import segtool.analyzers.replica.ReplicaJson;
import segtool.analyzers.report.ScanJson;
import segtool.shell.options.OutputOptions;

/** {@code plan MANIFEST...}: the comparison of {@code compare}, over manifests from many nodes, as a repair plan. */
@Command(name = "plan", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Compare the manifests `collect` wrote on each node (one node per manifest) exactly as "
                + "`compare` compares directories, and write the repair plan (segtool.plan/2): per partition the "
                + "donor node and which nodes take which segment ranges or need a local repair. Nothing is changed."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:all replicas agree: nothing to do",
            "1:replicas differ, and the donor's verified chain holds everything any replica holds",
            "2:some offsets verify on a replica but are in no replica's verified chain",
            "3:a manifest could not be read, or a replica was not judged",
            "64:usage error: bad arguments, two manifests of one node",
            "130:cancelled (Ctrl-C)"},
        footer = {"%nExamples:",
            "  segtool plan manifests/*.ndjson.gz -o plan.json",
            "  segtool plan a.ndjson b.ndjson c.ndjson --json"})
public final class PlanCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MANIFEST", arity = "1..*", description = "segtool.manifest/1 files, one per node.")
    List<Path> manifests;

    @Option(names = {"-o", "--output"}, paramLabel = "PLAN", description = "Write the plan (segtool.plan/2 JSON) "
            + "here, replaced atomically.")
    Path out;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<ReplicaComparison.Replica> replicas = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (Path m : manifests) {
            ManifestJson.NodeManifest n = ManifestJson.read(m);
            for (ReplicaComparison.Replica r : replicas) {
                if (r.name().equals(n.node())) {
                    throw new CommandLine.ParameterException(spec.commandLine(), m + ": node " + n.node()
                            + " has two manifests; give one per node");
                }
            }
            replicas.add(new ReplicaComparison.Replica(n.node(), n.partitions()));
            sources.add(m.toString());
        }
        ReplicaComparison.Result result = ReplicaComparison.compare(replicas);
        if (out != null) {
            Path tmp = out.toAbsolutePath().resolveSibling("." + out.getFileName() + ".segtool-tmp");
            Files.writeString(tmp, ScanJson.mapper().writeValueAsString(ReplicaJson.report(ReplicaJson.PLAN_SCHEMA,
                    Version.current(), result, sources)) + "\n");
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        CompareCommand.print(spec, output, ReplicaJson.PLAN_SCHEMA, result, sources);
        return result.exitCode();
    }
}
