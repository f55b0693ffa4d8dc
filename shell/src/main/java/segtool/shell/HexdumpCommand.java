package segtool.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.inspect.SegmentReader;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.Hex;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.FrameHeader;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.options.SegmentRef;
import segtool.shell.render.Bytes;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Times;

/** {@code hexdump SEGMENT POSITION [LENGTH]}: raw bytes of a log with the record fields they hold. */
@Command(name = "hexdump", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Dump bytes of a log with the batch and frame fields they hold.",
            "%nBytes come 16 per line, with the fields that start on each line named: "
                + "batch header fields (partition_id, base_offset, timestamps, batch_length, checksum, "
                + "message_count, reserved) and frame header fields, payloads and user headers. Record boundaries "
                + "come from the index entry at or below POSITION and the chain of batch_length values from there; "
                + "where that chain breaks, the would-be header is shown with what is wrong with it."},
        footer = {"%nPOSITION and LENGTH are decimal or 0x hex; LENGTH defaults to 256. The dump is read in windows,",
            "so any length is safe; it ends at the end of the log.",
            "%nExamples:",
            "  segtool hexdump PARTITION/00000000000000000000.log 1048576",
            "  segtool hexdump PARTITION/4096 0x1f400 512"})
public final class HexdumpCommand implements Callable<Integer>, PlainCommand {
    private static final int CHUNK = 4096;
    private static final long MAX_JSON_BYTES = 1 << 20;

    @Parameters(index = "0", paramLabel = "SEGMENT",
            description = "Segment: its .log or .index file, PARTITION/<start offset>, or (in the shell) a start "
                    + "offset of the open partition.")
    Path segment;

    @Parameters(index = "1", paramLabel = "POSITION", converter = Numbers.U64Converter.class,
            description = "Byte position in the log to start at.")
    long position;

    @Parameters(index = "2", paramLabel = "LENGTH", arity = "0..1", defaultValue = "256",
            converter = Numbers.U64Converter.class, description = "Bytes to dump (default ${DEFAULT-VALUE}).")
    long length;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SegmentRef ref = SegmentRef.resolve(spec, segment, read.partitionId);
        PrintWriter out = spec.commandLine().getOut();
        Style style = output.style();
        try (SegmentReader log = SegmentReader.open(ref.log(), ref.index(), ref.start(),
                ref.partition().partitionId(), read.maxBatchBytes())) {
            if (U64.ge(position, log.length())) {
                // the one rule for a position the data does not reach, as batches --from says it: one line, 64
                return ExitCodes.notInData(spec.commandLine().getErr(), ref.log() + ": position "
                        + U64.str(position) + " is at or past the end of the log (" + U64.str(log.length()) + " bytes)");
            }
            long end = U64.min(U64.addSat(position, length), log.length());
            TreeMap<Long, String> notes = new TreeMap<>();
            String context = annotate(log, position, end, notes);
            if (output.json) {
                if (end - position > MAX_JSON_BYTES) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--json dumps at most "
                            + MAX_JSON_BYTES + " bytes; ask for a shorter LENGTH");
                }
                json(out, ref, log, end, notes, context);
                return ExitCodes.CLEAN;
            }
            if (!output.quiet()) {
                out.println(ref.log().getFileName() + " [" + U64.str(position) + ", " + U64.str(end) + ") of "
                        + log.length() + " bytes" + (context == null ? "" : "; " + context));
            }
            for (long row = position; U64.lt(row, end); ) {
                Cancelled.check();
                byte[] chunk = log.read(row, (int) Math.min(CHUNK, end - row));
                for (int i = 0; i < chunk.length; i += 16) {
                    long at = row + i;
                    int n = Math.min(16, chunk.length - i);
                    List<String> here = new ArrayList<>(notes.subMap(at, true, at + n, false).values());
                    out.println(line(chunk, i, n, at) + (here.isEmpty() ? ""
                            : "  " + style.paint(Style.Paint.CYAN, String.join("; ", here))));
                }
                row += chunk.length;
            }
            out.flush();
            return ExitCodes.CLEAN;
        }
    }

    private static String line(byte[] b, int off, int n, long address) {
        return Bytes.row(new StringBuilder(), b, off, n, address, 10).append(" ".repeat(16 - n)).toString();
    }

    /**
     * Fills {@code notes} with the fields that start in {@code [from, to)}: walks batch headers from the last index
     * entry at or below {@code from} (or from byte 0), then annotates every record overlapping the range. Returns a
     * sentence about where the boundaries came from, or about the break in the chain.
     */
    private static String annotate(SegmentReader log, long from, long to, Map<Long, String> notes)
            throws IOException {
        long pos = 0;
        String origin = "boundaries walked from byte 0";
        long best = -1;
        long bestPos = 0;
        for (long i = 0; i < log.entries(); i++) {
            IndexEntry e = log.entry(i);
            if (U64.le(e.position(), from) && U64.gt(e.position(), bestPos)) {
                best = i;
                bestPos = e.position();
            }
        }
        if (best >= 0 && log.at(bestPos) != null) {
            pos = bestPos;
            origin = "boundaries walked from index entry " + best + " (byte " + U64.str(pos) + ")";
        }
        log.seek(pos);
        while (U64.lt(log.position(), to)) {
            Cancelled.check();
            SegmentReader.Batch b = log.next();
            if (b == null) {
                long at = log.position();
                BatchHeader claimed = log.stopHeader();
                String problem = log.problem();
                if (U64.ge(at, from) || claimed != null && U64.gt(U64.addSat(at, claimed.batchLength()), from)) {
                    header(log, at, notes, problem);
                }
                return origin + "; the chain breaks at " + U64.str(at) + ": " + problem;
            }
            if (U64.gt(b.end(), from)) {
                header(log, b.position(), notes, null);
                frames(log, b, from, to, notes);
            }
        }
        return origin;
    }

    private static void header(SegmentReader log, long b, Map<Long, String> notes, String problem) throws IOException {
        BatchHeader h = log.rawHeader(b);
        if (h == null) {
            notes.put(b, "record at " + U64.str(b) + ": " + problem);
            return;
        }
        String tag = problem == null ? "batch @" + U64.str(b) + ": " : "would-be batch @" + U64.str(b) + " ("
                + problem + "): ";
        notes.put(b + BatchHeader.PARTITION_ID_OFFSET, tag + "partition_id=" + U64.str(h.partitionId()));
        notes.put(b + BatchHeader.BASE_OFFSET_OFFSET, "base_offset=" + U64.str(h.baseOffset()));
        notes.put(b + BatchHeader.BASE_TIMESTAMP_OFFSET, "base_timestamp=" + U64.str(h.baseTimestamp()) + " "
                + Times.iso(h.baseTimestamp()));
        notes.put(b + BatchHeader.ORIGIN_TIMESTAMP_OFFSET, "origin_timestamp=" + U64.str(h.originTimestamp()));
        notes.put(b + BatchHeader.BATCH_LENGTH_OFFSET, "batch_length=" + U64.str(h.batchLength()) + " (ends at "
                + U64.str(U64.addSat(b, h.batchLength())) + ")");
        notes.put(b + BatchHeader.CHECKSUM_OFFSET, "batch_checksum=" + Hex.u64Upper(h.batchChecksum()));
        notes.put(b + BatchHeader.MESSAGE_COUNT_OFFSET, "message_count=" + U64.str(h.messageCount()));
        notes.put(b + BatchHeader.RESERVED_OFFSET, "reserved[52..256) must be zero");
    }

    private static void frames(SegmentReader log, SegmentReader.Batch b, long from, long to, Map<Long, String> notes)
            throws IOException {
        Defect problem = log.frames(b, f -> {
            Cancelled.check();
            if (U64.ge(f.position(), to)) {
                return false;
            }
            if (U64.gt(f.end(), from)) {
                long p = f.position();
                FrameHeader h = f.header();
                notes.put(p + FrameHeader.CHECKSUM_OFFSET, "frame " + f.index() + ": checksum="
                        + Hex.u64Upper(h.checksum()));
                notes.put(p + FrameHeader.ID_OFFSET, "id=" + h.id());
                notes.put(p + FrameHeader.OFFSET_DELTA_OFFSET, "offset_delta=" + h.offsetDelta());
                notes.put(p + FrameHeader.TIMESTAMP_DELTA_OFFSET, "timestamp_delta=" + h.timestampDelta());
                notes.put(p + FrameHeader.USER_HEADERS_LENGTH_OFFSET, "user_headers_length=" + h.userHeadersLength());
                notes.put(p + FrameHeader.PAYLOAD_LENGTH_OFFSET, "payload_length=" + h.payloadLength());
                notes.put(p + FrameHeader.RESERVED_OFFSET, "reserved");
                if (h.payloadLength() > 0) {
                    notes.put(f.payloadPosition(), "payload (" + h.payloadLength() + " bytes)");
                }
                if (h.userHeadersLength() > 0) {
                    notes.merge(f.userHeadersPosition(), "user headers (" + h.userHeadersLength() + " bytes)",
                            (x, y) -> x + "; " + y);
                }
            }
            return true;
        });
        if (problem != null) {
            notes.merge(b.position(), "frames: " + SegmentReader.describe(problem), (x, y) -> x + "; " + y);
        }
    }

    private void json(PrintWriter out, SegmentRef ref, SegmentReader log, long end, Map<Long, String> notes,
                      String context) throws IOException {
        try (JsonOut j = JsonOut.to(out)) {
            j.g().writeStartObject();
            j.str("schema", "segtool.hexdump/1").str("log", ref.log().toString()).u64("from", position)
                    .u64("to", end).str("context", context);
            StringBuilder hex = new StringBuilder();
            for (long row = position; U64.lt(row, end); ) {
                byte[] chunk = log.read(row, (int) Math.min(CHUNK, end - row));
                hex.append(Bytes.hex(chunk));
                row += chunk.length;
            }
            j.str("hex", hex.toString());
            j.g().writeArrayFieldStart("fields");
            for (Map.Entry<Long, String> e : notes.entrySet()) {
                if (U64.ge(e.getKey(), position) && U64.lt(e.getKey(), end)) {
                    j.g().writeStartObject();
                    j.u64("position", e.getKey()).str("note", e.getValue());
                    j.g().writeEndObject();
                }
            }
            j.g().writeEndArray();
            j.g().writeNumberField("exit_code", ExitCodes.CLEAN);
            j.g().writeEndObject();
        }
        out.flush();
    }
}
