package segtool.shell;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.replica.Collector;
import segtool.analyzers.replica.ReplicaComparison;
import segtool.analyzers.replica.ReplicaJson;
import segtool.analyzers.replica.Throttle;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;

/** {@code compare PATH PATH [PATH...]}: replicas of the same partitions, the donor, and what each other one lacks. */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Compare replicas of the same partitions: one PATH per replica (data directory, partition "
                + "directory or crash dump). Nothing is changed.",
            "%nPartitions are joined by identity; per partition: each replica's verdict and verified chain, the "
                + ".log digests (XXH3-64; .index files are not compared), the first divergence at batch "
                + "granularity, the replicas whose chain is a prefix of another's, the donor (the replica whose "
                + "verified chain covers the most offsets) and the segment byte ranges every other replica would "
                + "take from it. The same comparison as `collect` on each node followed by `plan`."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:all replicas agree (the same segments, the same .log bytes)",
            "1:replicas differ, and the donor's verified chain holds everything any replica holds",
            "2:some offsets verify on a replica but are in no replica's verified chain",
            "3:an I/O error prevented judging a replica",
            "64:usage error: bad arguments, or PATH names nothing segtool can open",
            "130:cancelled (Ctrl-C)"},
        footer = {"%nExamples:",
            "  segtool compare node1/local_data node2/local_data node3-dump.tar.lz4",
            "  segtool compare --json --durability=persisted A/streams/1/topics/1/partitions/1 B/.../partitions/1"})
public final class CompareCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PATH", arity = "2..*",
            description = "One per replica: data directory, partition directory or crash dump.")
    List<Path> paths;

    @Option(names = {"--threads", "--max-concurrency"}, paramLabel = "N", description = "Partitions judged at "
            + "once (default: every available processor; -Dsegtool.threads=N in SEGTOOL_JAVA_OPTS sets the "
            + "default); a single partition is verified on N cores. --max-concurrency is the older name.")
    Integer maxConcurrency;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        InputsResolver resolver = resolver(spec, verdict);
        Collector collector = new Collector(verdict.engineOptions(), concurrency(spec, maxConcurrency),
                Throttle.NONE);
        List<ReplicaComparison.Replica> replicas = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        Set<String> unreadable = new LinkedHashSet<>();
        try {
            for (Path given : paths) {
                String p = given.toString();
                String name = p;
                for (int i = 2; !names.add(name); i++) {
                    name = p + "#" + i;
                }
                List<PartitionInputs> partitions = resolver.resolve(partitions(spec, p, verdict));
                List<segtool.analyzers.replica.PartitionManifest> collected = new ArrayList<>();
                for (Collector.Unreadable u : collector.collect(name, partitions, collected::add)) {
                    unreadable.add(u.failure().toString());
                }
                replicas.add(new ReplicaComparison.Replica(name, collected));
            }
        } catch (InterruptedException e) {
            throw new Cancelled();
        }
        // a file that could not be read leaves its replica not judged (exit 3): each is named, with the OS reason
        for (String line : unreadable) {
            spec.commandLine().getErr().println("segtool: " + line);
        }
        spec.commandLine().getErr().flush();
        ReplicaComparison.Result result = ReplicaComparison.compare(replicas);
        print(spec, output, ReplicaJson.COMPARE_SCHEMA, result, null);
        return result.exitCode();
    }

    /** Prints a comparison: JSON, or the table, the details and a summary line. */
    static void print(CommandSpec spec, OutputOptions output, String schema, ReplicaComparison.Result result,
                      List<String> sources) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(ScanJson.mapper().writeValueAsString(ReplicaJson.report(schema, Version.current(), result,
                    sources)));
            out.flush();
            return;
        }
        if (!output.quiet()) {
            out.print(ReplicaText.render(result));
            for (String w : result.warnings()) {
                out.println("warning: " + w);
            }
        }
        out.println(ReplicaText.summary(result));
        out.flush();
    }

    static int concurrency(CommandSpec spec, Integer asked) {
        if (asked == null) {
            return segtool.analyzers.recovery.RecoveryOptions.defaultThreads();
        }
        if (asked < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be at least 1");
        }
        return asked;
    }

    /**
     * Each partition is judged with the inputs its own data directory holds (the topic's durability, the frontier's
     * checkpoint, the identity), the command line's where there is no metadata, as scan does.
     */
    static InputsResolver resolver(CommandSpec spec, VerdictOptions verdict) {
        return new InputsResolver(verdict.inputs(spec));
    }

    /** The partitions PATH names (a crash dump is extracted first), checked to have partition ids. */
    static List<PartitionPath> partitions(CommandSpec spec, String path, VerdictOptions verdict) throws Exception {
        Path target = ShellSession.resolve(spec, path);
        Targets targets = ShellSession.targets(spec, target);
        if (targets.kind() == Targets.Kind.SEGMENT) {
            throw new CommandLine.ParameterException(spec.commandLine(), path + ": a segment file; give the "
                    + "partition or data directory");
        }
        List<PartitionPath> out = new ArrayList<>();
        for (PartitionPath p : targets.partitions()) {
            PartitionPath q = verdict.partitionId != null ? p.withPartitionId(verdict.partitionId) : p;
            if (verdict.partitionId == null && !q.hasPartitionId()) {
                throw new CommandLine.ParameterException(spec.commandLine(), q.directory()
                        + ": the directory name is not a partition id; pass --partition-id N");
            }
            out.add(q);
        }
        return out;
    }
}
