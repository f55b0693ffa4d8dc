package segtool.shell;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.replica.Collector;
import segtool.analyzers.replica.ManifestJson;
import segtool.analyzers.replica.Throttle;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.VerdictOptions;

/** {@code collect PATH -o MANIFEST}: one node's segtool.manifest/1, for {@code plan} on a control node. */
@Command(name = "collect", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Write a compact manifest (segtool.manifest/1, NDJSON; gzip when MANIFEST ends in .gz) of "
                + "every partition under PATH: identity, durability and its source, the verdict and verified "
                + "chain, per segment the start offset, .log length and XXH3-64, and per batch base_offset, "
                + "position, batch_length, batch_checksum and message_count; anchors and the WAL checkpoint. "
                + "Never payloads. Nothing else is changed.",
            "%nRun it on every node, then `segtool plan` on the manifests (docs/fleet.md)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the manifest was written (whatever the verdicts in it)",
            "3:an I/O error prevented reading a partition, or a segment's name is a FIFO, device or symlinked .log; "
                + "no manifest was written",
            "23:collected, but incomplete: the manifest was written whole, but files could not be read (one line "
                + "each on stderr, with the OS reason, then a summary); their partitions are recorded in it as "
                + "io_error",
            "64:usage error: bad arguments, or PATH names nothing segtool can open",
            "130:cancelled (Ctrl-C); no manifest was written"},
        footer = {"%nExamples:",
            "  segtool collect /var/lib/iggy/local_data -o /tmp/$(hostname).manifest.ndjson.gz",
            "  segtool collect DATA --node broker-2 --max-concurrency 1 --max-read-rate 50M -o m.ndjson"})
public final class CollectCommand implements Callable<Integer>, PlainCommand, Interrupts.Leaves {
    @Parameters(index = "0", paramLabel = "PATH", description = "Data directory, partition directory or crash dump.")
    Path path;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "MANIFEST",
            description = "Manifest to write (replaced atomically; gzip-compressed when the name ends in .gz).")
    Path out;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the manifest and the plan "
            + "(default: the host name).")
    String node;

    @Option(names = {"--threads", "--max-concurrency"}, paramLabel = "N",
            description = "Partitions read at once (default: every available processor; -Dsegtool.threads=N in "
                    + "SEGTOOL_JAVA_OPTS sets the default); a single partition is verified on N cores. 1 for a "
                    + "loaded node. --max-concurrency is the older name.")
    Integer maxConcurrency;

    @Option(names = "--max-read-rate", paramLabel = "BYTES/S", converter = RateConverter.class,
            description = "Cap on the bytes read per second, all threads together (e.g. 50M, 1G; default: no cap)."
                    + " Reads are paced, not skipped.")
    long maxReadRate;

    @Mixin
    VerdictOptions verdict;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** The manifest is written to a temporary file beside OUT, removed on the way out, renamed when whole. */
    @Override
    public String leftWhenInterrupted() {
        return out + " was not written (a file that was there is unchanged); nothing else changed";
    }

    @Override
    public Integer call() throws Exception {
        String given = path == null ? null : path.toString();
        List<PartitionInputs> partitions = CompareCommand.resolver(spec, verdict)
                .resolve(CompareCommand.partitions(spec, given, verdict));
        String name = node != null ? node : hostName();
        Collector collector = new Collector(verdict.engineOptions(), CompareCommand.concurrency(spec, maxConcurrency),
                new Throttle(maxReadRate));
        long[] logBytes = {0};
        long started = System.nanoTime();
        long written;
        List<Collector.Unreadable> unreadable;
        try (ManifestJson.Writer w = new ManifestJson.Writer(out, name, given, Instant.now().toString(),
                Version.current(), verdict.inputs().durable())) {
            unreadable = collector.collect(name, partitions, m -> {
                m.segments().forEach(s -> logBytes[0] += s.logLength());
                w.write(m);
            });
            w.finish();
            written = w.bytes();
        } catch (InterruptedException e) {
            throw new Cancelled();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int exit = unreadable.isEmpty() ? ExitCodes.CLEAN : ExitCodes.INCOMPLETE;
        if (!unreadable.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            for (Collector.Unreadable u : unreadable) {
                err.println("segtool: " + u.failure());
            }
            long affected = unreadable.stream().map(Collector.Unreadable::partition).distinct().count();
            err.println("segtool: " + out + ": written, but incomplete: " + unreadable.size()
                    + (unreadable.size() == 1 ? " file" : " files") + " could not be read; " + affected
                    + (affected == 1 ? " partition is" : " partitions are") + " recorded as io_error (exit "
                    + ExitCodes.INCOMPLETE + ")");
            err.flush();
        }
        PrintWriter pw = spec.commandLine().getOut();
        if (output.json) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("schema", "segtool.collect/1");
            o.put("manifest", out.toString());
            o.put("node", name);
            o.put("partitions", partitions.size());
            o.put("log_bytes", logBytes[0]);
            o.put("manifest_bytes", written);
            o.put("seconds", Math.round(seconds * 1000) / 1000.0);
            var files = o.putArray("unreadable");
            for (Collector.Unreadable u : unreadable) {
                ObjectNode f = files.addObject();
                f.put("partition", u.partition());
                f.put("path", u.failure().path().toString());
                f.put("operation", u.failure().operation());
                f.put("reason", u.failure().reason());
            }
            o.put("exit_code", exit);
            pw.println(ScanJson.mapper().writeValueAsString(o));
        } else if (!output.quiet()) {
            pw.printf("%s: %d partitions of node %s, %d log bytes, manifest %d bytes (%.4f%%), %.2f s%n", out,
                    partitions.size(), name, logBytes[0], written,
                    logBytes[0] == 0 ? 0.0 : 100.0 * written / logBytes[0], seconds);
        }
        pw.flush();
        return exit;
    }

    static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** {@code 1048576}, {@code 512K}, {@code 50M}, {@code 1G} (powers of 1024). */
    public static final class RateConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.trim().toUpperCase();
            long unit = 1;
            if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
                unit = v.endsWith("K") ? 1L << 10 : v.endsWith("M") ? 1L << 20 : 1L << 30;
                v = v.substring(0, v.length() - 1);
            }
            try {
                long n = Long.parseLong(v);
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return Math.multiplyExact(n, unit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a rate in bytes per second "
                        + "(a number, optionally with K, M or G)");
            }
        }
    }
}
