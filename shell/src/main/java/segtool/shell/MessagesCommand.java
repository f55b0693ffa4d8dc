package segtool.shell;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.report.ScanJson;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.payload.UserHeaders;
import segtool.shell.inspect.Frames;
import segtool.shell.inspect.LogReader;
import segtool.shell.inspect.MessageView;
import segtool.shell.inspect.PartitionFiles;
import segtool.shell.inspect.PartitionRef;
import segtool.shell.inspect.Seek;
import segtool.shell.inspect.SegmentRef;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.render.Bytes;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Times;

/** {@code messages SEGMENT|PARTITION}: the messages themselves, payloads decoded for people. */
@Command(name = "messages", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Show messages with typed user headers and decoded payloads.",
            "%nPer message: offset, id, server and producer timestamps, typed user headers and the "
                + "payload (UTF-8 text when printable, else hex; LZ4 payloads decoded when the headers say "
                + "iggy-compression: lz4). Starts at --offset (found through the index) or at the beginning, and "
                + "crosses segments when given a partition. Only records that verify are shown; at damage the "
                + "output stops and says where."},
        footer = {"%nExamples:",
            "  segtool messages PARTITION --offset 123456 --limit 5",
            "  segtool messages PARTITION/00000000000000004096.log --format hex",
            "  segtool messages PARTITION --offset 42 --limit 1 --json | jq -r '.messages[0].payload_text'"})
public final class MessagesCommand implements Callable<Integer>, ReadCommand {
    public enum Format { text, hex, json }

    @Parameters(index = "0", paramLabel = "SEGMENT|PARTITION", arity = "0..1",
            description = "A segment (.log/.index file, PARTITION/<start offset>, or a start offset in the shell) "
                    + "or a partition directory. Default: the open path.")
    Path target;

    @Option(names = "--offset", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "First message offset to show. Default: the first message.")
    Long offset;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20",
            description = "Show at most N messages (default ${DEFAULT-VALUE}).")
    long limit;

    @Option(names = "--format", paramLabel = "text|hex|json", defaultValue = "text",
            description = "Payload display: text (UTF-8 when printable, else hex), hex (always a dump), json "
                    + "(pretty-printed when the payload is JSON). Default ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = "--max-bytes", paramLabel = "N", defaultValue = "4096",
            description = "Show at most N bytes of each payload (default ${DEFAULT-VALUE}).")
    int maxBytes;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    private PrintWriter out;
    private Style style;
    private JsonOut json;
    private long shown;
    private String stop;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        style = output.style();
        maxBytes = Math.max(0, Math.min(maxBytes, LogReader.WINDOW));
        PartitionPath partition;
        List<Long> starts;
        boolean single = isSegment(target);
        if (single) {
            SegmentRef ref = SegmentRef.resolve(spec, target, read.partitionId);
            partition = ref.partition();
            starts = List.of(ref.start());
        } else {
            PartitionRef ref = PartitionRef.resolve(spec, target, read.partitionId);
            partition = ref.partition();
            starts = PartitionFiles.starts(ref.directory());
        }
        int first = 0;
        if (offset != null && !single) {
            for (int i = 0; i < starts.size(); i++) {
                if (U64.le(starts.get(i), offset)) {
                    first = i;
                }
            }
        }
        try (JsonOut j = output.json ? JsonOut.to(out) : null) {
            json = j;
            if (json != null) {
                json.g().writeStartObject();
                json.str("schema", "segtool.messages/1").str("path", partition.directory().toString());
                if (offset != null) {
                    json.u64("from_offset", offset);
                } else {
                    json.g().writeNullField("from_offset");
                }
                json.g().writeArrayFieldStart("messages");
            }
            for (int i = first; i < starts.size() && shown < limit && stop == null; i++) {
                segment(partition, starts.get(i));
            }
            int exit = stop == null ? ExitCodes.CLEAN : ExitCodes.CHANGES;
            if (json != null) {
                json.g().writeEndArray();
                json.u64("shown", shown).str("stop", stop);
                json.g().writeNumberField("exit_code", exit);
                json.g().writeEndObject();
            } else {
                if (stop != null) {
                    out.println(style.paint(Style.Paint.RED, "stopped: " + stop));
                }
                if (!output.quiet || stop != null) {
                    out.println(shown + " message(s) shown" + (shown == 0 && offset != null && stop == null
                            ? " (nothing at or after "
                            + "offset " + U64.str(offset) + ")" : ""));
                }
            }
        }
        out.flush();
        return stop == null ? ExitCodes.CLEAN : ExitCodes.CHANGES;
    }

    private static boolean isSegment(Path target) {
        if (target == null) {
            Path open = ShellSession.openPath();
            return open != null && Files.isRegularFile(open) && !ShellSession.isDump(open);
        }
        if (Files.isRegularFile(target)) {
            return !ShellSession.isDump(target);
        }
        return !Files.isDirectory(target);
    }

    private void segment(PartitionPath partition, long start) throws IOException {
        Path logPath = SegmentFiles.log(partition.directory(), start);
        long pid = partition.partitionId();
        try (LogReader log = LogReader.open(logPath, read.maxBatchBytes());
             IndexFile index = IndexFile.open(SegmentFiles.index(partition.directory(), start))) {
            long pos = 0;
            if (offset != null && U64.gt(offset, start)) {
                Seek.Start s = Seek.byOffset(index, log, pid, offset);
                pos = s.position();
                if (s.note() != null && !output.quiet && json == null) {
                    out.println(style.paint(Style.Paint.DIM, SegmentFiles.stem(start) + ": " + s.note()));
                }
            }
            while (U64.lt(pos, log.length()) && shown < limit) {
                Cancelled.check();
                LogReader.At at = log.at(pos);
                if (!at.ok()) {
                    stop = logPath.getFileName() + " @ " + U64.str(pos) + ": " + at.problem();
                    return;
                }
                BatchHeader h = at.header();
                if (h.messageCount() == 0 || (offset != null && U64.lt(h.endOffset(), offset))) {
                    pos = at.end();
                    continue;
                }
                Defect d = log.verify(at);
                long frameLimit = d == null ? Long.MAX_VALUE : d.index();
                boolean frameDefect = d != null && d.code().name().startsWith("FRAME_")
                        || d != null && d.code() == Defect.Code.MESSAGE_CHECKSUM_MISMATCH;
                String walkProblem = Frames.walk(log, at, f -> {
                    if (frameDefect && f.index() >= frameLimit) {
                        return false;
                    }
                    long o = U64.addSat(h.baseOffset(), f.index());
                    if (offset != null && U64.lt(o, offset)) {
                        return true;
                    }
                    show(log, at, f, o, d);
                    shown++;
                    return shown < limit;
                });
                if (d != null) {
                    stop = logPath.getFileName() + " @ " + U64.str(pos) + ": the batch does not verify: "
                            + d.describe() + (frameDefect ? "; messages from " + d.index() + " on are not shown"
                            : "; its messages are shown above, marked");
                    return;
                }
                if (walkProblem != null && shown < limit) {
                    stop = logPath.getFileName() + " @ " + U64.str(pos) + ": " + walkProblem;
                    return;
                }
                pos = at.end();
            }
        }
    }

    private void show(LogReader log, LogReader.At at, Frames.Frame f, long o, Defect d) throws IOException {
        MessageView m = MessageView.read(log, f, o, maxBytes);
        BatchHeader h = at.header();
        long producer = U64.addSat(h.originTimestamp(), f.header().timestampDelta());
        String check = d == null ? "ok" : d.code() == Defect.Code.BATCH_CHECKSUM_MISMATCH
                || d.code() == Defect.Code.FRAME_COUNT_MISMATCH ? "message ok, batch fails: " + d.describe() : "ok";
        if (json != null) {
            json(m, at, producer, check);
            return;
        }
        if (output.quiet) {
            return;
        }
        out.println(style.bold("offset " + U64.str(o)) + "  id " + f.header().id() + "  batch @" + U64.str(
                at.position()) + " message " + f.index() + " of " + U64.str(h.messageCount()) + "  frame @"
                + U64.str(f.position()) + (check.equals("ok") ? "" : "  " + style.paint(Style.Paint.RED, check)));
        out.println("  server time " + Times.iso(h.baseTimestamp()) + "  producer time " + Times.iso(producer));
        if (m.headers() != null && !m.headers().headers().isEmpty()) {
            out.println("  headers: " + MessageView.describe(m.headers().headers()));
        }
        if (m.headersProblem() != null) {
            out.println("  headers: " + style.paint(Style.Paint.YELLOW, m.headersProblem()));
        }
        String what = f.header().payloadLength() + " bytes" + (m.decompressed() ? ", lz4 -> " + m.fullLength()
                + " bytes" : "") + (m.truncated() ? ", first " + m.shown().length + " shown" : "");
        if (m.decodeProblem() != null) {
            out.println("  payload: " + style.paint(Style.Paint.YELLOW, m.decodeProblem()));
        }
        out.println("  payload (" + what + "):" + render(m.shown()));
    }

    private String render(byte[] b) {
        if (b.length == 0) {
            return " (empty)";
        }
        if (format == Format.json) {
            String text = Bytes.printable(b);
            if (text != null) {
                try {
                    JsonNode node = ScanJson.mapper().readTree(text);
                    return "\n" + indent(ScanJson.mapper().writeValueAsString(node));
                } catch (IOException notJson) {
                    return " (not JSON) " + text;
                }
            }
        }
        if (format != Format.hex) {
            String text = Bytes.printable(b);
            if (text != null) {
                return text.contains("\n") ? "\n" + indent(text) : " " + text;
            }
        }
        return "\n" + Bytes.dump(b, 0, "    ").stripTrailing();
    }

    private static String indent(String s) {
        return "    " + s.replace("\n", "\n    ");
    }

    private void json(MessageView m, LogReader.At at, long producer, String check) throws IOException {
        BatchHeader h = at.header();
        Frames.Frame f = m.frame();
        json.g().writeStartObject();
        json.u64("offset", m.offset()).str("id", f.header().id()).u64("batch_position", at.position())
                .u64("frame_position", f.position()).u64("index_in_batch", f.index())
                .u64("server_timestamp", h.baseTimestamp()).u64("producer_timestamp", producer)
                .u64("payload_length", f.header().payloadLength())
                .u64("user_headers_length", f.header().userHeadersLength()).str("check", check);
        json.g().writeArrayFieldStart("user_headers");
        if (m.headers() != null) {
            for (UserHeaders.Header uh : m.headers().headers()) {
                json.g().writeStartObject();
                json.str("key", uh.key().display()).str("key_kind", uh.key().kindName())
                        .str("value", uh.value().display()).str("value_kind", uh.value().kindName());
                json.g().writeEndObject();
            }
        }
        json.g().writeEndArray();
        json.str("user_headers_problem", m.headersProblem()).str("compression", m.compression())
                .bool("decompressed", m.decompressed()).u64("decoded_length", m.fullLength())
                .bool("truncated", m.truncated()).str("decode_problem", m.decodeProblem());
        String text = format == Format.hex ? null : Bytes.printable(m.shown());
        json.str("payload_text", text);
        json.str("payload_base64", Base64.getEncoder().encodeToString(m.shown()));
        json.g().writeEndObject();
    }
}
