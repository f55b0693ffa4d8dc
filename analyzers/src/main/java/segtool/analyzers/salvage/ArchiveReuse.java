package segtool.analyzers.salvage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;
import segtool.formats.naming.PartitionPath;

/**
 * Whether a salvage archive already at OUT may stand for the one {@code repair --accept-loss --apply} would write
 * now (an interrupted run wrote it before its first cut). Offsets are not enough: the archive must hold, byte for
 * byte, every record that verifies in the partition now. Two checks, each one pass, memory bounded:
 * <ol>
 *   <li>the archive itself: each line of {@code batches.ndjson} names a record at the next position of
 *       {@code batches.log}, of its {@code batch_length}, whose bytes hash to its {@code xxh3} and carry its
 *       {@code base_offset}; a line marked verified verifies there (F 2.5); the lines cover the file end to end;</li>
 *   <li>the partition: every record that verifies now, wherever salvage finds it (live segments, fences,
 *       quarantines), is an archived verified record with the same {@code base_offset} and the same XXH3-64 of its
 *       bytes: also a record of another partition's id and an empty one, which a fresh salvage archives too.</li>
 * </ol>
 * The archive's keys are held in a table of at most {@value #KEYS_PER_PASS} per pass; an archive with more records
 * is checked in several passes, each taking the keys of one hash class.
 */
public final class ArchiveReuse {
    static final int KEYS_PER_PASS = 1 << 19;

    private ArchiveReuse() {
    }

    /**
     * Null when the archive at {@code archive} holds every record that verifies in {@code partition} now, byte for
     * byte; otherwise one line saying what does not hold.
     */
    public static String refusal(PartitionPath partition, Path archive, long maxBatchBytes, int window)
            throws IOException {
        Path log = archive.resolve(Salvager.BATCHES_LOG);
        Path lines = archive.resolve(Salvager.BATCHES_NDJSON);
        for (Path f : new Path[] {log, lines, archive.resolve(Salvager.MESSAGES_NDJSON)}) {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                return f + ": missing or not a regular file; the salvage archive at " + archive + " cannot be "
                        + "reused (salvage to a new directory)";
            }
        }
        long records;
        try (SegmentChannel data = SegmentChannel.open(log, window);
             RecordVerifier verifier = new RecordVerifier()) {
            long[] next = {0};
            long[] count = {0};
            String bad = eachLine(lines, (n, line) -> {
                long position = u64(line.path("archive").path("position"));
                long length = u64(line.path("batch_length"));
                long base = u64(line.path("base_offset"));
                String where = lines + " line " + n + " (" + log + " byte " + U64.str(position) + ")";
                if (position != next[0]) {
                    return where + ": the records of batches.log are not back to back (the previous one ends at "
                            + "byte " + U64.str(next[0]) + ")";
                }
                if (length < BatchHeader.LENGTH || Long.compareUnsigned(length, data.size() - position) > 0
                        || length > Integer.MAX_VALUE) {
                    return where + ": a record of " + U64.str(length) + " bytes does not fit batches.log ("
                            + data.size() + " bytes)";
                }
                long[] got = data.withRange(position, length, (buf, at) -> new long[] {
                    Xxh3.hash(buf, at, (int) length),
                    segtool.formats.io.LittleEndian.u64(buf, at + BatchHeader.BASE_OFFSET_OFFSET)});
                if (got[0] != hex(line.path("xxh3").asText()) || got[1] != base) {
                    return where + ": the archived bytes do not hash to the line's xxh3 " + line.path("xxh3")
                            .asText() + " or do not carry its base_offset (XXH3-64 " + Xxh3.hex(got[0]) + ")";
                }
                if (line.path("verified").asBoolean(false)) {
                    Defect d = verifier.verify(data, position, length);
                    if (d != null) {
                        return where + ": the archived record does not verify: " + d.describe();
                    }
                }
                next[0] = position + length;
                count[0]++;
                return null;
            });
            if (bad != null) {
                return bad + "; the salvage archive cannot be reused (salvage to a new directory)";
            }
            if (next[0] != data.size()) {
                return log + ": bytes [" + next[0] + ", " + data.size() + ") belong to no line of " + lines
                        + "; the salvage archive cannot be reused (salvage to a new directory)";
            }
            records = count[0];
        }
        int passes = (int) Math.max(1, (records + KEYS_PER_PASS - 1) / KEYS_PER_PASS);
        for (int pass = 0; pass < passes; pass++) {
            KeySet keys = new KeySet((int) Math.min(KEYS_PER_PASS, records));
            int p = pass;
            eachLine(lines, (n, line) -> {
                if (line.path("verified").asBoolean(false)) {
                    long k = key(u64(line.path("base_offset")), hex(line.path("xxh3").asText()));
                    if (Math.floorMod(k, passes) == p) {
                        keys.add(k);
                    }
                }
                return null;
            });
            String missing = missing(partition, keys, passes, p, maxBatchBytes, window);
            if (missing != null) {
                return archive + ": does not hold " + missing + " byte for byte; the salvage archive cannot be "
                        + "reused (salvage to a new directory)";
            }
        }
        return null;
    }

    /** The first record of the partition verifying now whose key is of class {@code pass} and not in {@code keys}. */
    private static String missing(PartitionPath partition, KeySet keys, int passes, int pass, long maxBatchBytes,
                                  int window) throws IOException {
        List<String> problems = new ArrayList<>();
        Long partitionId = partition.hasPartitionId() ? partition.partitionId() : null;   // any u64 once known
        try (RecordVerifier verifier = new RecordVerifier()) {
            for (Source s : Salvager.sources(partition.directory(), problems)) {
                String[] found = {null};
                try (SegmentChannel log = SegmentChannel.open(s.file(), window)) {
                    LogScan.Sink sink = new LogScan.Sink() {
                        @Override
                        public void batch(long position, BatchHeader h, boolean verified, boolean chain,
                                          Defect defect) throws IOException {
                            // every record that verifies, as a fresh salvage archives it: also another partition's
                            // (flagged foreign there) and an empty one
                            if (found[0] != null || !verified) {
                                return;
                            }
                            long base = h.baseOffset();
                            long end = h.endOffset();
                            long length = h.batchLength();
                            long hash = log.withRange(position, length, (buf, at) -> Xxh3.hash(buf, at,
                                    (int) length));
                            long k = key(base, hash);
                            if (Math.floorMod(k, passes) == pass && !keys.contains(k)) {
                                found[0] = "the record at byte " + U64.str(U64.addSat(s.base(), position)) + " of "
                                        + s.origin() + (s.kind() == Source.Kind.QUARANTINE ? " (copy " + s.file()
                                        + ")" : "") + ", offsets " + U64.str(base) + ".." + U64.str(end)
                                        + ", XXH3-64 " + Xxh3.hex(hash);
                            }
                        }

                        @Override
                        public void lost(long from, long to, String why) {
                        }

                        @Override
                        public void unexamined(long from, long to, String why) {
                        }
                    };
                    new LogScan(log, s.start(), partitionId, maxBatchBytes, verifier)
                            .run(s.kind() == Source.Kind.SEGMENT, false, sink);
                }
                if (found[0] != null) {
                    return found[0];
                }
            }
        }
        if (!problems.isEmpty()) {
            return "what " + problems.get(0) + " holds (it cannot be read)";
        }
        return null;
    }

    private interface LineCheck {
        String check(long n, JsonNode line) throws IOException;
    }

    /** Runs {@code check} on each line of {@code file} in order; the first non-null answer stops and is returned. */
    private static String eachLine(Path file, LineCheck check) throws IOException {
        ObjectMapper m = new ObjectMapper();
        try (MappingIterator<JsonNode> it = m.readerFor(JsonNode.class).readValues(file.toFile())) {
            long n = 0;
            while (it.hasNextValue()) {
                n++;
                JsonNode line;
                try {
                    line = it.nextValue();
                } catch (IOException | RuntimeException bad) {
                    return file + " line " + n + ": not JSON (" + bad.getMessage().lines().findFirst().orElse("")
                            + ")";
                }
                String why = check.check(n, line);
                if (why != null) {
                    return why;
                }
                Salvager.checkCancelled();
            }
        } catch (RuntimeException bad) {
            return file + ": not JSON lines (" + String.valueOf(bad.getMessage()).lines().findFirst().orElse("")
                    + ")";
        }
        return null;
    }

    private static long u64(JsonNode n) {
        if (!n.isIntegralNumber()) {
            return -1;
        }
        return n.bigIntegerValue().longValue();
    }

    private static long hex(String s) {
        if (s.startsWith("0x") || s.startsWith("0X")) {
            s = s.substring(2);
        }
        try {
            return Long.parseUnsignedLong(s, 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** One key per record: its base offset and the XXH3-64 of its bytes, mixed (a 64-bit collision is 2^-64). */
    static long key(long baseOffset, long xxh3) {
        long k = xxh3 ^ (baseOffset * 0x9E3779B97F4A7C15L);
        k ^= k >>> 31;
        return k * 0xBF58476D1CE4E5B9L;
    }

    /** An open-addressing set of longs; 0 is held by a flag. Grows at half full. */
    private static final class KeySet {
        private long[] table;
        private int size;
        private boolean zero;

        KeySet(int expected) {
            table = new long[Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1];
        }

        void add(long k) {
            if (k == 0) {
                zero = true;
                return;
            }
            if (insert(table, k)) {
                size++;
                if (size * 2 > table.length) {
                    long[] bigger = new long[table.length * 2];
                    for (long x : table) {
                        if (x != 0) {
                            insert(bigger, x);
                        }
                    }
                    table = bigger;
                }
            }
        }

        private static boolean insert(long[] t, long k) {
            int mask = t.length - 1;
            int i = slot(k) & mask;
            while (t[i] != 0) {
                if (t[i] == k) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            t[i] = k;
            return true;
        }

        boolean contains(long k) {
            if (k == 0) {
                return zero;
            }
            int mask = table.length - 1;
            int i = slot(k) & mask;
            while (table[i] != 0) {
                if (table[i] == k) {
                    return true;
                }
                i = (i + 1) & mask;
            }
            return false;
        }

        private static int slot(long k) {
            return (int) (k ^ (k >>> 32));
        }
    }
}
