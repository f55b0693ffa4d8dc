package segtool.shell;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.PrintWriter;
import java.nio.file.Path;
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
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.salvage.SalvageJson;
import segtool.analyzers.salvage.Salvager;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.render.SalvageText;

/** {@code salvage PARTITION -o OUT}: every batch that verifies, damage or not, into a side archive. Reads only. */
@Command(name = "salvage", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Copy every batch record that verifies into a new side archive, with where it came from. "
                + "Reads only: the partition, its .fenced.<n> directories and its segtool quarantines are never "
                + "changed.",
            "%nThe whole partition is searched, past interior damage too, by the damage probe's candidate rules "
                + "(RECOVERY 4.7) without its budget. OUT is a new directory: batches.log (each record's original "
                + "bytes), batches.ndjson (one line per record: source file and byte position, offsets, timestamps, "
                + "checksums, and whether it lies in the verified chain, past damage, in a fence or a quarantine), "
                + "salvage.json (which offset ranges the archive holds and which are lost), and with --format ndjson "
                + "messages.ndjson (one line per message, for replay through a producer). See docs/salvage.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the archive holds every byte and offset the partition's files show", "1:the archive was "
                + "written, but some bytes or offsets are lost (listed)", "3:I/O error; OUT was not created",
            "64:usage error: PATH is not a partition, or OUT exists, is a symlink or lies inside what is read",
            "130:cancelled; OUT was not created"},
        footer = {"%nExamples:",
            "  segtool salvage PARTITION -o /safe/p1-salvage",
            "  segtool salvage PARTITION -o /safe/p1-salvage --format ndjson --include-unverified",
            "  jq -c 'select(.location == \"past_damage\")' /safe/p1-salvage/batches.ndjson"})
public final class SalvageCommand implements Callable<Integer>, ReadCommand, Interrupts.Leaves {
    public enum Format { raw, ndjson }

    @Parameters(index = "0", paramLabel = "PARTITION", description = "The partition directory to salvage.")
    Path target;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
            description = "The archive directory to create; it must not exist.")
    Path out;

    @Option(names = "--format", paramLabel = "raw|ndjson", defaultValue = "raw",
            description = "raw: the records and their manifest; ndjson: also messages.ndjson, one line per message "
                    + "(LZ4 decoded, headers typed). Default ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = "--include-unverified",
            description = "Also export the records that frame where one was expected but do not verify, each "
                    + "marked verified=false; their offsets never count as archived.")
    boolean includeUnverified;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** The archive is built in a temporary directory beside OUT, removed on the way out, and renamed when whole. */
    @Override
    public String leftWhenInterrupted() {
        return out + " was not created; nothing else changed";
    }

    @Override
    public Integer call() throws Exception {
        if (ShellSession.isDump(target)) {
            throw new CommandLine.ParameterException(spec.commandLine(), target + ": a crash dump; salvage records "
                    + "each batch's source file, which a dump's temporary extraction would not keep: extract the "
                    + "dump (tar) and salvage the partition directory");
        }
        Targets t = ShellSession.targets(spec, target);
        if (t.kind() != Targets.Kind.PARTITION) {
            throw new CommandLine.ParameterException(spec.commandLine(), target + ": not a partition directory "
                    + "(salvage works on one partition at a time)");
        }
        PartitionPath partition = t.partitions().get(0);
        if (read.partitionId != null) {
            partition = partition.withPartitionId(read.partitionId);
        }
        Salvager.Options options = Salvager.Options.defaults(Version.current())
                .withMaxBatchBytes(read.maxBatchBytes()).withUnverified(includeUnverified)
                .withMessages(format == Format.ndjson);
        List<String> problems = new ArrayList<>();
        Salvager.Result r;
        try {
            r = new Salvager(options).salvage(partition, out, problems);
        } catch (Salvager.OutputRefused e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (java.io.IOException e) {
            throw PackCommand.writing(out, e);
        }
        PrintWriter w = spec.commandLine().getOut();
        int exit = SalvageJson.exitCode(r);
        if (output.json) {
            JsonGenerator g = ScanJson.mapper().getFactory().createGenerator(w);
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            SalvageJson.summary(g, r, r.archive(), problems, format == Format.ndjson, Version.current(),
                    java.time.Instant.now().toString());
            g.flush();
            w.println();
        } else {
            SalvageText.summary(w, r, problems, output.quiet(), output.style());
        }
        w.flush();
        return exit;
    }
}
