package segtool.analyzers.salvage;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.repair.Manifest;
import segtool.analyzers.repair.Quarantine;
import segtool.analyzers.repair.QuarantineEntry;
import segtool.analyzers.salvage.OffsetRanges.Range;
import segtool.formats.hash.Xxh3;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.RegularFile;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.LogCursor;
import segtool.formats.log.RecordVerifier;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * {@code salvage}: every batch record that verifies anywhere segtool can find bytes of one partition, copied with
 * its provenance into a side archive; reads only. The bytes are the live segment logs, the logs in the partition's
 * {@code .fenced.<n>} directories, and the log ranges in its segtool quarantines, each scanned by {@link LogScan}.
 *
 * <p>The archive is a directory (layout and schemas in docs/salvage.md): {@code batches.log} holds each exported
 * record's original bytes back to back, so it is itself a log segtool can walk; {@code batches.ndjson} has one line
 * per record with where it came from; {@code messages.ndjson} (when asked) one line per message; and
 * {@code salvage.json} the summary, written last: which offsets the archive holds and which are lost. It is built in
 * a temporary sibling directory and renamed into place, so OUT either does not exist or is complete.
 */
public final class Salvager {
    public static final String SCHEMA = "segtool.salvage/1";
    public static final String BATCHES_LOG = "batches.log";
    public static final String BATCHES_NDJSON = "batches.ndjson";
    public static final String MESSAGES_NDJSON = "messages.ndjson";
    public static final String SUMMARY = "salvage.json";

    /**
     * @param maxBatchBytes     {@code MAXB}
     * @param includeUnverified also export the records that frame at a damage position but do not verify, marked
     * @param messages          also write {@code messages.ndjson}
     * @param window            read window per log
     * @param version           the tool version, stamped into the summary
     * @param cutAt             when not null, the live segment and byte position of a planned log cut: that
     *                          segment's result also gives the offsets of the verifying records at or past it
     */
    public record Options(long maxBatchBytes, boolean includeUnverified, boolean messages, int window,
                          String version, CutAt cutAt) {
        public static Options defaults(String version) {
            return new Options(BatchHeader.MAX_RECOVERABLE_BATCH_BYTES, false, false, SegmentChannel.DEFAULT_WINDOW,
                    version, null);
        }

        public Options withUnverified(boolean v) {
            return new Options(maxBatchBytes, v, messages, window, version, cutAt);
        }

        public Options withMessages(boolean v) {
            return new Options(maxBatchBytes, includeUnverified, v, window, version, cutAt);
        }

        public Options withMaxBatchBytes(long v) {
            return new Options(v, includeUnverified, messages, window, version, cutAt);
        }

        public Options withCutAt(CutAt v) {
            return new Options(maxBatchBytes, includeUnverified, messages, window, version, v);
        }
    }

    /** A planned log cut: live segment {@code segment}'s log truncated at byte {@code position}. */
    public record CutAt(long segment, long position) {
    }

    /**
     * The offsets of the verifying records of this partition that start at or past byte {@code position} of the
     * segment's log (chain or past damage): what a log cut there takes out of the live partition.
     */
    public record PastCut(long position, OffsetRanges offsets) {
    }

    /** A byte range {@code [from, to)} of a source's original log, with the first problem met there. */
    public record ByteRange(long from, long to, String why) {
        public long length() {
            return to - from;
        }
    }

    /** What one source gave. */
    public record SourceResult(Source source, long bytes, long batches, long unverified, long messages,
                               OffsetRanges offsets, List<ByteRange> lost, List<ByteRange> unexamined,
                               LogScan.Stats stats, Long indexClaim, long chainBatches, OffsetRanges pastDamage,
                               PastCut pastCut) {
        /** True when every byte of the source belongs to a record that verifies. */
        public boolean intact() {
            return lost.isEmpty() && unexamined.isEmpty();
        }
    }

    /**
     * The whole salvage. {@code archived}: offsets held by exported records that verify; {@code unverified}: offsets
     * claimed only by exported records that do not; {@code lost}: offsets of {@code [spanFirst, spanLast]} (from
     * the lowest segment start to the highest offset any verifying record holds) in no verifying record.
     * {@code archive} is null for a survey (nothing written).
     */
    public record Result(Path archive, PartitionPath partition, List<SourceResult> sources, OffsetRanges archived,
                         OffsetRanges unverified, List<Range> lost, boolean hasSpan, long spanFirst, long spanLast,
                         long batches, long messages, long bytes) {
        /** True when nothing is lost and every source byte was examined and belongs to a verifying record. */
        public boolean complete() {
            return lost.isEmpty() && sources.stream().allMatch(SourceResult::intact);
        }

        public boolean exhausted() {
            return sources.stream().anyMatch(s -> !s.unexamined().isEmpty());
        }

        /** The live-segment sources only. */
        public List<SourceResult> segments() {
            return sources.stream().filter(s -> s.source().kind() == Source.Kind.SEGMENT).toList();
        }
    }

    /** OUT cannot be used: it exists, is a symlink, or lies inside what is being salvaged. */
    public static final class OutputRefused extends IOException {
        public OutputRefused(String message) {
            super(message);
        }
    }

    private final Options options;

    public Salvager(Options options) {
        this.options = options;
    }

    static void checkCancelled() {
        if (Thread.currentThread().isInterrupted()) {
            throw new RecoveryEngine.Cancelled();
        }
    }

    // ---- sources ---------------------------------------------------------------------------------------------

    /**
     * Every source of a partition in the order salvage reads them: live segment logs by start offset, then each
     * fence directory's logs, then each quarantine's log copies (oldest quarantine first, by file and offset).
     * A quarantine whose manifest cannot be read is skipped and named in {@code problems}.
     */
    public static List<Source> sources(Path partition, List<String> problems) throws IOException {
        Path dir = partition.toAbsolutePath().normalize();
        List<Source> out = new ArrayList<>();
        for (Path log : logs(dir)) {
            out.add(new Source(Source.Kind.SEGMENT, log, log, startOf(log), 0, -1));
        }
        for (Path fence : fences(dir)) {
            int n = SegmentFiles.fenceNumber(fence.getFileName().toString());
            for (Path log : logs(fence)) {
                out.add(new Source(Source.Kind.FENCE, log, log, startOf(log), 0, n));
            }
        }
        for (Path q : Quarantine.of(dir)) {
            if (!Quarantine.hasManifest(q)) {
                continue;
            }
            Quarantine quarantine;
            try {
                quarantine = Quarantine.open(q);
            } catch (IOException e) {
                problems.add(q + ": cannot read the quarantine manifest: " + e.getMessage());
                continue;
            }
            Manifest m = quarantine.manifest();
            List<QuarantineEntry> entries = new ArrayList<>(m.entries());
            entries.sort(Comparator.comparing(QuarantineEntry::file).thenComparingLong(QuarantineEntry::offset));
            for (QuarantineEntry e : entries) {
                Path origin = dir.resolve(e.file()).normalize();
                String name = origin.getFileName().toString();
                if (!name.endsWith(SegmentFiles.LOG) || !origin.startsWith(dir) || e.length() == 0) {
                    continue;
                }
                Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(name));
                Path copy = quarantine.copy(e).normalize();
                if (start == null || !copy.startsWith(quarantine.directory())) {
                    continue;
                }
                out.add(new Source(Source.Kind.QUARANTINE, copy, origin, start, e.offset(), -1));
            }
        }
        return out;
    }

    /** The {@code <partition>.fenced.<n>} directories beside a partition, by {@code n}. */
    public static List<Path> fences(Path partition) throws IOException {
        Path dir = partition.toAbsolutePath().normalize();
        List<Path> out = new ArrayList<>();
        Path parent = dir.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return out;
        }
        String prefix = dir.getFileName() + ".fenced.";
        try (DirectoryStream<Path> s = Files.newDirectoryStream(parent)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.startsWith(prefix) && SegmentFiles.fenceNumber(name) >= 0
                        && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(p);
                }
            }
        }
        out.sort(Comparator.comparingInt(p -> SegmentFiles.fenceNumber(p.getFileName().toString())));
        return out;
    }

    /**
     * The {@code .log} files of a directory whose stems parse as start offsets, by start offset. A FIFO, device or
     * socket under such a name is refused ({@link RegularFile.NotRegular}), never opened and never skipped: the
     * archive would otherwise claim to hold every byte while a segment went unread.
     */
    static List<Path> logs(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.LOG))) {
            for (Path p : s) {
                if (startOrNull(p) != null) {
                    RegularFile.require(p);
                    out.add(p);
                }
            }
        }
        out.sort((a, b) -> {
            int c = Long.compareUnsigned(startOf(a), startOf(b));
            return c != 0 ? c : a.getFileName().toString().compareTo(b.getFileName().toString());
        });
        return out;
    }

    private static Long startOrNull(Path log) {
        return SegmentFiles.startOffsetOf(SegmentFiles.stemOf(log.getFileName().toString()));
    }

    private static long startOf(Path log) {
        return startOrNull(log);
    }

    // ---- the run ---------------------------------------------------------------------------------------------

    /** Scans every source and reports what it would export, writing nothing. */
    public Result survey(PartitionPath partition, List<String> problems) throws IOException {
        return run(partition, null, problems);
    }

    /**
     * Writes the archive to {@code out}, which must not exist (nor be a symlink, nor lie inside the partition or a
     * directory salvage reads). Nothing is left at {@code out} unless the whole archive was written.
     */
    public Result salvage(PartitionPath partition, Path out, List<String> problems) throws IOException {
        Path target = out.toAbsolutePath().normalize();
        checkOutput(partition.directory(), target);
        String tmpPrefix = "." + target.getFileName() + TMP_MARKER;
        Path tmp = target.resolveSibling(tmpPrefix + ProcessHandle.current().pid());
        deleteTree(tmp);
        removeAbandoned(target.getParent(), tmpPrefix);
        Files.createDirectory(tmp);
        try {
            Result r;
            try (Writer w = new Writer(tmp, options.messages(), options.version())) {
                r = run(partition, w, problems);
                w.summary(r, target, problems);
            }
            checkOutput(partition.directory(), target);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            try {
                force(target.getParent());
            } catch (IOException e) {
                // in place but perhaps not on disk: take it back, so an archive that exists is a durable one
                deleteTree(target);
                throw e;
            }
            return new Result(target, r.partition(), r.sources(), r.archived(), r.unverified(), r.lost(), r.hasSpan(),
                    r.spanFirst(), r.spanLast(), r.batches(), r.messages(), r.bytes());
        } catch (IOException | RuntimeException e) {
            deleteTree(tmp);
            throw e;
        }
    }

    /** The temporary directory of a salvage into {@code OUT} is {@code .OUT<marker><pid>} beside it. */
    static final String TMP_MARKER = ".segtool-salvage-tmp.";

    /**
     * Removes the temporary directories that killed salvages into the same OUT left behind: those whose owner PID
     * (the name's last part) is no running process. A live one is another salvage at work and is left alone.
     */
    private static void removeAbandoned(Path parent, String prefix) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(parent, p -> p.getFileName().toString()
                .startsWith(prefix))) {
            for (Path d : s) {
                String pid = d.getFileName().toString().substring(prefix.length());
                boolean numeric = !pid.isEmpty() && pid.length() < 19 && pid.chars().allMatch(Character::isDigit);
                if (numeric && segtool.analyzers.archive.TempTree.ownerGone(Long.parseLong(pid))
                        && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                    deleteTree(d);
                }
            }
        }
    }

    /** Refuses an OUT that exists (a dangling symlink included) or that lies inside the partition or beside-tree. */
    public static void checkOutput(Path partition, Path out) throws OutputRefused {
        Path target = out.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(target)) {
            throw new OutputRefused(target + ": is a symbolic link; salvage writes only a new directory");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new OutputRefused(target + ": already exists; salvage writes only a new directory");
        }
        Path dir = partition.toAbsolutePath().normalize();
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        for (Path p = target; p != null; p = p.getParent()) {
            String n = p.getFileName() == null ? "" : p.getFileName().toString();
            boolean beside = dir.getParent() != null && dir.getParent().equals(p.getParent())
                    && (n.startsWith(name + ".fenced.") || n.startsWith(name + Quarantine.MARKER));
            if (p.equals(dir) || beside) {
                throw new OutputRefused(target + ": lies inside " + p + ", which salvage only reads");
            }
        }
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new OutputRefused(target + ": its parent directory does not exist");
        }
    }

    private Result run(PartitionPath partition, Writer writer, List<String> problems) throws IOException {
        List<Source> sources = sources(partition.directory(), problems);
        List<SourceResult> results = new ArrayList<>();
        OffsetRanges archived = new OffsetRanges();
        OffsetRanges unverified = new OffsetRanges();
        long[] totals = new long[3];
        boolean hasSpan = false;
        long spanFirst = 0;
        long spanLast = 0;
        try (RecordVerifier verifier = new RecordVerifier()) {
            for (Source s : sources) {
                Long id = partition.hasPartitionId() ? partition.partitionId() : null;   // any u64 once known
                SourceResult r = scan(id, s, verifier, writer, unverified, totals);
                results.add(r);
                archived.addAll(r.offsets());
                if (s.kind() == Source.Kind.SEGMENT && (!hasSpan || U64.lt(s.start(), spanFirst))) {
                    spanFirst = s.start();
                    hasSpan = true;
                }
            }
        }
        // The span: from the lowest segment start to the highest offset anything on disk proves was assigned: a
        // verifying record of this partition, a consistent index entry, or a later segment's start.
        Long proven = null;
        List<Range> list = archived.list();
        if (!list.isEmpty()) {
            proven = list.get(list.size() - 1).last();
            if (!hasSpan || U64.lt(list.get(0).first(), spanFirst)) {
                spanFirst = list.get(0).first();
                hasSpan = true;
            }
        }
        for (SourceResult r : results) {
            if (r.indexClaim() != null && (proven == null || U64.gt(r.indexClaim(), proven))) {
                proven = r.indexClaim();
            }
            long s = r.source().start();
            if (r.source().kind() == Source.Kind.SEGMENT && hasSpan && U64.gt(s, spanFirst)
                    && (proven == null || U64.gt(s - 1, proven))) {
                proven = s - 1;
            }
        }
        if (proven != null) {
            spanLast = proven;
        }
        hasSpan = hasSpan && proven != null && U64.ge(spanLast, spanFirst);
        List<Range> lost = hasSpan ? archived.missingWithin(spanFirst, spanLast) : List.of();
        return new Result(null, partition, results, archived, unverified, lost, hasSpan, spanFirst, spanLast,
                totals[0], totals[1], totals[2]);
    }

    private SourceResult scan(Long partitionId, Source s, RecordVerifier verifier, Writer writer,
                              OffsetRanges unverifiedOffsets, long[] totals) throws IOException {
        OffsetRanges offsets = new OffsetRanges();
        OffsetRanges pastDamage = new OffsetRanges();
        CutAt cutAt = options.cutAt();
        PastCut pastCut = cutAt != null && s.kind() == Source.Kind.SEGMENT && s.start() == cutAt.segment()
                ? new PastCut(cutAt.position(), new OffsetRanges()) : null;
        List<ByteRange> lost = new ArrayList<>();
        List<ByteRange> unexamined = new ArrayList<>();
        long[] counts = new long[4];
        SegmentChannel log;
        try {
            log = SegmentChannel.open(s.file(), options.window());
        } catch (NoSuchFileException e) {
            throw new IOException(s.file() + ": vanished while being salvaged", e);
        } catch (IOException e) {
            throw new IOException(s.file() + ": cannot read file: " + segtool.analyzers.recovery.IoFailure.reasonOf(e),
                    e);
        }
        try (log; LogCursor cursor = new LogCursor(log, 0, Math.min(Integer.MAX_VALUE, Math.max(
                BatchHeader.LENGTH, options.maxBatchBytes())))) {
            long base = s.base();
            LogScan.Sink sink = new LogScan.Sink() {
                @Override
                public void batch(long position, BatchHeader h, boolean verified, boolean chain, Defect defect)
                        throws IOException {
                    Location where = switch (s.kind()) {
                        case SEGMENT -> chain ? Location.CHAIN : Location.PAST_DAMAGE;
                        case FENCE -> Location.FENCED;
                        case QUARANTINE -> Location.QUARANTINE;
                    };
                    boolean ours = partitionId == null || h.partitionId() == partitionId;
                    if (verified) {
                        counts[0]++;
                        counts[3] += where == Location.CHAIN ? 1 : 0;
                        if (h.messageCount() > 0 && ours) {
                            offsets.add(h.baseOffset(), h.endOffset());
                            if (where == Location.PAST_DAMAGE) {
                                pastDamage.add(h.baseOffset(), h.endOffset());
                            }
                            if (pastCut != null && U64.ge(position, pastCut.position())) {
                                pastCut.offsets().add(h.baseOffset(), h.endOffset());
                            }
                        }
                    } else {
                        counts[1]++;
                        if (h.messageCount() > 0 && ours) {
                            unverifiedOffsets.add(h.baseOffset(), h.endOffset());
                        }
                    }
                    totals[0]++;
                    totals[2] = U64.addSat(totals[2], h.batchLength());
                    if (writer != null) {
                        long m = writer.batch(s, log, cursor, position, U64.addSat(base, position), h, verified,
                                where, defect, !ours);
                        counts[2] += m;
                        totals[1] += m;
                    } else {
                        counts[2] += h.messageCount();
                        totals[1] += h.messageCount();
                    }
                }

                @Override
                public void lost(long from, long to, String why) {
                    lost.add(new ByteRange(U64.addSat(base, from), U64.addSat(base, to), why));
                }

                @Override
                public void unexamined(long from, long to, String why) {
                    unexamined.add(new ByteRange(U64.addSat(base, from), U64.addSat(base, to), why));
                }
            };
            LogScan.Stats stats = new LogScan(log, s.start(), partitionId, options.maxBatchBytes(), verifier)
                    .run(s.kind() == Source.Kind.SEGMENT, options.includeUnverified(), sink);
            return new SourceResult(s, log.size(), counts[0], counts[1], counts[2], offsets, List.copyOf(lost),
                    List.copyOf(unexamined), stats, s.kind() == Source.Kind.QUARANTINE ? null : indexClaim(s),
                    counts[3], pastDamage, pastCut);
        }
    }

    /**
     * The highest offset the segment's index names within its structurally consistent prefix (RECOVERY 4.2 rules 1
     * and 2: first entry {@code (S, ·, 0)}, offsets and positions strictly ascending), or null. Every such entry was
     * written after its chunk's first batch was appended, so its offset was handed to a client.
     */
    static Long indexClaim(Source s) throws IOException {
        Path index = s.origin().resolveSibling(SegmentFiles.stemOf(s.origin().getFileName().toString())
                + SegmentFiles.INDEX);
        if (!Files.exists(index, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        RegularFile.require(index);
        try (IndexFile f = IndexFile.open(index)) {
            Long claim = null;
            IndexEntry prev = null;
            for (long i = 0; i < f.entries(); i++) {
                if ((i & 0x3FF) == 0) {
                    checkCancelled();
                }
                IndexEntry e = f.entry(i);
                boolean ok = prev == null ? e.offset() == s.start() && e.position() == 0
                        : U64.gt(e.offset(), prev.offset()) && U64.gt(e.position(), prev.position());
                if (!ok) {
                    break;
                }
                claim = e.offset();
                prev = e;
            }
            return claim;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    // ---- the archive -----------------------------------------------------------------------------------------

    /** Writes the archive files into the temporary directory as the scan goes. */
    private static final class Writer implements Closeable {
        private final Path dir;
        private final FileChannel data;
        private final OutputStream batchesOut;
        private final JsonGenerator batches;
        private final OutputStream messagesOut;
        private final JsonGenerator messages;
        private long nextId;
        private long dataPosition;
        private final String version;

        Writer(Path dir, boolean withMessages, String version) throws IOException {
            this.dir = dir;
            this.version = version;
            ObjectMapper m = new ObjectMapper();
            this.data = FileChannel.open(dir.resolve(BATCHES_LOG), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            this.batchesOut = Files.newOutputStream(dir.resolve(BATCHES_NDJSON), StandardOpenOption.CREATE_NEW);
            this.batches = m.getFactory().createGenerator(batchesOut, JsonEncoding.UTF8);
            batches.setRootValueSeparator(null);
            batches.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            if (withMessages) {
                this.messagesOut = Files.newOutputStream(dir.resolve(MESSAGES_NDJSON), StandardOpenOption.CREATE_NEW);
                this.messages = m.getFactory().createGenerator(messagesOut, JsonEncoding.UTF8);
                messages.setRootValueSeparator(null);
                messages.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            } else {
                this.messagesOut = null;
                this.messages = null;
            }
        }

        /** Copies one record, writes its manifest line and its messages; returns how many messages were written. */
        long batch(Source s, SegmentChannel log, LogCursor cursor, long position, long originPosition, BatchHeader h,
                   boolean verified, Location where, Defect defect, boolean foreign) throws IOException {
            long id = nextId++;
            long archiveAt = dataPosition;
            long hash = log.withRange(position, h.batchLength(), (buf, at) -> {
                ByteBuffer slice = buf.duplicate();
                slice.limit(at + (int) h.batchLength()).position(at);
                while (slice.hasRemaining()) {
                    data.write(slice);
                }
                return Xxh3.hash(buf, at, (int) h.batchLength());
            });
            dataPosition += h.batchLength();
            JsonGenerator g = batches;
            g.writeStartObject();
            g.writeNumberField("id", id);
            g.writeStringField("location", where.json());
            g.writeBooleanField("verified", verified);
            g.writeBooleanField("foreign", foreign);
            if (defect != null) {
                g.writeStringField("defect", defect.describe());
            }
            g.writeObjectFieldStart("source");
            g.writeStringField("kind", s.kind().json());
            g.writeStringField("file", s.origin().toString());
            if (s.kind() == Source.Kind.QUARANTINE) {
                g.writeStringField("copy", s.file().toString());
            }
            if (s.fenceNumber() >= 0) {
                g.writeNumberField("fence", s.fenceNumber());
            }
            u64(g, "position", originPosition);
            g.writeEndObject();
            u64(g, "segment_start_offset", s.start());
            u64(g, "partition_id", h.partitionId());
            u64(g, "base_offset", h.baseOffset());
            if (h.messageCount() > 0) {
                u64(g, "end_offset", h.endOffset());
            } else {
                g.writeNullField("end_offset");
            }
            g.writeNumberField("message_count", h.messageCount());
            u64(g, "base_timestamp", h.baseTimestamp());
            u64(g, "origin_timestamp", h.originTimestamp());
            u64(g, "batch_length", h.batchLength());
            g.writeStringField("batch_checksum", Xxh3.hex(h.batchChecksum()));
            g.writeStringField("xxh3", Xxh3.hex(hash));
            g.writeObjectFieldStart("archive");
            g.writeStringField("file", BATCHES_LOG);
            u64(g, "position", archiveAt);
            g.writeEndObject();
            g.writeEndObject();
            g.flush();
            batchesOut.write('\n');
            if (messages == null) {
                return 0;
            }
            long[] n = {0};
            IOException[] failed = {null};
            cursor.messages(new LogCursor.Batch(position, h, null, false), MessageLines.MAX_PAYLOAD, mv -> {
                try {
                    MessageLines.write(messages, id, verified, mv);
                    messages.flush();
                    messagesOut.write('\n');
                    n[0]++;
                    return true;
                } catch (IOException e) {
                    failed[0] = e;
                    return false;
                }
            });
            if (failed[0] != null) {
                throw failed[0];
            }
            return n[0];
        }

        void summary(Result r, Path target, List<String> problems) throws IOException {
            data.force(true);
            batches.flush();
            batchesOut.flush();
            if (messages != null) {
                messages.flush();
                messagesOut.flush();
            }
            try (OutputStream o = Files.newOutputStream(dir.resolve(SUMMARY), StandardOpenOption.CREATE_NEW);
                 JsonGenerator g = new ObjectMapper().getFactory().createGenerator(o, JsonEncoding.UTF8)) {
                g.useDefaultPrettyPrinter();
                SalvageJson.summary(g, r, target, problems, messages != null, version, now());
            }
        }

        @Override
        public void close() throws IOException {
            try {
                batches.close();
                batchesOut.close();
                if (messages != null) {
                    messages.close();
                    messagesOut.close();
                }
            } finally {
                data.close();
            }
            for (String f : List.of(BATCHES_NDJSON, MESSAGES_NDJSON, SUMMARY)) {
                Path p = dir.resolve(f);
                if (Files.exists(p)) {
                    try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE)) {
                        c.force(true);
                    }
                }
            }
            force(dir);
        }
    }

    static void u64(JsonGenerator g, String name, long v) throws IOException {
        g.writeFieldName(name);
        if (v >= 0) {
            g.writeNumber(v);
        } else {
            g.writeNumber(new java.math.BigInteger(Long.toUnsignedString(v)));
        }
    }

    private static void force(Path dir) throws IOException {
        segtool.analyzers.archive.Directories.force(dir);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    /** For tests and the summary: the instant the archive was made. */
    static String now() {
        return Instant.now().toString();
    }
}
