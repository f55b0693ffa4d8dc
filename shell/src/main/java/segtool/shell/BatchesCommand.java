package segtool.shell;

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
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inspect.IndexMapping;
import segtool.analyzers.inspect.SegmentReader;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.options.SegmentRef;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Table;
import segtool.shell.render.Times;
import segtool.formats.io.Hex;

/** {@code batches SEGMENT}: the batch records of a log, one per line, with each checksum verdict. */
@Command(name = "batches", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"List a segment's batch records with offsets, timestamps and checksum status.",
            "%nPer record: position, length, offsets, message count, "
                + "timestamps and whether the record verifies (F 2.5: header, frame tiling, per-message and batch "
                + "XXH3). The walk follows batch_length from header to header; a record that fails its checksum is "
                + "marked and the walk goes on, but a header that does not decode or a length that runs past the end "
                + "stops it, and the output says where and why."},
        footer = {"%nExamples:",
            "  segtool batches PARTITION/00000000000000000000.log",
            "  segtool batches PARTITION/4096 --from 1048576 --limit 10",
            "  segtool batches PARTITION/0 --ndjson | jq -c 'select(.type == \"batch\" and .verifies == false)'"})
public final class BatchesCommand implements Callable<Integer>, ReadCommand {
    /** The first line of {@code --ndjson}; its records are documented in docs/json.md. */
    public static final String NDJSON_SCHEMA = "segtool.batches-ndjson/1";

    @Parameters(index = "0", paramLabel = "SEGMENT", arity = "0..1",
            description = "Segment: its .log or .index file, PARTITION/<start offset>, or (in the shell) a start "
                    + "offset of the open partition.")
    Path segment;

    @Option(names = "--from", paramLabel = "POSITION", converter = Numbers.U64Converter.class,
            description = "Start at this byte position (a batch boundary, e.g. from `index` or `explain`). Default 0.")
    Long from;

    @Option(names = "--limit", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "Stop after N batches.")
    Long limit;

    @Option(names = "--no-verify", description = "Headers only: skip checksum verification (faster).")
    boolean noVerify;

    @Option(names = "--ndjson", description = "Print newline-delimited JSON as the walk goes: a start line, one "
            + "line per batch as it is read, a summary line with exit_code (docs/json.md). For logs too large to "
            + "hold as one document.")
    boolean ndjson;

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
        long max = limit == null ? Long.MAX_VALUE : limit;
        if (ndjson && output.json) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--json and --ndjson are exclusive: "
                    + "--json prints one document, --ndjson one line per batch");
        }
        try (SegmentReader log = SegmentReader.open(ref.log(), ref.index(), ref.start(), pid, read.maxBatchBytes());
             JsonOut json = output.json ? JsonOut.to(out) : ndjson ? JsonOut.ndjson(out) : null) {
            long pos = from == null ? 0 : from;
            if (pos != 0 && U64.ge(pos, log.length())) {
                return ExitCodes.notInData(spec.commandLine().getErr(), ref.log() + ": position " + U64.str(pos)
                        + " is at or past the end of the log (" + U64.str(log.length()) + " bytes)");
            }
            if (ndjson) {
                json.g().writeStartObject();
                json.str("schema", NDJSON_SCHEMA).str("type", "start").str("log", ref.log().toString())
                        .u64("start_offset", ref.start()).u64("log_bytes", log.length()).u64("from", pos);
                json.endRecord();
            } else if (json != null) {
                json.g().writeStartObject();
                json.str("schema", "segtool.batches/1").str("log", ref.log().toString())
                        .u64("start_offset", ref.start()).u64("log_bytes", log.length()).u64("from", pos);
                json.g().writeArrayFieldStart("batches");
            } else if (!output.quiet()) {
                out.println(ref.log().getFileName() + ": " + log.length() + " bytes" + (known ? "; partition "
                        + U64.str(pid) : "; partition id unknown (pass --partition-id to check it)")
                        + (noVerify ? "; headers only, checksums not verified" : ""));
            }
            Table table = new Table().col("POSITION", Table.digits(Math.max(log.length(), 1)), true)
                    .col("LENGTH", 7, true).col("BASE OFFSET", Table.digits(Math.max(ref.start(), 1)) + 2, true)
                    .col("LAST OFFSET", Table.digits(Math.max(ref.start(), 1)) + 2, true).col("MSGS", 5, true)
                    .col("BASE TIMESTAMP", 27, false).col("CHECK", 0, false);
            if (json == null && !output.quiet()) {
                table.header(out);
            }
            long entry = 0;
            long entries = log.entries();
            long count = 0;
            long messages = 0;
            long failed = 0;
            long firstOffset = -1;
            long lastOffset = -1;
            long expected = pos == 0 ? ref.start() : -1;
            String stop = null;
            log.seek(pos);
            while (count < max) {
                Cancelled.check();
                SegmentReader.Batch b = log.next();
                if (b == null) {
                    stop = log.problem();
                    break;
                }
                pos = b.position();
                BatchHeader h = b.header();
                Defect d = noVerify ? null : log.verify(b);
                List<String> notes = new ArrayList<>();
                while (entry < entries && U64.lt(log.entry(entry).position(), pos)) {
                    entry++;
                }
                long indexed = entry < entries && log.entry(entry).position() == pos ? entry : -1;
                if (indexed >= 0) {
                    // the engine's Matches on the entry that points here: what boot would say of it
                    IndexMapping m = log.check(log.entry(indexed), false);
                    notes.add("index entry " + indexed + (m.matches() ? "" : " (" + m.mismatch() + ")"));
                }
                if (known && h.partitionId() != pid) {
                    notes.add("partition_id " + U64.str(h.partitionId()) + ", not " + U64.str(pid));
                }
                if (expected != -1 && h.baseOffset() != expected) {
                    notes.add("base_offset " + U64.str(h.baseOffset()) + " where " + U64.str(expected)
                            + " is expected");
                }
                if (h.messageCount() == 0) {
                    notes.add("empty batch");
                }
                String check = noVerify ? "-" : d == null ? "ok" : d.describe();
                if (d != null) {
                    failed++;
                }
                if (h.messageCount() > 0) {
                    messages += h.messageCount();
                    if (firstOffset == -1) {
                        firstOffset = h.baseOffset();
                    }
                    lastOffset = h.endOffset();
                }
                expected = h.nextOffset();
                if (json != null) {
                    if (ndjson) {
                        json.startRecord("batch");
                    } else {
                        json.g().writeStartObject();
                    }
                    json.u64("position", pos).u64("length", h.batchLength()).u64("partition_id", h.partitionId())
                            .u64("base_offset", h.baseOffset()).u64("message_count", h.messageCount());
                    if (h.messageCount() > 0) {
                        json.u64("last_offset", h.endOffset());
                    } else {
                        json.g().writeNullField("last_offset");
                    }
                    json.u64("base_timestamp", h.baseTimestamp()).u64("origin_timestamp", h.originTimestamp())
                            .str("batch_checksum", Hex.u64Upper(h.batchChecksum()));
                    if (noVerify) {
                        json.g().writeNullField("verifies");
                    } else {
                        json.bool("verifies", d == null);
                    }
                    json.str("defect", d == null ? null : d.describe());
                    json.g().writeArrayFieldStart("notes");
                    for (String n : notes) {
                        json.g().writeString(n);
                    }
                    json.g().writeEndArray();
                    if (ndjson) {
                        json.endRecord();
                    } else {
                        json.g().writeEndObject();
                    }
                } else if (!output.quiet()) {
                    String tail = check + (notes.isEmpty() ? "" : "  [" + String.join("; ", notes) + "]");
                    table.row(out, U64.str(pos), U64.str(h.batchLength()), U64.str(h.baseOffset()),
                            h.messageCount() > 0 ? U64.str(h.endOffset()) : "-", U64.str(h.messageCount()),
                            Times.iso(h.baseTimestamp()), d == null && (!known || h.partitionId() == pid) ? tail
                            : style.paint(Style.Paint.RED, tail));
                }
                count++;
            }
            pos = log.position();
            long notWalked = U64.subSat(log.length(), pos);
            boolean limited = stop == null && count >= max && U64.lt(pos, log.length());
            int exit = ExitCode.reading(failed != 0 || stop != null && !limited);
            String range = firstOffset == -1 ? "no messages" : "offsets " + U64.str(firstOffset) + ".."
                    + U64.str(lastOffset);
            if (ndjson) {
                json.startRecord("summary");
                json.u64("batches", count).u64("messages", messages).u64("failed", failed).u64("walked_to", pos)
                        .u64("not_walked_bytes", notWalked).str("stop", stop).bool("limited", limited);
                json.g().writeNumberField("exit_code", exit);
                json.endRecord();
            } else if (json != null) {
                json.g().writeEndArray();
                json.g().writeObjectFieldStart("summary");
                json.u64("batches", count).u64("messages", messages).u64("failed", failed).u64("walked_to", pos)
                        .u64("not_walked_bytes", notWalked).str("stop", stop).bool("limited", limited);
                json.g().writeEndObject();
                json.g().writeNumberField("exit_code", exit);
                json.g().writeEndObject();
            } else {
                if (stop != null) {
                    boolean atStart = count == 0 && from != null && from != 0;
                    out.println(style.paint(Style.Paint.RED, "stopped at " + U64.str(pos) + ": " + stop) + "; "
                            + U64.str(notWalked) + " bytes not walked" + (atStart ? " (is " + U64.str(from)
                            + " a batch boundary? `index` lists entry positions)"
                            : " (`explain` says whether anything after them survives)"));
                }
                out.println(count + " batches, " + messages + " messages, " + range + " in [" + U64.str(from == null
                        ? 0 : from) + ", " + U64.str(pos) + ")" + (noVerify ? "" : "; " + failed
                        + " fail verification") + (limited ? "; stopped at --limit" : ""));
            }
            out.flush();
            return exit;
        }
    }
}
