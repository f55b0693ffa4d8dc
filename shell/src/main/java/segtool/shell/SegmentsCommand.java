package segtool.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.inspect.HeaderWalk;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.inspect.SegmentReader;
import segtool.analyzers.recovery.Sweep;
import segtool.analyzers.repair.Companions;
import segtool.analyzers.layout.Targets;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.analyzers.inputs.ConsumerOffsets;
import segtool.analyzers.inputs.WalLinks;
import segtool.formats.offsets.ConsumerOffset;
import segtool.shell.options.OutputOptions;
import segtool.shell.options.ReadOptions;
import segtool.shell.render.Bytes;
import segtool.shell.render.JsonOut;
import segtool.shell.render.Style;
import segtool.shell.render.Table;
import segtool.shell.render.Times;

/** {@code segments PATH}: the segment chain of a partition as it lies on disk, and every file beside it. */
@Command(name = "segments", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"List a partition's segments and every other file beside them.",
            "%nSegments in chain order with file sizes, index entries, first offset and "
                + "timestamp, and the end offset found by walking batch headers after the last index entry (cheap; "
                + "no checksums, so not a verdict). Flags gaps and overlaps between neighbours, torn index appends, "
                + "non-canonical names, and lists the other files: anchors (decoded), scratch and orphan files the "
                + "boot sweep deletes, consumer offsets, and fence directories beside the partition."},
        footer = {"%nExamples:",
            "  segtool segments /var/lib/iggy/local_data/streams/1/topics/1/partitions/1",
            "  segtool segments DATA_DIR --json      # every partition"})
public final class SegmentsCommand implements Callable<Integer>, ReadCommand {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Partition directory, one of its segment files, or a data directory. Default: the open "
                    + "path.")
    Path path;

    @Mixin
    segtool.shell.options.Selection selection;

    @Mixin
    ReadOptions read;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    /** One segment's row. */
    private record Row(long start, String log, boolean canonical, long logBytes, long indexBytes, long entries,
                       IndexEntry first, IndexEntry last, HeaderWalk.Summary tail, String walkedFrom,
                       List<String> notes) {
        long endOffset() {
            return tail.lastOffset() != -1 ? tail.lastOffset() : -1;
        }
    }

    @Override
    public Integer call() throws Exception {
        Path target = ShellSession.resolve(spec, path);
        Targets t = selection.apply(ShellSession.targets(spec, target));
        PrintWriter out = spec.commandLine().getOut();
        Style style = output.style();
        int exit = ExitCodes.CLEAN;
        try (JsonOut json = output.json ? JsonOut.to(out) : null) {
            if (json != null) {
                json.g().writeStartObject();
                json.str("schema", "segtool.segments/1").str("path", target.toString());
                json.g().writeArrayFieldStart("partitions");
            }
            boolean firstPartition = true;
            Companions companions = new Companions();
            for (PartitionPath p : t.partitions()) {
                if (read.partitionId != null) {
                    p = p.withPartitionId(read.partitionId);
                }
                List<Row> rows = rows(p);
                List<String> others = others(p.directory(), rows, companions);
                boolean problems = rows.stream().anyMatch(r -> r.notes().stream().anyMatch(n -> !informational(n)));
                exit = ExitCode.combine(exit, ExitCode.reading(problems));
                if (json != null) {
                    json(json, p, rows, others);
                } else {
                    if (!firstPartition) {
                        out.println();
                    }
                    print(out, style, p, rows, others);
                }
                firstPartition = false;
            }
            if (json != null) {
                json.g().writeEndArray();
                json.g().writeNumberField("exit_code", exit);
                json.g().writeEndObject();
            }
        }
        out.flush();
        return exit;
    }

    /**
     * Notes that describe a layout recovery accepts as it is (a gap an anchor admits, the WAL's hard links): printed,
     * but not damage, so a partition {@code scan} calls clean exits 0 here too.
     */
    static boolean informational(String note) {
        return note.endsWith(ANCHORED) || note.contains(" hard links: the prepare WAL retains this inode");
    }

    private static final String ANCHORED = " (admitted by an anchor)";

    private List<Row> rows(PartitionPath p) throws IOException {
        List<Row> rows = new ArrayList<>();
        Path dir = p.directory();
        for (long start : PartitionFiles.starts(dir)) {
            Cancelled.check();
            Path logPath = SegmentFiles.log(dir, start);
            List<String> notes = new ArrayList<>();
            boolean canonical = Files.exists(logPath);
            if (!canonical) {
                // the server opens the canonical name only, so it sees an empty log: list it so, not an error
                boolean link = Files.isSymbolicLink(logPath);
                if (link) {
                    // a link to nothing reads as no file; one that cannot be followed (a loop) throws: an I/O error
                    try {
                        Files.readAttributes(logPath, java.nio.file.attribute.BasicFileAttributes.class);
                    } catch (java.nio.file.NoSuchFileException nothing) {
                        // the server's stat finds no file: an empty log
                    }
                }
                notes.add(link ? logPath.getFileName() + " is a symlink to nothing: the server reads it as an empty "
                        + "log" : "non-canonical .log name: the server reads " + logPath.getFileName()
                        + ", which does not exist");
                rows.add(new Row(start, logPath.getFileName().toString(), false, 0, 0, 0, null, null,
                        new HeaderWalk.Summary(0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, null), "-", notes));
                continue;
            }
            try (SegmentReader log = SegmentReader.open(logPath, SegmentFiles.index(dir, start), start,
                    p.partitionId(), read.maxBatchBytes())) {
                long n = log.entries();
                IndexEntry first = n > 0 ? log.entry(0) : null;
                IndexEntry last = n > 0 ? log.entry(n - 1) : null;
                long from = 0;
                String walkedFrom = "byte 0";
                if (last != null && log.check(last, false).matches()) {
                    from = last.position();
                    walkedFrom = "last index entry";
                } else if (last != null) {
                    notes.add("last index entry does not match its batch");
                }
                HeaderWalk.Summary tail = HeaderWalk.walk(log, from);
                if (!tail.reachedEnd()) {
                    notes.add("headers stop at " + U64.str(tail.to()) + " of " + U64.str(log.length()) + ": "
                            + tail.stop());
                }
                if (log.indexTrailingBytes() > 0) {
                    notes.add("index has " + log.indexTrailingBytes() + " trailing bytes (torn entry)");
                }
                String links = WalLinks.note(WalLinks.linkCount(logPath));
                if (canonical && links != null) {
                    notes.add(links);
                }
                if (first != null && (first.offset() != start || first.position() != 0)) {
                    notes.add("first index entry is not (" + U64.str(start) + ", 0)");
                }
                if (n == 0 && log.length() > 0) {
                    notes.add("no index entries");
                }
                rows.add(new Row(start, logPath.getFileName().toString(), canonical, log.length(), log.indexBytes(), n,
                        first, last, tail, walkedFrom, notes));
            }
        }
        for (int i = 0; i + 1 < rows.size(); i++) {
            Row a = rows.get(i);
            Row b = rows.get(i + 1);
            long end = a.endOffset();
            if (end == -1) {
                a.notes().add("holds no messages but is not the last segment");
            } else if (end != U64.MAX && end + 1 != b.start()) {
                boolean anchored = PartitionFiles.anchorAdmits(p.directory(), a.start(), end, b.start());
                a.notes().add((U64.lt(end, b.start()) ? "gap" : "overlap") + ": ends at " + U64.str(end)
                        + ", next starts at " + U64.str(b.start()) + (anchored ? ANCHORED
                        : " (headers only; see explain)"));
            }
        }
        return rows;
    }

    /**
     * Every entry of the partition directory that is not a segment's .log/.index, with what recovery does to it: the
     * engine's sweep classifies each one (RECOVERY 3), so a symbolic link is what it is, not what it points to.
     */
    private static List<String> others(Path dir, List<Row> rows, Companions companions) throws IOException {
        List<String> out = new ArrayList<>();
        for (Sweep.Entry e : PartitionFiles.classified(dir)) {
            Path p = e.path();
            String name = p.getFileName().toString();
            boolean link = Files.isSymbolicLink(p);
            boolean directory = !link && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
            String what = link ? "symbolic link" : size(p) + " bytes";
            switch (e.kind()) {
                case STAGING:
                    out.add(e.deleted() ? name + " (" + what + "): scratch, deleted at boot"
                            : name + "/ (a directory: boot cannot delete it and goes on)");
                    break;
                case SEGMENT_LOG:
                    if (!SegmentFiles.isCanonical(SegmentFiles.stemOf(name))) {
                        out.add(name + ": non-canonical segment name (the server reads the 20-digit name)");
                    }
                    break;
                case UNNAMED_LOG:
                    out.add(name + " (" + what + "): log name is not a start offset; ignored by segment recovery");
                    break;
                case COMPANION:
                    if (SegmentFiles.extensionOf(name).equals("anchor")) {
                        out.add(name + ": " + anchor(p));
                    }
                    break;
                case ORPHAN:
                    out.add(e.deleted() ? name + " (" + what + "): orphan (no " + SegmentFiles.stemOf(name)
                            + ".log), deleted at boot" : name + "/ (a directory: boot cannot delete it and goes on)");
                    break;
                default:
                    if (directory) {
                        out.add(name + "/" + (name.equals("offsets") ? " " + offsets(dir, rows)
                                : name.startsWith("prepares-") ? " (the partition prepare WAL, METADATA 6: frontier, "
                                + "WAL data, retained segment links; its own open runs before segment recovery, which "
                                + "ignores it)" : " (ignored by recovery)"));
                    } else if (WalLinks.isRelinkName(name)) {
                        out.add(name + ": the WAL's relinking name for a retained segment inode (METADATA 6.7); left "
                                + "alone, ignored by the segment sweep");
                    } else {
                        out.add(name + " (" + what + "): ignored by segment recovery");
                    }
                    break;
            }
        }
        Path parent = dir.toAbsolutePath().getParent();
        // the parent is listed once for all partitions (Companions), not once per partition
        if (parent != null && dir.getFileName() != null && companions.mayHave(dir)) {
            String prefix = dir.getFileName() + ".fenced.";
            for (Path p : PartitionFiles.list(parent)) {
                String n = p.getFileName().toString();
                if (n.startsWith(prefix) && SegmentFiles.fenceNumber(n) >= 0 && Files.isDirectory(p)) {
                    out.add("../" + n + "/ (fence directory: " + PartitionFiles.list(p).size()
                            + " files quarantined by an earlier recovery; never read by the server)");
                }
            }
        }
        return out;
    }

    /** The entry's own size, a link's not followed. */
    private static long size(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size();
    }

    private static String anchor(Path p) throws IOException {
        segtool.formats.io.RegularFile.require(p);
        if (Files.size(p) > AnchorRecord.LENGTH) {
            return "anchor of " + Files.size(p) + " bytes: not 40, proves nothing";
        }
        byte[] b = Files.readAllBytes(p);
        String problem = AnchorRecord.problem(b);
        if (problem != null) {
            return problem + ": proves nothing (treated as absent)";
        }
        AnchorRecord a = AnchorRecord.decode(b);
        return "anchor: planted at " + U64.str(a.plantedStart()) + " after sealed segment " + U64.str(a.sealedStart())
                + " ending at offset " + U64.str(a.sealedEnd());
    }

    /** Each committed offset (FORMAT 7), flagged when above the chain's last offset. */
    private static String offsets(Path dir, List<Row> rows) throws IOException {
        Long end = null;
        boolean known = true;
        for (Row r : rows) {
            long e = r.endOffset();
            if (e == U64.MAX) {
                known = false;
            } else if (e != -1) {
                end = e;
            }
        }
        List<String> parts = new ArrayList<>();
        for (ConsumerOffsets.Entry e : ConsumerOffsets.list(dir)) {
            parts.add(known ? e.describe(end) : e.describe(end).replaceAll(" ABOVE the chain's end .*", ""));
        }
        return "(consumer offsets: " + (parts.isEmpty() ? "none" : String.join(", ", parts)) + ")";
    }

    private static void print(PrintWriter out, Style style, PartitionPath p, List<Row> rows, List<String> others) {
        out.println(style.bold(p.directory().toString()) + (p.hasPartitionId() ? "  (partition "
                + U64.str(p.partitionId()) + ")" : "") + ": " + rows.size() + " segment(s)");
        if (!rows.isEmpty()) {
            long maxLog = rows.stream().mapToLong(Row::logBytes).max().orElse(1);
            long maxIndex = rows.stream().mapToLong(Row::indexBytes).max().orElse(1);
            long maxStart = rows.get(rows.size() - 1).start();
            long maxEnd = rows.stream().mapToLong(Row::endOffset).max().orElse(1);
            Table t = new Table().col("START", Table.digits(maxStart), true)
                    .col("LOG BYTES", Bytes.size(maxLog).length(), true)
                    .col("INDEX", Bytes.size(maxIndex).length(), true)
                    .col("ENTRIES", 7, true).col("FIRST", Table.digits(maxEnd), true)
                    .col("END*", Table.digits(maxEnd), true).col("FIRST TIMESTAMP", 27, false)
                    .col("NOTES", 0, false);
            t.header(out);
            for (Row r : rows) {
                String first = r.first() != null ? U64.str(r.first().offset())
                        : r.tail().firstOffset() != -1 ? U64.str(r.tail().firstOffset()) : "-";
                String firstTs = r.first() != null ? Times.iso(r.first().timestamp())
                        : r.tail().firstTimestamp() != -1 ? Times.iso(r.tail().firstTimestamp()) : "-";
                String end = r.endOffset() != -1 ? U64.str(r.endOffset())
                        : r.last() != null ? "(" + U64.str(r.last().offset()) + "?)" : "-";
                String notes = String.join("; ", r.notes());
                t.row(out, U64.str(r.start()), Bytes.size(r.logBytes()), Bytes.size(r.indexBytes()),
                        U64.str(r.entries()), first, end, firstTs,
                        notes.isEmpty() ? "" : style.paint(Style.Paint.YELLOW, notes));
            }
            out.println("START: segment start offset (file <20 digits>.log); FIRST: first offset by the index; END*: "
                    + "last offset by batch headers after the last index entry, checksums not computed (`explain` "
                    + "gives the verdict)");
        }
        for (String o : others) {
            out.println("  " + o);
        }
    }

    private static void json(JsonOut j, PartitionPath p, List<Row> rows, List<String> others) throws IOException {
        j.g().writeStartObject();
        j.str("path", p.directory().toString());
        if (p.hasPartitionId()) {
            j.u64("partition_id", p.partitionId());
        } else {
            j.g().writeNullField("partition_id");
        }
        j.g().writeArrayFieldStart("segments");
        for (Row r : rows) {
            j.g().writeStartObject();
            j.u64("start_offset", r.start()).str("log", r.log()).u64("log_bytes", r.logBytes())
                    .u64("index_bytes", r.indexBytes()).u64("index_entries", r.entries());
            if (r.first() != null) {
                j.u64("first_entry_offset", r.first().offset()).u64("first_entry_timestamp", r.first().timestamp())
                        .u64("last_entry_offset", r.last().offset()).u64("last_entry_position", r.last().position());
            }
            if (r.endOffset() != -1) {
                j.u64("end_offset_by_headers", r.endOffset());
            } else {
                j.g().writeNullField("end_offset_by_headers");
            }
            j.str("headers_walked_from", r.walkedFrom()).u64("headers_walked_to", r.tail().to())
                    .str("headers_stop", r.tail().stop());
            j.g().writeArrayFieldStart("notes");
            for (String n : r.notes()) {
                j.g().writeString(n);
            }
            j.g().writeEndArray();
            j.g().writeEndObject();
        }
        j.g().writeEndArray();
        j.g().writeArrayFieldStart("other_files");
        for (String o : others) {
            j.g().writeString(o);
        }
        j.g().writeEndArray();
        j.g().writeEndObject();
    }
}
