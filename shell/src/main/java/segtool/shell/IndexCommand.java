package segtool.shell;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inspect.IndexMapping;
import segtool.analyzers.inspect.SegmentReader;
import segtool.analyzers.recovery.IndexScan;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.options.SegmentRef;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Table;
import segtool.shell.render.Times;

/** {@code index SEGMENT}: every entry of a sparse index and whether it maps to the batch at its position. */
@Command(name = "index", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"List a segment's index entries and whether each maps to its batch.",
            "%nEntries (offset, timestamp, position) are checked against the log: "
                + "the structure rules of RECOVERY 4.2 (entries ascend; the first is (start offset, 0)), the header "
                + "match boot performs (Matches: partition, base_offset, base_timestamp, message_count > 0, fits), "
                + "and whether the batch it points at verifies (checksums, which boot does not compute here)."},
        footer = {"%nExamples:",
            "  segtool index PARTITION/00000000000000000000.index",
            "  segtool index PARTITION/4096 --no-verify --limit 20"})
public final class IndexCommand implements Callable<Integer>, ReadCommand {
    @Parameters(index = "0", paramLabel = "SEGMENT", arity = "0..1",
            description = "Segment: its .index or .log file, PARTITION/<start offset>, or (in the shell) a start "
                    + "offset of the open partition.")
    Path segment;

    @Option(names = "--no-verify", description = "Match headers only; do not verify the batches' checksums.")
    boolean noVerify;

    @Option(names = "--limit", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "Show at most N entries (all are still checked for the summary).")
    Long limit;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SegmentRef ref = SegmentRef.resolve(spec, segment, read.partitionId);
        long pid = ref.partition().partitionId();
        boolean known = read.partitionId != null || ref.partition().hasPartitionId();
        PrintWriter out = spec.commandLine().getOut();
        Style style = output.style();
        long shown = limit == null ? Long.MAX_VALUE : limit;
        long problems = 0;
        long verifiedOk = 0;
        long matched = 0;
        try (SegmentReader log = SegmentReader.open(ref.log(), ref.index(), ref.start(), pid, read.maxBatchBytes());
             JsonOut json = output.json ? JsonOut.to(out) : null) {
            long n = log.entries();
            if (json != null) {
                json.g().writeStartObject();
                json.str("schema", "segtool.index/1").str("index", ref.index().toString())
                        .str("log", ref.log().toString()).u64("start_offset", ref.start())
                        .u64("index_bytes", log.indexBytes()).u64("entries", n)
                        .u64("trailing_bytes", log.indexTrailingBytes()).u64("log_bytes", log.length());
                if (known) {
                    json.u64("partition_id", pid);
                } else {
                    json.str("partition_id", null);
                }
                json.g().writeArrayFieldStart("rows");
            } else if (!output.quiet()) {
                out.println(ref.index().getFileName() + ": " + log.indexBytes() + " bytes, " + n + " entries"
                        + (log.indexTrailingBytes() > 0 ? " + " + log.indexTrailingBytes() + " trailing bytes (torn append)"
                        : "") + "; log " + log.length() + " bytes" + (known ? "; partition " + U64.str(pid)
                        : "; partition id unknown (pass --partition-id to check it)"));
            }
            Table table = new Table().col("ENTRY", Table.digits(Math.max(n, 1)), true)
                    .col("OFFSET", Table.digits(Math.max(ref.start(), 1)) + 2, true)
                    .col("TIMESTAMP", 27, false).col("POSITION", Table.digits(Math.max(log.length(), 1)), true)
                    .col("MAPS TO ITS BATCH", 0, false);
            if (json == null && !output.quiet() && n > 0) {
                table.header(out);
            }
            // the structure rules of the engine's index scan (RECOVERY 4.2): the first entry that breaks them
            IndexScan scan = log.scanIndex();
            for (long i = 0; i < n; i++) {
                Cancelled.check();
                IndexEntry e = log.entry(i);
                String structure = i == scan.firstBadEntry() ? scan.structuralReason() : null;
                IndexMapping m = log.check(e, !noVerify);
                boolean ok = structure == null && m.matches() && (m.defect() == null);
                if (!ok) {
                    problems++;
                }
                if (m.matches()) {
                    matched++;
                    if (m.verified() && m.defect() == null) {
                        verifiedOk++;
                    }
                }
                if (i < shown) {
                    if (json != null) {
                        json.g().writeStartObject();
                        json.u64("entry", i).u64("offset", e.offset()).u64("timestamp", e.timestamp())
                                .u64("position", e.position()).bool("matches", m.matches())
                                .str("mismatch", m.mismatch());
                        if (m.verified()) {
                            json.bool("verifies", m.defect() == null)
                                    .str("defect", m.defect() == null ? null : m.defect().describe());
                        } else {
                            json.g().writeNullField("verifies");
                        }
                        json.str("structure", structure);
                        json.g().writeEndObject();
                    } else if (!output.quiet()) {
                        String verdict = (structure != null ? structure + "; " : "") + m.describe();
                        table.row(out, Long.toString(i), U64.str(e.offset()), Times.iso(e.timestamp()),
                                U64.str(e.position()), ok ? verdict : style.paint(Style.Paint.RED, verdict));
                    }
                }
            }
            int exit = ExitCode.reading(problems != 0 || log.indexTrailingBytes() != 0);
            String summary = n + " entries: " + matched + " match their batch header" + (noVerify ? ""
                    : ", " + verifiedOk + " of those verify") + "; " + problems + " with a problem"
                    + (shown < n ? " (showing " + shown + ")" : "");
            if (json != null) {
                json.g().writeEndArray();
                json.g().writeObjectFieldStart("summary");
                json.u64("entries", n).u64("matched", matched).u64("problems", problems);
                if (!noVerify) {
                    json.u64("verified", verifiedOk);
                }
                json.g().writeEndObject();
                json.g().writeNumberField("exit_code", exit);
                json.g().writeEndObject();
            } else {
                out.println(summary);
            }
            out.flush();
            return exit;
        }
    }
}
