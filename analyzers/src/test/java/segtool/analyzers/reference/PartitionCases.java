package segtool.analyzers.reference;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.writer.PartitionWriter;

/**
 * Random partitions for the differential test: healthy ones written by the byte-exact {@link PartitionWriter} (one
 * to four segments, empty batches, sparse indexes as the flush writer makes them, anchored gaps), then broken with
 * damage drawn from a catalogue. Everything follows from the seed, and {@link Case#story} says what was done, so a
 * failing seed can be read without a debugger.
 */
public final class PartitionCases {
    private static final long MAX = -1L;
    private static final long[] SPECIAL = {0L, Long.MIN_VALUE, MAX};

    /** One generated partition directory: its id, its files by name, an optional checkpoint, and how it was made. */
    public record Case(long partitionId, Map<String, byte[]> files, List<String> loops,
                       ReferenceRecovery.Checkpoint checkpoint, List<String> story) {
        /** Writes the files into {@code dir} (created; it must not hold anything else); loops link to themselves. */
        public void writeTo(Path dir) throws IOException {
            Files.createDirectories(dir);
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Files.write(dir.resolve(f.getKey()), f.getValue());
            }
            for (String loop : loops) {
                Files.deleteIfExists(dir.resolve(loop));
                Files.createSymbolicLink(dir.resolve(loop), Path.of(loop));
            }
        }
    }

    /** A record's place, so damage can aim at whole records. */
    private record Span(String log, int position, int length) {
    }

    private final Random rnd;
    private final boolean u64Focus;
    private final TreeMap<String, byte[]> files = new TreeMap<>();
    private final List<Span> records = new ArrayList<>();
    private final List<long[]> segments = new ArrayList<>();   // {start, endOffset}
    private final List<String> story = new ArrayList<>();
    private final List<String> loops = new ArrayList<>();
    private long partitionId;

    private PartitionCases(long seed, boolean u64Focus) {
        this.rnd = new Random(seed);
        this.u64Focus = u64Focus;
    }

    /** A case from the whole catalogue. {@code scratch} is an empty directory the writer may use. */
    public static Case generate(long seed, Path scratch) throws IOException {
        return new PartitionCases(seed, false).build(scratch);
    }

    /** A case aimed at saturating u64 arithmetic: offsets near 2^64-1, positions and lengths near 2^63. */
    public static Case generateU64(long seed, Path scratch) throws IOException {
        return new PartitionCases(seed, true).build(scratch);
    }

    private Case build(Path scratch) throws IOException {
        partitionId = pick(1L, 1L, 1L, 0L, 3L, 42L);
        long start = startOffset();
        story.add("partition " + partitionId + ", start " + Long.toUnsignedString(start));
        PartitionWriter.Config config = config(start);
        long next = write(scratch, config, 0);
        if (!u64Focus && rnd.nextInt(10) == 0 && segments.size() < 4 && next != MAX) {
            long gap = 1 + rnd.nextInt(50);
            long[] sealed = segments.get(segments.size() - 1);
            long planted = next + gap;
            write(scratch, config.startOffset(planted), 1);
            if (segments.get(segments.size() - 1)[0] == planted) {
                anchor(planted, sealed[0], sealed[1]);
            }
        }
        int damages = rnd.nextInt(7) == 0 ? 0 : 1 + rnd.nextInt(3);
        for (int i = 0; i < damages; i++) {
            damage();
        }
        ReferenceRecovery.Checkpoint cp = rnd.nextInt(8) == 0 ? checkpoint() : null;
        if (cp != null) {
            story.add("checkpoint (" + Long.toUnsignedString(cp.start()) + ", " + cp.length() + ", "
                    + Long.toUnsignedString(cp.next()) + ")");
        }
        return new Case(partitionId, new TreeMap<>(files), List.copyOf(loops), cp, story);
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[rnd.nextInt(options.length)];
    }

    private long startOffset() {
        if (u64Focus) {
            switch (rnd.nextInt(4)) {
                case 0:
                    return MAX - rnd.nextInt(12);
                case 1:
                    return MAX - 1 - rnd.nextInt(3);
                case 2:
                    return Long.MAX_VALUE - rnd.nextInt(6);
                default:
                    return Long.MIN_VALUE + rnd.nextInt(4);
            }
        }
        int r = rnd.nextInt(20);
        if (r < 14) {
            return 0;
        }
        if (r < 18) {
            return rnd.nextInt(1_000_000);
        }
        return MAX - rnd.nextInt(20);
    }

    private PartitionWriter.Config config(long start) {
        long segmentSize = rnd.nextInt(3) == 0 ? Long.MAX_VALUE : 600 + rnd.nextInt(3000);
        if (Long.compareUnsigned(start, MAX - 1000) > 0) {
            // offsets saturate at 2^64-1, so a rotation there would name a second segment like the first
            segmentSize = Long.MAX_VALUE;
        }
        return PartitionWriter.Config.of(partitionId).startOffset(start).segmentSize(segmentSize)
                .messagesRequiredToSave(1 + rnd.nextInt(4))
                .sizeRequiredToSave(rnd.nextBoolean() ? 1L << 20 : 300 + rnd.nextInt(3000))
                .writeEmptyBatches(rnd.nextInt(5) == 0)
                .firstTimestamp(1_700_000_000_000_000L + rnd.nextInt(1_000_000))
                .timestampStep(rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(5000));
    }

    /** Writes one run of batches; returns the writer's next offset. Segments and record spans are recorded. */
    private long write(Path scratch, PartitionWriter.Config config, int run) throws IOException {
        Path dir = scratch.resolve("w" + run);
        List<PartitionWriter.SegmentLayout> layout;
        long next;
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            int batches = 1 + rnd.nextInt(u64Focus ? 5 : 10);
            boolean lastEmpty = false;
            for (int b = 0; b < batches && w.segments().size() + segments.size() < 4; b++) {
                // never two empty batches in a row: with segments of 600 bytes or more every sealed segment then
                // holds a message, so a rotation never names a second segment like the first
                int n = config.writeEmptyBatches() && !lastEmpty && rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(3);
                lastEmpty = n == 0;
                List<Message> messages = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int size = rnd.nextInt(40) == 0 ? 30_000 + rnd.nextInt(45_000) : rnd.nextInt(250);
                    byte[] payload = new byte[size];
                    rnd.nextBytes(payload);
                    byte[] headers = rnd.nextInt(5) == 0 ? new byte[1 + rnd.nextInt(30)] : null;
                    if (headers != null) {
                        rnd.nextBytes(headers);
                    }
                    messages.add(new Message(rnd.nextLong(), rnd.nextLong(), rnd.nextInt(1000), payload, headers));
                }
                w.append(messages);
            }
            w.close();
            layout = w.segments();
            next = w.nextOffset();
        }
        for (PartitionWriter.SegmentLayout s : layout) {
            String log = s.log().getFileName().toString();
            files.put(log, Files.readAllBytes(s.log()));
            files.put(s.index().getFileName().toString(), Files.readAllBytes(s.index()));
            segments.add(new long[]{s.startOffset(), s.endOffset()});
            for (PartitionWriter.BatchInfo b : s.batches()) {
                records.add(new Span(log, (int) b.position(), (int) b.length()));
            }
        }
        story.add("run " + run + ": " + layout.size() + " segment(s) " + describe(layout) + ", empty batches "
                + config.writeEmptyBatches() + ", next offset " + Long.toUnsignedString(next));
        deleteTree(dir);
        return next;
    }

    private static String describe(List<PartitionWriter.SegmentLayout> layout) {
        StringBuilder sb = new StringBuilder();
        for (PartitionWriter.SegmentLayout s : layout) {
            sb.append('[').append(Long.toUnsignedString(s.startOffset())).append(' ').append(s.length()).append("B ")
                    .append(s.batches().size()).append("b ").append(s.entries().size()).append("e]");
        }
        return sb.toString();
    }

    private void anchor(long planted, long sealedStart, long sealedEnd) {
        byte[] a = new AnchorRecord(planted, sealedStart, sealedEnd).encode();
        String kind = "valid";
        switch (rnd.nextInt(6)) {
            case 0:
                a = new AnchorRecord(planted, sealedStart, sealedEnd + 1).encode();
                kind = "sealed_end off by one";
                break;
            case 1:
                a[32] ^= 1;
                kind = "bad checksum";
                break;
            case 2:
                a = Arrays.copyOf(a, 39);
                kind = "39 bytes";
                break;
            default:
                break;
        }
        files.put(ReferenceRecovery.stem(planted) + ".anchor", a);
        story.add("anchor at " + Long.toUnsignedString(planted) + " (" + kind + ")");
    }

    private List<String> names(String ext) {
        List<String> out = new ArrayList<>();
        for (String n : files.keySet()) {
            if (n.endsWith(ext)) {
                out.add(n);
            }
        }
        return out;
    }

    private String anyFile() {
        List<String> logs = names(".log");
        List<String> indexes = names(".index");
        if (!indexes.isEmpty() && (logs.isEmpty() || rnd.nextInt(10) < 3)) {
            return indexes.get(rnd.nextInt(indexes.size()));
        }
        return logs.isEmpty() ? null : logs.get(rnd.nextInt(logs.size()));
    }

    private Span anyRecord() {
        if (records.isEmpty()) {
            return null;
        }
        Span s = records.get(rnd.nextInt(records.size()));
        byte[] log = files.get(s.log);
        return log != null && s.position + s.length <= log.length ? s : null;
    }

    private void put(String name, byte[] bytes, String what) {
        files.put(name, bytes);
        story.add(what);
    }

    private void damage() {
        int kind = rnd.nextInt(u64Focus ? 6 : 23);
        if (u64Focus) {
            kind = new int[]{15, 16, 17, 2, 3, 0}[kind];
        }
        String f = anyFile();
        if (f == null) {
            return;
        }
        byte[] b = files.get(f);
        switch (kind) {
            case 0: {   // bit flip anywhere
                if (b.length == 0) {
                    return;
                }
                int at = rnd.nextInt(b.length);
                int bit = rnd.nextInt(8);
                b = b.clone();
                b[at] ^= (byte) (1 << bit);
                put(f, b, "flip bit " + bit + " of byte " + at + " of " + f);
                return;
            }
            case 1: {   // truncation at any byte
                int to = rnd.nextInt(b.length + 1);
                put(f, Arrays.copyOf(b, to), "truncate " + f + " to " + to);
                return;
            }
            case 2: {   // appended garbage
                int n = rnd.nextInt(10) == 0 ? 1 + rnd.nextInt(20_000) : 1 + rnd.nextInt(700);
                byte[] g = new byte[n];
                rnd.nextBytes(g);
                put(f, concat(b, g), "append " + n + " garbage bytes to " + f);
                return;
            }
            case 3: {   // appended zeros
                int n = rnd.nextInt(10) == 0 ? 1 + rnd.nextInt(70_000) : 1 + rnd.nextInt(700);
                put(f, concat(b, new byte[n]), "append " + n + " zero bytes to " + f);
                return;
            }
            case 4: {   // overwritten range
                if (b.length == 0) {
                    return;
                }
                int at = rnd.nextInt(b.length);
                int n = Math.min(b.length - at, 1 + rnd.nextInt(300));
                byte[] fill = new byte[n];
                boolean zeros = rnd.nextBoolean();
                if (!zeros) {
                    rnd.nextBytes(fill);
                }
                b = b.clone();
                System.arraycopy(fill, 0, b, at, n);
                put(f, b, "overwrite " + n + (zeros ? " zero" : " random") + " bytes at " + at + " of " + f);
                return;
            }
            case 5: {   // spliced range: bytes of one place inserted at another
                String g = anyFile();
                byte[] src = files.get(g);
                if (src.length == 0) {
                    return;
                }
                int from = rnd.nextInt(src.length);
                int n = Math.min(src.length - from, 1 + rnd.nextInt(1000));
                int at = rnd.nextInt(b.length + 1);
                byte[] out = concat(Arrays.copyOf(b, at), Arrays.copyOfRange(src, from, from + n),
                        Arrays.copyOfRange(b, at, b.length));
                put(f, out, "splice " + n + " bytes of " + g + "@" + from + " into " + f + "@" + at);
                return;
            }
            case 6:
            case 7: {   // a whole record copied elsewhere: inserted at a boundary, overwriting, or appended
                Span s = anyRecord();
                List<String> logs = names(".log");
                if (s == null || logs.isEmpty()) {
                    return;
                }
                byte[] rec = Arrays.copyOfRange(files.get(s.log), s.position, s.position + s.length);
                String to = logs.get(rnd.nextInt(logs.size()));
                byte[] dst = files.get(to);
                int mode = rnd.nextInt(3);
                int at = mode == 2 ? dst.length : rnd.nextInt(dst.length + 1);
                byte[] out;
                if (mode == 1) {
                    out = dst.clone();
                    int n = Math.min(rec.length, out.length - at);
                    System.arraycopy(rec, 0, out, at, n);
                } else {
                    out = concat(Arrays.copyOf(dst, at), rec, Arrays.copyOfRange(dst, at, dst.length));
                }
                put(to, out, "copy record " + s.log + "@" + s.position + " (" + s.length + "B) "
                        + new String[]{"inserted", "overwritten", "appended"}[mode] + " at " + to + "@" + at);
                return;
            }
            case 8:
            case 9:
                indexDamage();
                return;
            case 10: {  // foreign partition id, checksum restamped
                Span s = anyRecord();
                if (s == null) {
                    return;
                }
                long other = pick(partitionId + 1, 0L, 7L, MAX);
                restampField(s, 0, other, "foreign partition_id " + Long.toUnsignedString(other));
                return;
            }
            case 11: {  // offset gap (or regression), checksum restamped, for one record or every one after it
                Span s = anyRecord();
                if (s == null) {
                    return;
                }
                long delta = pick(1L, 2L, 5L, -1L);
                boolean rest = rnd.nextBoolean();
                for (Span t : records) {
                    if (t.log.equals(s.log) && (t.position == s.position || (rest && t.position > s.position))) {
                        byte[] log = files.get(t.log);
                        if (log == null || t.position + t.length > log.length) {
                            continue;
                        }
                        long base = LittleEndian.u64(log, t.position + 8);
                        restampField(t, 8, base + delta, null);
                    }
                }
                story.add("base_offset " + (delta > 0 ? "+" : "") + delta + " from " + s.log + "@" + s.position
                        + (rest ? " onwards" : " only") + ", restamped");
                return;
            }
            case 12: {  // deleted middle segment (both files or one)
                List<String> logs = names(".log");
                if (logs.size() < 2) {
                    return;
                }
                String log = logs.get(rnd.nextInt(logs.size()));
                String stem = log.substring(0, log.length() - 4);
                int which = rnd.nextInt(3);
                if (which != 1) {
                    files.remove(log);
                }
                if (which != 0) {
                    files.remove(stem + ".index");
                }
                story.add("delete " + new String[]{"log", "index", "log and index"}[which] + " of " + stem);
                return;
            }
            case 13: {  // zero-length segment
                List<String> logs = names(".log");
                if (logs.isEmpty()) {
                    return;
                }
                String log = logs.get(rnd.nextInt(logs.size()));
                String stem = log.substring(0, log.length() - 4);
                files.put(log, new byte[0]);
                files.put(stem + ".index", new byte[0]);
                story.add("zero-length " + stem);
                return;
            }
            case 14: {  // orphans and scratch files
                byte[] junk = new byte[rnd.nextInt(100)];
                rnd.nextBytes(junk);
                String name = pick(ReferenceRecovery.stem(rnd.nextInt(1000) + 1_000_000L) + ".index",
                        ReferenceRecovery.stem(rnd.nextInt(1000) + 2_000_000L) + ".anchor",
                        f + ".staging", "00000000000000000000.index.staging", "x.staging",
                        ReferenceRecovery.stem(5) + ".index");
                put(name, junk, "orphan/scratch file " + name + " (" + junk.length + "B)");
                return;
            }
            case 15: {  // u64 header field at 0, 2^63 or 2^64-1, restamped or not
                Span s = anyRecord();
                if (s == null) {
                    return;
                }
                int field = pick(0, 8, 16, 24, 32, 8, 32);
                long v = SPECIAL[rnd.nextInt(3)] + (rnd.nextInt(3) == 0 ? -rnd.nextInt(3) : 0);
                if (rnd.nextBoolean() && field != 32) {
                    restampField(s, field, v, "header field @" + field + " := " + Long.toUnsignedString(v));
                } else {
                    byte[] log = files.get(s.log).clone();
                    LittleEndian.putU64(log, s.position + field, v);
                    put(s.log, log, "header field @" + field + " of " + s.log + "@" + s.position + " := "
                            + Long.toUnsignedString(v) + " (not restamped)");
                }
                return;
            }
            case 16: {  // u64 index field at 0, 2^63 or 2^64-1 (and neighbours)
                List<String> idx = names(".index");
                if (idx.isEmpty()) {
                    return;
                }
                String i = idx.get(rnd.nextInt(idx.size()));
                byte[] x = files.get(i);
                if (x.length < 24) {
                    return;
                }
                x = x.clone();
                int e = rnd.nextInt(x.length / 24);
                int field = 8 * rnd.nextInt(3);
                long v = SPECIAL[rnd.nextInt(3)] - rnd.nextInt(300);
                LittleEndian.putU64(x, e * 24 + field, v);
                put(i, x, "index " + i + " entry " + e + " field " + field + " := " + Long.toUnsignedString(v));
                return;
            }
            case 17: {  // an index entry appended past the log's end, or a header claiming near-2^63 length
                List<String> idx = names(".index");
                if (idx.isEmpty()) {
                    return;
                }
                String i = idx.get(rnd.nextInt(idx.size()));
                String log = i.substring(0, i.length() - 6) + ".log";
                byte[] l = files.getOrDefault(log, new byte[0]);
                long off = pick(MAX, Long.MIN_VALUE, MAX - 1, 0L) - rnd.nextInt(2);
                long pos = pick((long) l.length, Long.MIN_VALUE, MAX - 255, MAX, (long) l.length + 1);
                byte[] e = new byte[24];
                LittleEndian.putU64(e, 0, off);
                LittleEndian.putU64(e, 8, rnd.nextLong());
                LittleEndian.putU64(e, 16, pos);
                put(i, concat(files.get(i), e), "index " + i + " + entry (" + Long.toUnsignedString(off) + ", *, "
                        + Long.toUnsignedString(pos) + ")");
                return;
            }
            case 18: {  // plausible headers packed into the residue (the budget example of RECOVERY 10)
                List<String> logs = names(".log");
                if (logs.isEmpty()) {
                    return;
                }
                String log = logs.get(rnd.nextInt(logs.size()));
                int k = 1 + rnd.nextInt(80);
                byte[] spam = new byte[256 * k];
                long base = pick(100L, 1L << 40, MAX);
                for (int j = 0; j < k; j++) {
                    LittleEndian.putU64(spam, 256 * j, partitionId);
                    LittleEndian.putU64(spam, 256 * j + 8, base);
                    LittleEndian.putU64(spam, 256 * j + 32, 8192);
                    LittleEndian.putU32(spam, 256 * j + 48, 1 + j % 64);
                }
                put(log, concat(files.get(log), spam), "append " + k + " plausible 256-byte headers to " + log);
                return;
            }
            case 19: {  // a non-canonical name for a log
                List<String> logs = names(".log");
                if (logs.isEmpty()) {
                    return;
                }
                String log = logs.get(rnd.nextInt(logs.size()));
                Long s = ReferenceRecovery.parseU64(log.substring(0, log.length() - 4));
                if (s == null) {
                    return;
                }
                String name = (rnd.nextBoolean() ? "+" : "") + Long.toUnsignedString(s) + ".log";
                byte[] bytes = rnd.nextBoolean() ? files.get(log) : new byte[0];
                put(name, bytes, "non-canonical " + name + " (" + bytes.length + "B)");
                return;
            }
            case 22: {  // a file that cannot be read: a symbolic link to itself (ELOOP)
                String name = rnd.nextInt(4) == 0 && !names(".anchor").isEmpty() ? names(".anchor").get(0) : f;
                files.remove(name);
                loops.add(name);
                story.add(name + " is a symlink loop");
                return;
            }
            default: {  // a torn tail: cut inside the last record of a log
                Span s = anyRecord();
                if (s == null) {
                    return;
                }
                byte[] log = files.get(s.log);
                int to = s.position + rnd.nextInt(s.length);
                put(s.log, Arrays.copyOf(log, to), "tear " + s.log + " at " + to + " (inside the record at "
                        + s.position + ")");
            }
        }
    }

    private void indexDamage() {
        List<String> idx = names(".index");
        if (idx.isEmpty()) {
            return;
        }
        String i = idx.get(rnd.nextInt(idx.size()));
        byte[] x = files.get(i);
        int n = x.length / 24;
        List<byte[]> entries = new ArrayList<>();
        for (int e = 0; e < n; e++) {
            entries.add(Arrays.copyOfRange(x, 24 * e, 24 * e + 24));
        }
        byte[] tail = Arrays.copyOfRange(x, 24 * n, x.length);
        String what;
        int op = rnd.nextInt(6);
        if (n == 0) {
            op = 5;
        }
        switch (op) {
            case 0: {   // mutate a field
                int e = rnd.nextInt(n);
                int field = 8 * rnd.nextInt(3);
                long v = LittleEndian.u64(entries.get(e), field) + pick(1L, -1L, 315L, rnd.nextLong());
                LittleEndian.putU64(entries.get(e), field, v);
                what = "entry " + e + " field " + field + " := " + Long.toUnsignedString(v);
                break;
            }
            case 1: {   // duplicate
                int e = rnd.nextInt(n);
                entries.add(e, entries.get(e).clone());
                what = "duplicate entry " + e;
                break;
            }
            case 2: {   // remove
                int e = rnd.nextInt(n);
                entries.remove(e);
                what = "remove entry " + e;
                break;
            }
            case 3: {   // reorder
                int a = rnd.nextInt(n);
                int b = rnd.nextInt(n);
                byte[] t = entries.get(a);
                entries.set(a, entries.get(b));
                entries.set(b, t);
                what = "swap entries " + a + " and " + b;
                break;
            }
            case 4: {   // entries the log does not back (V3/V4)
                int k = 1 + rnd.nextInt(2);
                String log = i.substring(0, i.length() - 6) + ".log";
                long len = files.getOrDefault(log, new byte[0]).length;
                long last = n > 0 ? LittleEndian.u64(entries.get(n - 1), 0) : 0;
                for (int j = 0; j < k; j++) {
                    byte[] e = new byte[24];
                    LittleEndian.putU64(e, 0, last + 100 + j);
                    LittleEndian.putU64(e, 8, rnd.nextLong());
                    LittleEndian.putU64(e, 16, len + 55L * j);
                    entries.add(e);
                }
                what = "append " + k + " unbacked entries";
                break;
            }
            default: {  // a partial trailing entry
                tail = new byte[1 + rnd.nextInt(23)];
                rnd.nextBytes(tail);
                what = "partial trailing entry of " + tail.length + "B";
            }
        }
        byte[] out = new byte[0];
        for (byte[] e : entries) {
            out = concat(out, e);
        }
        put(i, concat(out, tail), "index " + i + ": " + what);
    }

    /** Sets a u64 header field of a record and recomputes its batch checksum (when the record still walks). */
    private void restampField(Span s, int field, long value, String what) {
        byte[] log = files.get(s.log).clone();
        byte[] rec = Arrays.copyOfRange(log, s.position, s.position + s.length);
        LittleEndian.putU64(rec, field, value);
        try {
            if (LittleEndian.u32(rec, 48) <= (rec.length - 256) / 48) {
                RecordEncoder.restamp(rec);
            }
        } catch (RuntimeException notAWholeRecord) {
            // the record's frames no longer walk; keep the edit unstamped
        }
        System.arraycopy(rec, 0, log, s.position, s.length);
        files.put(s.log, log);
        if (what != null) {
            story.add(what + " at " + s.log + "@" + s.position + ", restamped");
        }
    }

    private ReferenceRecovery.Checkpoint checkpoint() {
        List<String> logs = names(".log");
        long c;
        byte[] log;
        if (logs.isEmpty() || rnd.nextInt(10) == 0) {
            c = rnd.nextInt(100);
            log = new byte[0];
        } else {
            String name = logs.get(rnd.nextInt(logs.size()));
            Long s = ReferenceRecovery.parseU64(name.substring(0, name.length() - 4));
            c = s == null ? 0 : s;
            log = files.get(name);
        }
        List<Long> ends = new ArrayList<>();
        String stem = ReferenceRecovery.stem(c) + ".log";
        for (Span s : records) {
            if (s.log.equals(stem)) {
                ends.add((long) s.position + s.length);
            }
        }
        long lc;
        int r = rnd.nextInt(6);
        if (r == 0 || ends.isEmpty()) {
            lc = log.length;
        } else if (r == 1) {
            lc = log.length == 0 ? 0 : rnd.nextInt(log.length + 1);
        } else if (r == 2) {
            lc = log.length + 1 + rnd.nextInt(10);
        } else if (r == 3) {
            lc = 0;
        } else {
            lc = ends.get(rnd.nextInt(ends.size()));
        }
        long n;
        int k = rnd.nextInt(5);
        long after = MAX;
        for (long[] seg : segments) {
            if (Long.compareUnsigned(seg[0], c) > 0 && Long.compareUnsigned(seg[0], after) < 0) {
                after = seg[0];
            }
        }
        if (k == 0) {
            n = MAX;
        } else if (k == 1) {
            n = after;
        } else if (k == 2) {
            n = c + rnd.nextInt(20);
        } else if (k == 3) {
            n = after == MAX ? MAX : after + 1;
        } else {
            n = rnd.nextInt(200);
        }
        return new ReferenceRecovery.Checkpoint(c, lc, n);
    }

    static byte[] concat(byte[]... parts) {
        return segtool.formats.io.Bytes.concat(parts);
    }

    /** Deletes a directory tree (test scratch only). */
    public static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path c : ds) {
                    deleteTree(c);
                }
            }
        }
        Files.delete(p);
    }
}
