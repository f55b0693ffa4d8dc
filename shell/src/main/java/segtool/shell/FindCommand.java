package segtool.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
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
import segtool.analyzers.report.ShellWords;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.options.Numbers;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.PartitionRef;
import segtool.shell.options.ReadOptions;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Times;

/** {@code find --offset N | --timestamp T}: which segment, index entry, byte position and batch hold a message. */
@Command(name = "find", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Find the segment, index entry, byte position and batch of an offset or timestamp.",
            "%nLocates a message offset, or the first batch at or after a timestamp, in a partition: the "
                + "segment, the index entry a reader would start from, the byte position and the batch, found the "
                + "way the server's readers do (index as a lower bound, then a walk over batch headers). The batch "
                + "found is verified."},
        footer = {"%nTimestamps are microseconds since the epoch or ISO-8601 instants; batches are found by their "
                + "base_timestamp (the server's clock, which the index uses).",
            "%nExamples:",
            "  segtool find PARTITION --offset 123456",
            "  segtool find PARTITION --timestamp 2024-05-01T03:00:00Z"})
public final class FindCommand implements Callable<Integer>, ReadCommand {
    @Parameters(index = "0", paramLabel = "PARTITION", arity = "0..1",
            description = "Partition directory (or one of its segment files). Default: the open path.")
    Path target;

    static final class Target {
        @Option(names = "--offset", paramLabel = "N", required = true, converter = Numbers.U64Converter.class,
                description = "The message offset to locate.")
        Long offset;

        @Option(names = "--timestamp", paramLabel = "T", required = true,
                converter = Numbers.TimestampConverter.class,
                description = "Find the first batch whose base_timestamp is at or after T.")
        Long timestamp;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target what;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /**
     * The answer, or where the search stopped. {@code noteIsDamage}: the note reports an inconsistency or damage met
     * on the way (an index entry that does not match its batch, a walk stopped at damage in an earlier segment), not
     * only how the walk started; reading then exits 1 like a problem or a defect.
     */
    private record Found(long start, long entry, IndexEntry indexEntry, String note, boolean noteIsDamage,
                         long position, BatchHeader header, Defect defect, SegmentReader.Frame frame, String problem,
                         long walked, boolean beyond) {
        Found(long start, long entry, IndexEntry indexEntry, String note, boolean noteIsDamage, long position,
              BatchHeader header, Defect defect, SegmentReader.Frame frame, String problem, long walked) {
            this(start, entry, indexEntry, note, noteIsDamage, position, header, defect, frame, problem, walked,
                    false);
        }
    }

    @Override
    public Integer call() throws Exception {
        PartitionRef ref = PartitionRef.resolve(spec, target, read.partitionId);
        PartitionPath partition = ref.partition();
        List<Long> starts = PartitionFiles.starts(ref.directory());
        Found found = what.offset != null ? byOffset(partition, starts, what.offset)
                : byTimestamp(partition, starts, what.timestamp);
        int exit = ExitCode.reading(found == null || found.problem() != null || found.defect() != null
                || found.noteIsDamage());
        PrintWriter out = spec.commandLine().getOut();
        String query = what.offset != null ? "offset " + U64.str(what.offset)
                : "timestamp " + Times.iso(what.timestamp) + " (" + U64.str(what.timestamp) + ")";
        if (found == null || found.beyond()) {
            // the problem of an offset past the end names the offset already ("offset N is past the end of ...")
            exit = ExitCodes.notInData(spec.commandLine().getErr(), found != null ? found.problem()
                    : query + ": " + (starts.isEmpty() ? "the partition has no segments" : what.offset != null
                    ? "below the first segment (" + U64.str(starts.get(0)) + ")" : "no batch at or after it"));
        }
        if (output.json) {
            // a usage error prints no document (docs/json.md): the line on stderr is all
            if (exit != ExitCodes.USAGE) {
                json(out, found, exit);
            }
            return exit;
        }
        Style style = output.style();
        if (found == null) {
            out.println(query + ": " + (starts.isEmpty() ? "the partition has no segments" : what.offset != null
                    ? "below the first segment (" + U64.str(starts.get(0)) + ")" : "no batch at or after it"));
            return exit;
        }
        String seg = SegmentFiles.stem(found.start());
        out.println(style.bold(query) + " -> segment " + seg);
        if (found.indexEntry() != null) {
            IndexEntry e = found.indexEntry();
            out.println("  index entry " + found.entry() + ": offset " + U64.str(e.offset()) + ", "
                    + Times.iso(e.timestamp()) + ", position " + U64.str(e.position()));
        }
        if (found.note() != null) {
            out.println("  " + found.note());
        }
        if (found.header() != null) {
            BatchHeader h = found.header();
            out.println("  batch at byte " + U64.str(found.position()) + ": offsets " + U64.str(h.baseOffset()) + ".."
                    + (h.messageCount() > 0 ? U64.str(h.endOffset()) : "(empty)") + ", " + U64.str(h.messageCount())
                    + " message(s), " + U64.str(h.batchLength()) + " bytes, " + Times.iso(h.baseTimestamp()) + ", "
                    + (found.defect() == null ? "verifies" : style.paint(Style.Paint.RED, "does not verify: "
                    + found.defect().describe())));
            out.println("  walked " + found.walked() + " batch header(s) from byte " + U64.str(found.indexEntry() == null
                    ? 0 : found.indexEntry().position()));
        }
        if (found.frame() != null) {
            SegmentReader.Frame f = found.frame();
            out.println("  message " + f.index() + " of the batch: frame at byte " + U64.str(f.position()) + ", id "
                    + f.header().id() + ", payload " + f.header().payloadLength() + " bytes");
            out.println("  show it: segtool messages "
                    + ShellWords.quote(SegmentFiles.log(ref.directory(), found.start())) + " --offset "
                    + U64.str(what.offset) + " --limit 1");
        }
        if (found.problem() != null) {
            out.println("  " + style.paint(Style.Paint.RED, found.problem()));
        }
        out.flush();
        return exit;
    }

    private Found byOffset(PartitionPath partition, List<Long> starts, long offset) throws IOException {
        Long start = null;
        for (long s : starts) {
            if (U64.le(s, offset)) {
                start = s;
            }
        }
        if (start == null) {
            return null;
        }
        long pid = partition.partitionId();
        try (SegmentReader log = SegmentReader.open(SegmentFiles.log(partition.directory(), start),
                SegmentFiles.index(partition.directory(), start), start, pid, read.maxBatchBytes())) {
            Seek.Start s = Seek.byOffset(log, offset);
            log.seek(s.position());
            long walked = 0;
            while (true) {
                Cancelled.check();
                SegmentReader.Batch b = log.next();
                if (b == null) {
                    long pos = log.position();
                    boolean atEnd = U64.ge(pos, log.length());
                    String why = atEnd ? "offset " + U64.str(offset) + " is past the end of "
                            + "segment " + U64.str(start) + " (its log ends at byte " + U64.str(log.length()) + ")"
                            : "the walk stopped at byte " + U64.str(pos) + " before reaching it: " + log.problem();
                    // past the end of the last segment is past the end of the partition; of another, a gap
                    boolean last = start.longValue() == starts.get(starts.size() - 1).longValue();
                    return new Found(start, s.entry(), s.indexEntry(), s.note(), s.mismatch(), pos, null, null, null,
                            why, walked, atEnd && last);
                }
                walked++;
                BatchHeader h = b.header();
                if (h.messageCount() > 0 && U64.ge(h.endOffset(), offset)) {
                    Defect d = log.verify(b);
                    if (U64.gt(h.baseOffset(), offset)) {
                        return new Found(start, s.entry(), s.indexEntry(), s.note(), s.mismatch(), b.position(), h,
                                d, null, "offset " + U64.str(offset) + " is not in this segment: the batch at its "
                                + "place starts at " + U64.str(h.baseOffset()) + " (a gap)", walked);
                    }
                    SegmentReader.Frame[] frame = new SegmentReader.Frame[1];
                    long target = offset - h.baseOffset();
                    Defect problem = log.frames(b, f -> {
                        Cancelled.check();
                        // F 2.2: a message's offset is base_offset + offset_delta, as messages names it; the
                        // frame's index in the batch is only what the reference encoders make it
                        if (U64.addSat(h.baseOffset(), f.header().offsetDelta()) == offset) {
                            frame[0] = f;
                            return false;
                        }
                        return true;
                    });
                    return new Found(start, s.entry(), s.indexEntry(), s.note(), s.mismatch(), b.position(), h, d,
                            frame[0], frame[0] != null ? null : problem != null ? "message " + target + " of the "
                            + "batch is not readable: " + SegmentReader.describe(problem) : "no message of the batch "
                            + "has offset " + U64.str(offset) + " (base_offset + offset_delta, F 2.2)", walked);
                }
            }
        }
    }

    private Found byTimestamp(PartitionPath partition, List<Long> starts, long timestamp) throws IOException {
        long pid = partition.partitionId();
        List<String> notes = new ArrayList<>();
        for (long start : starts) {
            try (SegmentReader log = SegmentReader.open(SegmentFiles.log(partition.directory(), start),
                    SegmentFiles.index(partition.directory(), start), start, pid, read.maxBatchBytes())) {
                Seek.Start s = Seek.byTimestamp(log, timestamp);
                log.seek(s.position());
                long walked = 0;
                while (true) {
                    Cancelled.check();
                    SegmentReader.Batch b = log.next();
                    if (b == null) {
                        if (s.mismatch()) {
                            // walked past: the inconsistency met on the way is still reported (and exits 1)
                            notes.add("segment " + U64.str(start) + ": " + s.note());
                        }
                        if (log.problem() != null) {
                            notes.add("segment " + U64.str(start) + ": walk stopped at byte "
                                    + U64.str(log.position()) + ": " + log.problem());
                        }
                        break;
                    }
                    walked++;
                    BatchHeader h = b.header();
                    if (h.messageCount() > 0 && U64.ge(h.baseTimestamp(), timestamp)) {
                        // the notes so far are walks stopped at damage, or index mismatches, in earlier segments
                        boolean damage = !notes.isEmpty() || s.mismatch();
                        if (s.note() != null) {
                            notes.add(s.note());
                        }
                        return new Found(start, s.entry(), s.indexEntry(), notes.isEmpty() ? null
                                : String.join("; ", notes), damage, b.position(), h, log.verify(b), null, null,
                                walked);
                    }
                }
            }
        }
        if (!notes.isEmpty()) {
            return new Found(starts.get(starts.size() - 1), -1, null, null, false, 0, null, null, null,
                    "no batch at or after it was reached: " + String.join("; ", notes), 0);
        }
        return null;
    }

    private void json(PrintWriter out, Found found, int exit) throws IOException {
        try (JsonOut j = JsonOut.to(out)) {
            j.g().writeStartObject();
            j.str("schema", "segtool.find/1");
            if (what.offset != null) {
                j.u64("offset", what.offset);
            } else {
                j.u64("timestamp", what.timestamp);
            }
            j.bool("found", found != null && found.header() != null && found.problem() == null);
            if (found != null) {
                j.str("segment", SegmentFiles.stem(found.start())).u64("segment_start_offset", found.start());
                if (found.indexEntry() != null) {
                    j.g().writeObjectFieldStart("index_entry");
                    j.u64("entry", found.entry()).u64("offset", found.indexEntry().offset())
                            .u64("timestamp", found.indexEntry().timestamp())
                            .u64("position", found.indexEntry().position());
                    j.g().writeEndObject();
                } else {
                    j.g().writeNullField("index_entry");
                }
                j.str("note", found.note());
                if (found.header() != null) {
                    BatchHeader h = found.header();
                    j.g().writeObjectFieldStart("batch");
                    j.u64("position", found.position()).u64("length", h.batchLength())
                            .u64("base_offset", h.baseOffset()).u64("message_count", h.messageCount())
                            .u64("base_timestamp", h.baseTimestamp()).bool("verifies", found.defect() == null)
                            .str("defect", found.defect() == null ? null : found.defect().describe());
                    j.g().writeEndObject();
                } else {
                    j.g().writeNullField("batch");
                }
                if (found.frame() != null) {
                    j.g().writeObjectFieldStart("message");
                    j.u64("index_in_batch", found.frame().index()).u64("frame_position", found.frame().position())
                            .str("id", found.frame().header().id())
                            .u64("payload_length", found.frame().header().payloadLength());
                    j.g().writeEndObject();
                }
                j.u64("walked_batches", found.walked()).str("problem", found.problem());
            }
            j.g().writeNumberField("exit_code", exit);
            j.g().writeEndObject();
        }
        out.flush();
    }
}
