package segtool.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inputs.ConsumerOffsets;
import segtool.analyzers.inspect.HeaderWalk;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.inspect.SegmentReader;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.render.Bytes;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Table;
import segtool.shell.render.Times;

/** {@code stats PATH}: how much a partition holds, by walking batch headers. */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Count segments, batches, messages, offsets and time range (headers only).",
            "%nCounts what a data directory, partition or segment holds by walking batch headers from byte 0: "
                + "segments, bytes, index density, batches (and empty ones), messages, offsets, time range, batch "
                + "sizes. Checksums are not computed (use scan or explain for that); a walk that cannot reach the end "
                + "of a log says where it stopped."},
        footer = {"%nExamples:",
            "  segtool stats /var/lib/iggy/local_data",
            "  segtool stats PARTITION --segments"})
public final class StatsCommand implements Callable<Integer>, ReadCommand {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Data directory, partition directory or segment file. Default: the open path.")
    Path path;

    @Option(names = "--segments", description = "Also list each segment's numbers.")
    boolean perSegment;

    @Mixin
    segtool.shell.options.Selection selection;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** Counts for one segment, or summed over many. */
    private static final class Counts {
        long segments;
        long logBytes;
        long indexBytes;
        long entries;
        long batches;
        long empty;
        long messages;
        long firstOffset = -1;
        long lastOffset = -1;
        long minTs = -1;
        long maxTs = -1;
        long maxBatch;
        long walked;
        final List<String> stops = new ArrayList<>();

        void add(Counts c) {
            segments += c.segments;
            logBytes += c.logBytes;
            indexBytes += c.indexBytes;
            entries += c.entries;
            batches += c.batches;
            empty += c.empty;
            messages += c.messages;
            if (c.firstOffset != -1 && (firstOffset == -1 || U64.lt(c.firstOffset, firstOffset))) {
                firstOffset = c.firstOffset;
            }
            if (c.lastOffset != -1 && (lastOffset == -1 || U64.gt(c.lastOffset, lastOffset))) {
                lastOffset = c.lastOffset;
            }
            if (c.minTs != -1 && (minTs == -1 || c.minTs < minTs)) {
                minTs = c.minTs;
            }
            maxTs = Math.max(maxTs, c.maxTs);
            maxBatch = Math.max(maxBatch, c.maxBatch);
            walked += c.walked;
            stops.addAll(c.stops);
        }
    }

    @Override
    public Integer call() throws Exception {
        Path target = ShellSession.resolve(spec, path);
        Targets t = selection.apply(ShellSession.targets(spec, target));
        PrintWriter out = spec.commandLine().getOut();
        Style style = output.style();
        Counts total = new Counts();
        int exit = ExitCodes.CLEAN;
        try (JsonOut json = output.json ? JsonOut.to(out) : null) {
            if (json != null) {
                json.g().writeStartObject();
                json.str("schema", "segtool.stats/1").str("path", target.toString());
                json.g().writeArrayFieldStart("partitions");
            }
            for (PartitionPath p : t.partitions()) {
                List<Long> starts = t.segment() != null ? List.of(t.segment()) : PartitionFiles.starts(p.directory());
                Counts sum = new Counts();
                List<Counts> each = new ArrayList<>();
                for (long s : starts) {
                    Counts c = segment(p.directory(), s);
                    each.add(c);
                    sum.add(c);
                }
                total.add(sum);
                exit = ExitCode.combine(exit, ExitCode.reading(!sum.stops.isEmpty()));
                List<ConsumerOffsets.Entry> offsets = ConsumerOffsets.list(p.directory());
                Long end = sum.firstOffset == -1 ? null : sum.lastOffset;
                if (json != null) {
                    json.g().writeStartObject();
                    json.str("path", p.directory().toString());
                    counts(json, sum);
                    json.g().writeArrayFieldStart("consumer_offsets");
                    for (ConsumerOffsets.Entry e : offsets) {
                        json.g().writeStartObject();
                        json.str("kind", e.kind()).str("id", e.id()).str("state", e.state().name().toLowerCase());
                        if (e.offset() == null) {
                            json.g().writeNullField("offset");
                        } else {
                            json.u64("offset", e.offset());
                        }
                        json.g().writeBooleanField("above_last_offset", e.aboveChainEnd(end));
                        json.g().writeEndObject();
                    }
                    json.g().writeEndArray();
                    if (perSegment) {
                        json.g().writeArrayFieldStart("segments");
                        for (int i = 0; i < starts.size(); i++) {
                            json.g().writeStartObject();
                            json.u64("start_offset", starts.get(i));
                            counts(json, each.get(i));
                            json.g().writeEndObject();
                        }
                        json.g().writeEndArray();
                    }
                    json.g().writeEndObject();
                } else {
                    out.println(style.bold(p.directory().toString()));
                    print(out, sum, "  ");
                    if (!offsets.isEmpty()) {
                        List<String> parts = new ArrayList<>();
                        offsets.forEach(e -> parts.add(e.describe(end)));
                        out.println("  consumers  " + String.join(", ", parts));
                    }
                    if (perSegment && !each.isEmpty()) {
                        table(out, starts, each);
                    }
                }
            }
            if (json != null) {
                json.g().writeEndArray();
                json.g().writeObjectFieldStart("total");
                json.u64("partitions", t.partitions().size());
                counts(json, total);
                json.g().writeEndObject();
                json.g().writeNumberField("exit_code", exit);
                json.g().writeEndObject();
            } else if (t.partitions().size() > 1) {
                out.println(style.bold("Total over " + t.partitions().size() + " partitions"));
                print(out, total, "  ");
            }
        }
        if (!output.json) {
            out.println("(batch headers only; checksums not computed: `scan` or `explain` give the verdict)");
        }
        out.flush();
        return exit;
    }

    private Counts segment(Path dir, long start) throws IOException {
        Counts c = new Counts();
        c.segments = 1;
        try (SegmentReader log = SegmentReader.open(SegmentFiles.log(dir, start), SegmentFiles.index(dir, start),
                start, read.partitionId != null ? read.partitionId : PartitionPath.of(dir).partitionId(),
                read.maxBatchBytes())) {
            c.logBytes = log.length();
            c.indexBytes = log.indexBytes();
            c.entries = log.entries();
            HeaderWalk.Summary w = HeaderWalk.walk(log, 0);
            c.batches = w.batches();
            c.empty = w.emptyBatches();
            c.messages = w.messages();
            c.firstOffset = w.firstOffset();
            c.lastOffset = w.lastOffset();
            c.minTs = w.minTimestamp();
            c.maxTs = w.maxTimestamp();
            c.maxBatch = w.maxBatchLength();
            c.walked = w.to();
            if (!w.reachedEnd()) {
                c.stops.add(SegmentFiles.stem(start) + ".log @ " + U64.str(w.to()) + ": " + w.stop());
            }
        }
        return c;
    }

    private static void print(PrintWriter out, Counts c, String in) {
        out.println(in + "segments   " + c.segments + ", log " + Bytes.count(c.logBytes) + ", index "
                + Bytes.count(c.indexBytes) + " (" + c.entries + " entries" + (c.entries > 0 ? ", one per "
                + c.logBytes / c.entries + " log bytes" : "") + ")");
        out.println(in + "batches    " + c.batches + (c.empty > 0 ? " (" + c.empty + " empty)" : "")
                + (c.batches > 0 ? ", " + Bytes.count(c.walked / c.batches) + " on average, largest " + Bytes.count(c.maxBatch) : ""));
        out.println(in + "messages   " + c.messages + (c.batches > 0 ? String.format(", %.1f per batch",
                (double) c.messages / c.batches) : "") + (c.firstOffset != -1 ? ", offsets "
                + U64.str(c.firstOffset) + ".." + U64.str(c.lastOffset) : ""));
        if (c.minTs != -1) {
            out.println(in + "time       " + Times.iso(c.minTs) + " .. " + Times.iso(c.maxTs) + " ("
                    + Times.span(c.maxTs - c.minTs) + ", base timestamps)");
        }
        if (c.stops.isEmpty()) {
            out.println(in + "walked     every byte: " + Bytes.count(c.walked));
        } else {
            out.println(in + "walked     " + c.walked + " of " + Bytes.count(c.logBytes) + "; stopped in "
                    + c.stops.size() + " segment(s):");
            for (String s : c.stops) {
                out.println(in + "  " + s);
            }
        }
    }

    private static void table(PrintWriter out, List<Long> starts, List<Counts> each) {
        int logWidth = 10;
        for (Counts c : each) {
            logWidth = Math.max(logWidth, Bytes.size(c.logBytes).length());
        }
        Table t = new Table().col("SEGMENT", 20, false).col("LOG BYTES", logWidth, true).col("BATCHES", 8, true)
                .col("MESSAGES", 9, true).col("OFFSETS", 0, false);
        t.header(out);
        for (int i = 0; i < starts.size(); i++) {
            Counts c = each.get(i);
            t.row(out, SegmentFiles.stem(starts.get(i)), Bytes.size(c.logBytes), Long.toString(c.batches),
                    Long.toString(c.messages), c.firstOffset == -1 ? "-" : U64.str(c.firstOffset) + ".."
                    + U64.str(c.lastOffset) + (c.stops.isEmpty() ? "" : "  (walk stopped at " + c.walked + ")"));
        }
    }

    private static void counts(JsonOut j, Counts c) throws IOException {
        j.u64("segments", c.segments).u64("log_bytes", c.logBytes).u64("index_bytes", c.indexBytes)
                .u64("index_entries", c.entries).u64("batches", c.batches).u64("empty_batches", c.empty)
                .u64("messages", c.messages);
        if (c.firstOffset != -1) {
            j.u64("first_offset", c.firstOffset).u64("last_offset", c.lastOffset).u64("min_timestamp", c.minTs)
                    .u64("max_timestamp", c.maxTs);
        }
        j.u64("max_batch_length", c.maxBatch).u64("walked_bytes", c.walked);
        j.g().writeArrayFieldStart("stops");
        for (String s : c.stops) {
            j.g().writeString(s);
        }
        j.g().writeEndArray();
    }
}
