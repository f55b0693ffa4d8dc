package segtool.shell;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.inspect.Seek;
import segtool.analyzers.inspect.SegmentReader;
import segtool.analyzers.report.ScanJson;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.FrameHeader;
import segtool.formats.log.MessageView;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.PartitionRef;
import segtool.shell.options.ReadOptions;
import segtool.shell.options.SegmentRef;
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
            "  segtool messages PARTITION --offset 42 --limit 1 --json | jq -r '.messages[0].payload_text'",
            "  segtool messages PARTITION --ndjson > messages.ndjson   # every message, one line each"})
public final class MessagesCommand implements Callable<Integer>, ReadCommand {
    public enum Format { text, hex, json }

    /** The first line of {@code --ndjson}; its records are documented in docs/json.md. */
    public static final String NDJSON_SCHEMA = "segtool.messages-ndjson/1";

    /**
     * Each section of a message is copied up to this many bytes: a whole LZ4 payload up to this size can be decoded,
     * and --max-bytes is capped at it.
     */
    private static final int COPY_CAP = SegmentReader.WINDOW;
    /** User headers larger than this are not decoded for display. */
    private static final int MAX_HEADER_BYTES = 64 * 1024;
    /** Display cap for decompressed payloads; the example consumer's own cap is 64,000,000 bytes. */
    private static final int MAX_DECOMPRESSED = 16 << 20;

    @Parameters(index = "0", paramLabel = "SEGMENT|PARTITION", arity = "0..1",
            description = "A segment (.log/.index file, PARTITION/<start offset>, or in the shell an offset: the segment holding it) "
                    + "or a partition directory. Default: the open path.")
    Path target;

    @Option(names = "--offset", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "First message offset to show. Default: the first message.")
    Long offset;

    /** Messages shown without --limit, except with --ndjson (a stream for machines: all of them). */
    static final long DEFAULT_LIMIT = 20;

    @Option(names = "--limit", paramLabel = "N",
            description = "Show at most N messages. Default " + DEFAULT_LIMIT + "; with --ndjson, all of them.")
    Long limit;

    @Option(names = "--format", paramLabel = "text|hex|json", defaultValue = "text",
            description = "Payload display: text (UTF-8 when printable, else hex), hex (always a dump), json "
                    + "(pretty-printed when the payload is JSON). Default ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = "--max-bytes", paramLabel = "N", defaultValue = "4096",
            description = "Show at most N bytes of each payload (default ${DEFAULT-VALUE}).")
    int maxBytes;

    @Option(names = "--ndjson", description = "Print newline-delimited JSON as the walk goes: a start line, one "
            + "line per message as it is read, a summary line with exit_code (docs/json.md). For runs too large to "
            + "hold as one document: without --limit it streams every message, in the memory of one read window.")
    boolean ndjson;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (ndjson && output.json) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--json and --ndjson are "
                    + "exclusive: --json prints one document, --ndjson one line per message");
        }
        return new Walk().run();
    }

    /**
     * One run's state: the walk position, what was shown, where it stopped. picocli resets only annotated fields
     * between runs in the shell, so none of this may live in the command itself.
     */
    private final class Walk {
        private PrintWriter out;
        private Style style;
        /** The --json document or --ndjson stream once started ({@link #open}); null until then, and for text. */
        private JsonOut json;
        /** --json or --ndjson: messages go to {@link #json}, not to text. */
        private final boolean machine = output.json || ndjson;
        private PartitionPath partition;
        private long shown;
        private String stop;
        /** An index entry the seek started from did not match its batch (an inconsistency, exit 1). */
        private boolean mismatch;
        /** --limit, or its default: every message for --ndjson, else {@link #DEFAULT_LIMIT}. */
        private final long cap = limit != null ? limit : ndjson ? Long.MAX_VALUE : DEFAULT_LIMIT;

        Integer run() throws Exception {
            out = spec.commandLine().getOut();
            style = output.style();
            maxBytes = Math.max(0, Math.min(maxBytes, COPY_CAP));
            List<Long> starts;
            boolean single = isSegment(ShellSession.onDisk(spec, target),
                    ShellSession.onDisk(spec, ShellSession.of(spec).openPath()));
            if (single) {
                SegmentRef ref = SegmentRef.resolve(spec, target, read.partitionId);
                partition = ref.partition();
                starts = List.of(ref.start());
                Long bare = target == null ? null : U64.parse(target.toString());
                if (offset == null && bare != null && bare != ref.start()) {
                    // a bare offset inside a segment (in the shell): its messages from that offset on
                    offset = bare;
                }
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
            int exit;
            try {
                for (int i = first; i < starts.size() && shown < cap && stop == null; i++) {
                    segment(partition, starts.get(i));
                }
                exit = ExitCode.reading(stop != null || mismatch);
                // with --limit 0 nothing is walked, so nothing says whether the offset is in the data
                boolean beyond = cap > 0 && shown == 0 && offset != null && stop == null;
                if (beyond) {
                    // a usage error: one line on stderr, and with --json or --ndjson no document (docs/json.md);
                    // nothing of one was written, since its start waits for the first message
                    exit = ExitCodes.notInData(spec.commandLine().getErr(), "offset " + U64.str(offset)
                            + " is past the end of " + (single ? "the segment" : "the partition") + ": nothing at "
                            + "or after it");
                }
                if (!machine) {
                    if (stop != null) {
                        out.println(style.paint(Style.Paint.RED, "stopped: " + stop));
                    }
                    if (!output.quiet() || stop != null) {
                        out.println(shown + " message(s) shown" + (cap == 0 ? " (stopped at --limit)" : shown == 0
                                && offset != null && stop == null ? " (nothing at or after offset " + U64.str(offset)
                                + ")" : ""));
                    }
                } else if (!beyond) {
                    open();
                    if (ndjson) {
                        json.startRecord("summary");
                        json.u64("shown", shown).str("stop", stop);
                        json.g().writeNumberField("exit_code", exit);
                        json.endRecord();
                    } else {
                        json.g().writeEndArray();
                        json.u64("shown", shown).str("stop", stop);
                        json.g().writeNumberField("exit_code", exit);
                        json.g().writeEndObject();
                    }
                }
            } finally {
                if (json != null) {
                    json.close();
                }
                out.flush();
            }
            return exit;
        }

        /**
         * Starts the --json document or the --ndjson stream, once: before the first message, or at the end when
         * there was none and the run is not a usage error (which prints no document).
         */
        private void open() throws IOException {
            if (json != null) {
                return;
            }
            if (ndjson) {
                json = JsonOut.ndjson(out);
                json.g().writeStartObject();
                json.str("schema", NDJSON_SCHEMA).str("type", "start")
                        .str("path", partition.directory().toString());
                if (offset != null) {
                    json.u64("from_offset", offset);
                } else {
                    json.g().writeNullField("from_offset");
                }
                json.endRecord();
            } else {
                json = JsonOut.to(out);
                json.g().writeStartObject();
                json.str("schema", "segtool.messages/1").str("path", partition.directory().toString());
                if (offset != null) {
                    json.u64("from_offset", offset);
                } else {
                    json.g().writeNullField("from_offset");
                }
                json.g().writeArrayFieldStart("messages");
            }
        }

        private static boolean isSegment(Path target, Path open) {
            if (target == null) {
                return open != null && Files.isRegularFile(open);
            }
            if (Files.isRegularFile(target)) {
                return true;
            }
            return !Files.isDirectory(target);
        }

        private void segment(PartitionPath partition, long start) throws IOException {
            Path logPath = SegmentFiles.log(partition.directory(), start);
            long pid = partition.partitionId();
            try (SegmentReader log = SegmentReader.open(logPath, SegmentFiles.index(partition.directory(), start),
                    start, pid, read.maxBatchBytes())) {
                long pos = 0;
                if (offset != null && U64.gt(offset, start)) {
                    Seek.Start s = Seek.byOffset(log, offset);
                    pos = s.position();
                    mismatch |= s.mismatch();
                    if (s.note() != null && !output.quiet() && !machine) {
                        out.println(style.paint(Style.Paint.DIM, SegmentFiles.stem(start) + ": " + s.note()));
                    }
                }
                log.seek(pos);
                while (shown < cap) {
                    Cancelled.check();
                    SegmentReader.Batch b = log.next();
                    if (b == null) {
                        if (log.problem() != null) {
                            stop = logPath.getFileName() + " @ " + U64.str(log.position()) + ": " + log.problem();
                        }
                        return;
                    }
                    BatchHeader h = b.header();
                    if (h.messageCount() == 0 || (offset != null && U64.lt(h.endOffset(), offset))) {
                        continue;
                    }
                    Defect d = log.verify(b);
                    long frameLimit = d == null ? Long.MAX_VALUE : d.index();
                    boolean frameDefect = d != null && d.code().name().startsWith("FRAME_")
                            || d != null && d.code() == Defect.Code.MESSAGE_CHECKSUM_MISMATCH;
                    Defect walk;
                    try {
                        walk = log.messages(b, COPY_CAP, m -> {
                            Cancelled.check();
                            if (frameDefect && m.index() >= frameLimit) {
                                return false;
                            }
                            // F 2.2: message i's offset is base_offset + offset_delta(i) (the reference encoders
                            // write delta = i, which is what the seek by batch ranges relies on)
                            long o = m.offset();
                            if (offset != null && U64.lt(o, offset)) {
                                return true;
                            }
                            show(b, m, o, d);
                            shown++;
                            return shown < cap;
                        });
                    } catch (UncheckedIOException e) {
                        throw e.getCause();
                    }
                    if (d != null) {
                        stop = logPath.getFileName() + " @ " + U64.str(b.position()) + ": the batch does not verify: "
                                + d.describe() + (frameDefect ? "; messages from " + d.index() + " on are not shown"
                                : "; its messages are shown above, marked");
                        return;
                    }
                    if (walk != null && shown < cap) {
                        stop = logPath.getFileName() + " @ " + U64.str(b.position()) + ": " + SegmentReader.describe(walk);
                        return;
                    }
                }
            }
        }

        /** Prints one message; an output failure surfaces as {@link UncheckedIOException} (it runs inside the walk). */
        private void show(SegmentReader.Batch b, MessageView m, long o, Defect d) {
            BatchHeader h = b.header();
            Payload p = Payload.of(m, maxBytes);
            String check = d == null ? "ok" : d.code() == Defect.Code.BATCH_CHECKSUM_MISMATCH
                    || d.code() == Defect.Code.FRAME_COUNT_MISMATCH ? "message ok, batch fails: " + d.describe() : "ok";
            if (machine) {
                try {
                    open();
                    json(b, m, o, p, check);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return;
            }
            if (output.quiet()) {
                return;
            }
            out.println(style.bold("offset " + U64.str(o)) + "  id " + m.id() + "  batch @" + U64.str(b.position())
                    + " message " + m.index() + " of " + U64.str(h.messageCount()) + "  frame @" + U64.str(m.position())
                    + (check.equals("ok") ? "" : "  " + style.paint(Style.Paint.RED, check)));
            out.println("  server time " + Times.iso(h.baseTimestamp()) + "  producer time "
                    + Times.iso(m.timestamp()));
            if (p.headers() != null && !p.headers().headers().isEmpty()) {
                out.println("  headers: " + describe(p.headers().headers()));
            }
            if (p.headersProblem() != null) {
                out.println("  headers: " + style.paint(Style.Paint.YELLOW, p.headersProblem()));
            }
            String what = m.frame().payloadLength() + " bytes" + (p.decompressed() ? ", lz4 -> " + p.fullLength()
                    + " bytes" : "") + (p.truncated() ? ", first " + p.shown().length + " shown" : "");
            if (p.decodeProblem() != null) {
                out.println("  payload: " + style.paint(Style.Paint.YELLOW, p.decodeProblem()));
            }
            // --max-bytes 0 shows none of a payload that has bytes: the count says so, and nothing follows it
            // ("(empty)" is for a payload of no bytes)
            out.println("  payload (" + what + ")" + (p.shown().length == 0 && p.truncated() ? ""
                    : ":" + render(p.shown())));
        }

        /**
         * What is shown of one message: its user headers when the section is small enough to decode here, and at most
         * {@code maxBytes} of its payload, LZ4-decoded when the headers say {@code iggy-compression: lz4} and the
         * compressed payload was copied whole (it is, up to {@link #COPY_CAP}) and decodes within
         * {@link #MAX_DECOMPRESSED}.
         */
        private record Payload(UserHeaders.Decoded headers, String headersProblem, String compression, byte[] shown,
                               long fullLength, boolean decompressed, String decodeProblem) {
            /** True when {@link #shown} holds less than the whole (decoded) payload. */
            boolean truncated() {
                return shown.length < fullLength;
            }

            static Payload of(MessageView m, int maxBytes) {
                long headersLength = m.frame().userHeadersLength();
                UserHeaders.Decoded headers = null;
                String headersProblem = null;
                if (headersLength > 0) {
                    if (headersLength <= MAX_HEADER_BYTES) {
                        headers = m.headers();
                        headersProblem = headers.problem();
                    } else {
                        headersProblem = headersLength + " bytes of user headers, too many to decode here";
                    }
                }
                String compression = headers == null ? null : Payloads.compression(headers.headers());
                long length = m.frame().payloadLength();
                byte[] stored = m.payload();
                if ("lz4".equals(compression)) {
                    if (!m.payloadComplete()) {
                        return new Payload(headers, headersProblem, compression, cut(stored, maxBytes), length, false,
                                "lz4 payload of " + length + " bytes is too large to decode here; shown compressed");
                    }
                    try {
                        byte[] plain = m.plainPayload(MAX_DECOMPRESSED);
                        return new Payload(headers, headersProblem, compression, cut(plain, maxBytes), plain.length,
                                true, null);
                    } catch (Payloads.DecodeException e) {
                        return new Payload(headers, headersProblem, compression, cut(stored, maxBytes), length, false,
                                e.getMessage() + "; shown compressed");
                    }
                }
                return new Payload(headers, headersProblem, compression, cut(stored, maxBytes), length, false, null);
            }

            private static byte[] cut(byte[] b, int max) {
                return b.length > max ? Arrays.copyOf(b, max) : b;
            }
        }

        /** {@code key (string) = value (uint32)} for each header. */
        private static String describe(List<UserHeaders.Header> headers) {
            StringBuilder b = new StringBuilder();
            for (UserHeaders.Header h : headers) {
                if (b.length() > 0) {
                    b.append(", ");
                }
                b.append(item(h.key())).append(" = ").append(item(h.value()));
            }
            return b.toString();
        }

        private static String item(UserHeaders.Item i) {
            String v = i.display();
            if (i.kind() == HeaderKind.STRING) {
                v = "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            }
            return v + " (" + i.kindName() + ")";
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

        private void json(SegmentReader.Batch b, MessageView m, long o, Payload p, String check) throws IOException {
            BatchHeader h = b.header();
            FrameHeader f = m.frame();
            if (ndjson) {
                json.startRecord("message");
            } else {
                json.g().writeStartObject();
            }
            json.u64("offset", o).str("id", m.id()).u64("batch_position", b.position())
                    .u64("frame_position", m.position()).u64("index_in_batch", m.index())
                    .u64("server_timestamp", h.baseTimestamp()).u64("producer_timestamp", m.timestamp())
                    .u64("payload_length", f.payloadLength())
                    .u64("user_headers_length", f.userHeadersLength()).str("check", check);
            json.g().writeArrayFieldStart("user_headers");
            if (p.headers() != null) {
                for (UserHeaders.Header uh : p.headers().headers()) {
                    json.g().writeStartObject();
                    json.str("key", uh.key().display()).str("key_kind", uh.key().kindName())
                            .str("value", uh.value().display()).str("value_kind", uh.value().kindName());
                    json.g().writeEndObject();
                }
            }
            json.g().writeEndArray();
            json.str("user_headers_problem", p.headersProblem()).str("compression", p.compression())
                    .bool("decompressed", p.decompressed()).u64("decoded_length", p.fullLength())
                    .bool("truncated", p.truncated()).str("decode_problem", p.decodeProblem());
            String text = format == Format.hex ? null : Bytes.printable(p.shown());
            json.str("payload_text", text);
            json.str("payload_base64", Base64.getEncoder().encodeToString(p.shown()));
            if (ndjson) {
                json.endRecord();
            } else {
                json.g().writeEndObject();
            }
        }
    }
}
