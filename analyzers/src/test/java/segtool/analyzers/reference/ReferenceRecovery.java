package segtool.analyzers.reference;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import segtool.formats.hash.Xxh3;

/**
 * A literal, slow transcription of RECOVERY.md, held against the engine by the differential test.
 *
 * <p>One method per section, named after it, in the order the spec runs them. Whole files are read into memory;
 * there are no windows, no parallelism and no shortcut in the probe: every candidate is decoded and charged one at a
 * time. Unsigned 64-bit arithmetic goes through {@link BigInteger} and saturates exactly where section 2.2 says.
 * Nothing here is shared with the engine: only XXH3 comes from {@code formats}; the header, frame, index and anchor
 * layouts (F 2.2-2.5, 3.1, 6) are decoded here from the bytes.
 *
 * <p>The reference never changes a file. Files the sweep deletes are treated as gone, as they are by the time the
 * server reads segments; pass C is computed as the list of operations the server would perform.
 */
public final class ReferenceRecovery {
    /** The WAL checkpoint of section 9: {@code (C, Lc, N)}. */
    public record Checkpoint(long start, long length, long next) {
    }

    // ---- 2.1 constants -------------------------------------------------------------------------------------------
    static final long HEADER = 256;
    static final long ENTRY = 24;
    static final long FRAME_HEADER = 48;
    static final long DEFAULT_MAX_MESSAGE_SIZE_UPPER_BYTES = 268_435_456L;
    static final long REBUILT_INDEX_STRIDE_BYTES = 65_536;
    static final long MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES = 1;
    static final long MAX_INDEX_ANCHOR_PROBE_ENTRIES = 4_096;
    static final long PROBE_BUDGET_UNITS_PER_RESIDUE_BYTE = 2;
    static final long PROBE_VERIFY_BUDGET_BYTES_PER_RESIDUE_BYTE = 4;
    static final int FENCED_DIR_PROBE_LIMIT = 1_000;
    static final long ANCHOR_MAGIC = 0x48434E4159474749L;

    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final Path dir;
    private final String dirName;
    private final long partitionId;
    private final boolean durable;
    private final Checkpoint checkpoint;
    private final long maxb;
    private final Budget budget = new Budget();
    private final Set<String> deleted = new HashSet<>();
    private final List<String> sweepOps = new ArrayList<>();
    private final List<String> stagingOps = new ArrayList<>();
    private final List<Seg> segs = new ArrayList<>();
    private final Set<Path> fencesTaken = new HashSet<>();
    private long recoverableBytes;

    private ReferenceRecovery(Path dir, long partitionId, boolean durable, Checkpoint checkpoint,
                              long maxMessageSizeUpperBytes) {
        this.dir = dir;
        this.dirName = dir.getFileName().toString();
        this.partitionId = partitionId;
        this.durable = durable;
        this.checkpoint = checkpoint;
        this.maxb = maxMessageSizeUpperBytes + HEADER;
    }

    /** The verdict boot recovery reaches for {@code dir} (RECOVERY 1): refused, transient I/O failure or accepted. */
    public static Verdict judge(Path dir, long partitionId, boolean durable, Checkpoint checkpoint) {
        return judge(dir, partitionId, durable, checkpoint, DEFAULT_MAX_MESSAGE_SIZE_UPPER_BYTES);
    }

    public static Verdict judge(Path dir, long partitionId, boolean durable, Checkpoint checkpoint,
                                long maxMessageSizeUpperBytes) {
        return new ReferenceRecovery(dir, partitionId, durable, checkpoint, maxMessageSizeUpperBytes).run();
    }

    // ---- the state of one segment --------------------------------------------------------------------------------

    private enum Result { KEEP, REBUILT, EMPTY }

    private static final class Seg {
        final long s;
        final Path logPath;
        final Path indexPath;
        final boolean checkpointSegment;
        long l;
        byte[] log = new byte[0];
        long indexLength;
        byte[] index = new byte[0];
        long n;
        Result result;
        long startTs;
        long endTs;
        long endOffset;
        long size;
        long indexSize;
        boolean recoveredEmpty;
        List<long[]> rebuilt;
        String status = "not_examined";
        final List<String> passC = new ArrayList<>();
        boolean changes;
        String passCFailure;
        Path passCFailurePath;

        Seg(long s, Path logPath, Path indexPath, boolean checkpointSegment) {
            this.s = s;
            this.logPath = logPath;
            this.indexPath = indexPath;
            this.checkpointSegment = checkpointSegment;
        }
    }

    private static final class Refusal extends RuntimeException {
        final Verdict.Refused refused;

        Refusal(String variant, long segmentStart, Object... namesAndValues) {
            super(variant, null, false, false);
            Map<String, Long> f = new LinkedHashMap<>();
            for (int i = 0; i < namesAndValues.length; i += 2) {
                f.put((String) namesAndValues[i], (Long) namesAndValues[i + 1]);
            }
            this.refused = new Verdict.Refused(variant, segmentStart, f);
        }
    }

    /** A transient failure (7.3): the path, the operation and the OS reason. */
    private static final class Transient extends RuntimeException {
        final Path path;

        Transient(Path path, String operation, Exception cause) {
            super(path + ": " + operation + (cause == null ? "" : ": " + cause), null, false, false);
            this.path = path;
        }
    }

    // ---- 1 / 14: the whole load --------------------------------------------------------------------------------

    private Verdict run() {
        String outcome = "accepted";
        Verdict.Refused refused = null;
        String ioFile = null;
        int current = -1;
        try {
            List<Long> starts = sweep3();
            starts = checkpointFilter9(starts);
            for (long s : starts) {
                boolean cs = checkpoint != null && s == checkpoint.start();
                segs.add(new Seg(s, dir.resolve(stem(s) + ".log"), dir.resolve(stem(s) + ".index"), cs));
            }
            for (current = 0; current < segs.size(); current++) {
                Seg g = segs.get(current);
                if (g.checkpointSegment) {
                    checkpointSegment9(g);
                } else {
                    passA4(g);
                }
                stage411(g);
                planPassC6(g);
                status72(g);
            }
            current = -1;
            chainGuard5();
            for (Seg g : segs) {
                if (g.passCFailure != null) {
                    g.status = "io_error";
                    throw new Transient(g.passCFailurePath, g.passCFailure, null);
                }
            }
        } catch (Refusal r) {
            outcome = "refused";
            refused = r.refused;
            if (current >= 0) {
                segs.get(current).status = "refused";
            }
        } catch (Transient t) {
            outcome = "io_error";
            ioFile = String.valueOf(t.path.getFileName());
            if (current >= 0) {
                segs.get(current).status = "io_error";
            }
        }
        List<Verdict.Segment> out = new ArrayList<>();
        boolean changes = !sweepOps.isEmpty();
        List<String> plan = new ArrayList<>(new TreeSet<>(sweepOps));
        plan.addAll(stagingOps);
        for (Seg g : segs) {
            boolean bounded = !(g.status.equals("refused") || g.status.equals("not_examined")
                    || g.status.equals("io_error"));
            out.add(new Verdict.Segment(g.s, g.status, bounded
                    ? List.of(g.startTs, g.endTs, g.endOffset, g.size, g.indexSize, g.recoveredEmpty ? 1L : 0L)
                    : List.of()));
            if (outcome.equals("accepted")) {
                plan.addAll(g.passC);
                changes |= g.changes;
            }
        }
        return new Verdict(outcome, refused, ioFile, out, recoverableBytes,
                List.of(budget.spentUnits, budget.limitUnits, budget.spentVerify, budget.limitVerify), plan,
                changes);
    }

    // ---- 2.2 conventions: unsigned, saturating -------------------------------------------------------------------

    private static BigInteger u(long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    /** {@code a + b}, saturating at 2^64-1. */
    static long add(long a, long b) {
        BigInteger sum = u(a).add(u(b));
        return sum.compareTo(U64_MAX) > 0 ? -1L : sum.longValue();
    }

    /** {@code k * a}, saturating at 2^64-1. */
    static long times(long k, long a) {
        BigInteger p = u(a).multiply(u(k));
        return p.compareTo(U64_MAX) > 0 ? -1L : p.longValue();
    }

    /** {@code a - b}, 0 if negative. */
    static long minus(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? 0 : a - b;
    }

    static boolean lt(long a, long b) {
        return Long.compareUnsigned(a, b) < 0;
    }

    static boolean le(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0;
    }

    static boolean gt(long a, long b) {
        return Long.compareUnsigned(a, b) > 0;
    }

    static boolean ge(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0;
    }

    private static long u64(byte[] b, long at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[(int) at + i] & 0xFF);
        }
        return v;
    }

    private static long u32(byte[] b, long at) {
        long v = 0;
        for (int i = 3; i >= 0; i--) {
            v = (v << 8) | (b[(int) at + i] & 0xFF);
        }
        return v;
    }

    // ---- 2.3 primitive checks ------------------------------------------------------------------------------------

    /** A decoded batch header (F 2.2). */
    private record Header(long partitionId, long baseOffset, long baseTimestamp, long originTimestamp,
                          long batchLength, long batchChecksum, long messageCount) {
    }

    /** F 2.2 "the header decodes": 256 bytes available, {@code batch_length >= 256}, bytes [52, 256) zero. */
    private static Header decode(byte[] log, long l, long p) {
        if (gt(add(p, HEADER), l)) {
            return null;
        }
        for (long i = 52; i < HEADER; i++) {
            if (log[(int) (p + i)] != 0) {
                return null;
            }
        }
        Header h = new Header(u64(log, p), u64(log, p + 8), u64(log, p + 16), u64(log, p + 24), u64(log, p + 32),
                u64(log, p + 40), u32(log, p + 48));
        return lt(h.batchLength, HEADER) ? null : h;
    }

    /** HeaderAt(p). */
    private Header headerAt(Seg g, long p) {
        if (gt(add(p, HEADER), g.l)) {
            return null;
        }
        Header h = decode(g.log, g.l, p);
        if (h == null || gt(h.batchLength, maxb)) {
            return null;
        }
        return h;
    }

    /** Verify(p, n): {@code p + n <= L} and the bytes pass F 2.5. */
    private static boolean verify(Seg g, long p, long n) {
        if (gt(add(p, n), g.l)) {
            return false;
        }
        return verifyRecord(Arrays.copyOfRange(g.log, (int) p, (int) (p + n)));
    }

    /** F 2.5 over exactly one record's bytes. */
    static boolean verifyRecord(byte[] r) {
        long n = r.length;
        Header h = decode(r, n, 0);
        if (h == null || h.batchLength != n) {
            return false;
        }
        // F 2.4 frame walk over the blob [256, n), checking each per-message checksum as it is reached
        long blob = n - HEADER;
        long pos = 0;
        long frames = 0;
        byte[] cover = new byte[(int) (44 + 8 * Math.min(h.messageCount, blob / FRAME_HEADER + 1))];
        int coverLen = 44;
        System.arraycopy(r, 0, cover, 0, 40);
        System.arraycopy(r, 48, cover, 40, 4);
        while (pos < blob) {
            long f = HEADER + pos;
            if (blob - pos < FRAME_HEADER) {
                return false;
            }
            if (u64(r, f + 40) != 0) {
                return false;
            }
            long userHeaders = u32(r, f + 32);
            long payload = u32(r, f + 36);
            long end = pos + FRAME_HEADER + payload + userHeaders;
            if (end > blob) {
                return false;
            }
            long stored = u64(r, f);
            long computed = Xxh3.hash(r, (int) f + 8, (int) (end - pos - 8));
            if (stored != computed) {
                return false;
            }
            frames++;
            if (frames > h.messageCount) {
                return false;
            }
            System.arraycopy(r, (int) f, cover, coverLen, 8);
            coverLen += 8;
            pos = end;
        }
        if (frames != h.messageCount || pos != blob) {
            return false;
        }
        return Xxh3.hash(cover, 0, coverLen) == h.batchChecksum;
    }

    /** Matches(o, t, p): header level only, no checksum. */
    private boolean matches(Seg g, long o, long t, long p) {
        if (gt(add(p, HEADER), g.l) || lt(add(p, HEADER), p)) {
            return false;
        }
        Header h = decode(g.log, g.l, p);
        return h != null && h.partitionId == partitionId && h.baseOffset == o && h.baseTimestamp == t
                && h.messageCount > 0 && le(h.batchLength, maxb) && le(add(p, h.batchLength), g.l);
    }

    // ---- 2.4 the shared work budget ------------------------------------------------------------------------------

    private static final class Budget {
        long limitUnits;
        long spentUnits;
        long limitVerify;
        long spentVerify;

        void grow(long r) {
            limitUnits = add(limitUnits, times(PROBE_BUDGET_UNITS_PER_RESIDUE_BYTE, r));
            limitVerify = add(limitVerify, times(PROBE_VERIFY_BUDGET_BYTES_PER_RESIDUE_BYTE, r));
        }

        boolean chargeCandidate() {
            spentUnits = add(spentUnits, 1);
            return le(spentUnits, limitUnits);
        }

        boolean chargeVerify(long n) {
            spentVerify = add(spentVerify, n);
            return le(spentVerify, limitVerify);
        }
    }

    /** UnverifiedResidue(dmg), with all four counters at their cumulative values. */
    private Refusal unverifiedResidue(Seg g, long dmg) {
        return new Refusal("UnverifiedResidue", g.s, "start_offset", g.s, "damage_position", dmg,
                "residue_bytes", minus(g.l, dmg), "candidates_examined", budget.spentUnits,
                "budget_units", budget.limitUnits, "verified_bytes", budget.spentVerify,
                "verify_budget_bytes", budget.limitVerify);
    }

    // ---- 3 step 0: sweep and segment list ------------------------------------------------------------------------

    private List<Long> sweep3() {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                entries.add(p);
            }
        } catch (NoSuchFileException missing) {
            return new ArrayList<>();
        } catch (IOException e) {
            throw new Transient(dir, "cannot read partitions", e);
        }
        Set<String> logStems = new HashSet<>();
        List<Long> starts = new ArrayList<>();
        List<Path> orphanCandidates = new ArrayList<>();
        List<Path> marked = new ArrayList<>();
        for (Path p : entries) {
            String name = p.getFileName().toString();
            String ext = extension(name);
            if (p.toString().endsWith(".staging")) {
                marked.add(p);
            } else if ("log".equals(ext)) {
                String stem = fileStem(name);
                logStems.add(stem);
                Long s = parseU64(stem);
                if (s != null) {
                    starts.add(s);
                }
            } else if ("index".equals(ext) || "anchor".equals(ext)) {
                orphanCandidates.add(p);
            }
        }
        for (Path p : orphanCandidates) {
            if (!logStems.contains(fileStem(p.getFileName().toString()))) {
                marked.add(p);
            }
        }
        for (Path p : marked) {
            // remove_file unlinks files and symlinks; on a directory it fails, which is only logged
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                deleted.add(p.getFileName().toString());
                sweepOps.add("delete " + rel(p));
            }
        }
        starts.sort(Long::compareUnsigned);
        return starts;
    }

    /** Rust's {@code Path::extension}: after the last dot, none when the only dot leads the name. */
    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? null : name.substring(dot + 1);
    }

    /** Rust's {@code Path::file_stem}. */
    private static String fileStem(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? name : name.substring(0, dot);
    }

    /** Rust's {@code u64::from_str}: an optional '+', then one or more decimal digits, the value below 2^64. */
    static Long parseU64(String s) {
        String digits = s.startsWith("+") ? s.substring(1) : s;
        if (digits.isEmpty()) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        BigInteger v = new BigInteger(digits);
        return v.compareTo(U64_MAX) > 0 ? null : v.longValue();
    }

    /** The canonical name: the start offset as a 20-digit zero-padded decimal. */
    static String stem(long s) {
        String d = Long.toUnsignedString(s);
        return "0".repeat(20 - d.length()) + d;
    }

    // ---- file access: stat and whole-file reads ------------------------------------------------------------------

    private long stat(Path p) {
        if (deleted.contains(p.getFileName().toString())) {
            return 0;
        }
        try {
            return Files.size(p);
        } catch (NoSuchFileException missing) {
            return 0;
        } catch (IOException e) {
            throw new Transient(p, "cannot read file metadata", e);
        }
    }

    private static byte[] readWhole(Path p, long expected) {
        try {
            byte[] b = Files.readAllBytes(p);
            if (b.length < expected) {
                throw new Transient(p, "cannot read file", new IOException("shrank to " + b.length + " bytes"));
            }
            return b;
        } catch (IOException e) {
            throw new Transient(p, "cannot read file", e);
        }
    }

    // ---- 4 pass A ------------------------------------------------------------------------------------------------

    private void passA4(Seg g) {
        sizesAndEntries41(g);
        if (g.n == 0) {
            if (g.l > 0) {
                useR(g, rebuild46(g));
            } else {
                empty410(g);
            }
            return;
        }
        decide43(g);
    }

    /** 4.1: {@code L}, the index length and its whole entries. */
    private void sizesAndEntries41(Seg g) {
        g.l = stat(g.logPath);
        g.indexLength = stat(g.indexPath);
        if (g.indexLength > 0) {
            g.index = readWhole(g.indexPath, g.indexLength);
            g.index = Arrays.copyOf(g.index, (int) g.indexLength);
        }
        g.n = g.indexLength / ENTRY;
        if (g.l > 0) {
            g.log = Arrays.copyOf(readWhole(g.logPath, g.l), (int) g.l);
        }
    }

    private static long[] entry(Seg g, long i) {
        long at = i * ENTRY;
        return new long[]{u64(g.index, at), u64(g.index, at + 8), u64(g.index, at + 16)};
    }

    /** 4.2: {@code (structural, mappings)}. */
    private boolean[] consistencyScan42(Seg g) {
        boolean mappings = true;
        for (long i = 0; i < g.n; i++) {
            long[] e = entry(g, i);
            if (i > 0) {
                long[] prev = entry(g, i - 1);
                if (le(e[0], prev[0]) || le(e[2], prev[2])) {
                    return new boolean[]{false, false};
                }
            }
            if (i == 0 && (e[0] != g.s || e[2] != 0)) {
                return new boolean[]{false, false};
            }
            if (mappings && !matches(g, e[0], e[1], e[2])) {
                mappings = false;
            }
        }
        return new boolean[]{true, mappings};
    }

    /** 4.3 A1-A7. */
    private void decide43(Seg g) {
        long[] first = entry(g, 0);
        long[] last = entry(g, g.n - 1);
        boolean[] scan = consistencyScan42(g);                                   // A1
        if (!scan[0]) {                                                          // A2
            useR(g, rebuild46(g));
            return;
        }
        Walk w = walk45(g, last);                                                // A3
        if (w.startTs == null) {                                                 // A4
            if (durable) {
                long[] as = anchorSearch48(g);
                if (gt(g.n - as[0], MAX_FSYNCED_INDEX_STEP_BACK_ENTRIES)) {
                    throw new Refusal("FsyncedLogLoss", g.s, "start_offset", g.s, "entry_count", g.n,
                            "provable_entries", as[0], "provable_position", as[1], "searched_entries", as[2]);
                }
            }
            Walk r = rebuild46(g);
            if (durable) {
                shortfall49(g, r, last[2]);
            }
            useR(g, r);
            return;
        }
        if (!scan[1]) {                                                          // A5
            Walk r = rebuild46(g);
            if (durable) {
                shortfall49(g, r, last[2]);
            }
            useR(g, r);
            return;
        }
        if (!durable) {                                                          // A6
            Walk f = walk45(g, first);
            if (f.position == g.l && f.startTs != null) {
                keep(g, f.startTs, f.endTs, f.endOffset, g.l);
            } else {
                useR(g, rebuild46(g));
            }
            return;
        }
        probe47(g, w.position, w.endOffset);                                     // A7
        keep(g, first[1], w.endTs, w.endOffset, w.position);
    }

    private void keep(Seg g, long startTs, long endTs, long endOffset, long size) {
        g.result = Result.KEEP;
        g.startTs = startTs;
        g.endTs = endTs;
        g.endOffset = endOffset;
        g.size = size;
        g.indexSize = ENTRY * g.n;
    }

    /** What a walk returns; {@code startTs} null when no non-empty batch was accepted. */
    private static final class Walk {
        Long startTs;
        long endOffset;
        long endTs;
        long position;
        List<long[]> entries;
    }

    /** 4.5 W(anchor). */
    private Walk walk45(Seg g, long[] anchor) {
        long pos = anchor[2];
        Long startTs = null;
        long endOffset = anchor[0];
        long endTs = anchor[1];
        long expected = anchor[0];
        boolean fromLog = false;
        while (lt(pos, g.l)) {
            Header h = headerAt(g, pos);                                         // 1
            if (h == null) {
                break;
            }
            long ext = add(pos, h.batchLength);                                  // 2
            if (gt(ext, g.l)) {
                break;
            }
            if (!verify(g, pos, h.batchLength)) {                                // 3
                break;
            }
            if (h.partitionId != partitionId) {                                  // 4
                throw new Refusal("ForeignBatch", g.s, "start_offset", g.s, "batch_partition_id", h.partitionId,
                        "position", pos);
            }
            if (h.baseOffset != expected) {                                      // 5
                if (!fromLog) {
                    break;
                }
                throw new Refusal("OffsetDiscontinuity", g.s, "start_offset", g.s, "expected_offset", expected,
                        "found_offset", h.baseOffset, "position", pos);
            }
            if (h.messageCount > 0) {                                            // 6
                if (startTs == null) {
                    startTs = h.baseTimestamp;
                }
                endOffset = add(h.baseOffset, h.messageCount - 1);
                endTs = h.baseTimestamp;
                expected = add(endOffset, 1);
            }
            fromLog = true;                                                      // 7
            pos = ext;
        }
        Walk w = new Walk();
        w.startTs = startTs;
        w.endOffset = endOffset;
        w.endTs = endTs;
        w.position = pos;
        return w;
    }

    /** 4.6 R(), its probe included. */
    private Walk rebuild46(Seg g) {
        long pos = 0;
        Long startTs = null;
        long endOffset = g.s;
        long endTs = 0;
        long expected = g.s;
        List<long[]> entries = new ArrayList<>();
        Long lastIndexed = null;
        while (lt(pos, g.l)) {
            Header h = headerAt(g, pos);                                         // 1
            if (h == null) {
                break;
            }
            long ext = add(pos, h.batchLength);                                  // 2
            if (gt(ext, g.l)) {
                break;
            }
            if (!verify(g, pos, h.batchLength)) {                                // 3
                break;
            }
            if (h.partitionId != partitionId) {                                  // 4
                throw new Refusal("ForeignBatch", g.s, "start_offset", g.s, "batch_partition_id", h.partitionId,
                        "position", pos);
            }
            if (h.baseOffset != expected) {                                      // 5
                throw new Refusal("OffsetDiscontinuity", g.s, "start_offset", g.s, "expected_offset", expected,
                        "found_offset", h.baseOffset, "position", pos);
            }
            if (h.messageCount > 0) {                                            // 6
                endOffset = add(h.baseOffset, h.messageCount - 1);
                endTs = h.baseTimestamp;
                if (startTs == null) {
                    startTs = h.baseTimestamp;
                }
                expected = add(endOffset, 1);
                if (lastIndexed == null || ge(pos - lastIndexed, REBUILT_INDEX_STRIDE_BYTES)) {
                    entries.add(new long[]{h.baseOffset, h.baseTimestamp, pos});
                    lastIndexed = pos;
                }
            }
            pos = ext;                                                           // 7
        }
        probe47(g, pos, startTs != null ? endOffset : null);
        Walk r = new Walk();
        r.startTs = startTs;
        r.endOffset = endOffset;
        r.endTs = endTs;
        r.position = pos;
        r.entries = entries;
        return r;
    }

    /** The result of R(): REBUILT with its bounds, or nothing (EMPTY). */
    private void useR(Seg g, Walk r) {
        if (r.startTs == null) {
            empty410(g);
            return;
        }
        g.result = Result.REBUILT;
        g.startTs = r.startTs;
        g.endTs = r.endTs;
        g.endOffset = r.endOffset;
        g.size = r.position;
        g.rebuilt = r.entries;
        g.indexSize = ENTRY * r.entries.size();
    }

    /** 4.7 Probe(dmg, chain_end); {@code chainEnd} null for "none". */
    private void probe47(Seg g, long dmg, Long chainEnd) {
        if (ge(dmg, g.l)) {                                                      // 1
            return;
        }
        long residue = g.l - dmg;                                                // 2
        budget.grow(residue);
        for (long c = add(dmg, 1); le(add(c, HEADER), g.l); c = add(c, 1)) {     // 3
            if (!budget.chargeCandidate()) {                                     // 3.1
                throw unverifiedResidue(g, dmg);
            }
            Header h = decode(g.log, g.l, c);                                    // 3.2
            if (h == null) {
                continue;
            }
            boolean advances = chainEnd != null ? gt(h.baseOffset, chainEnd) : ge(h.baseOffset, g.s);   // 3.3
            boolean fits = le(h.batchLength, maxb) && le(add(c, h.batchLength), g.l);
            if (advances && fits && h.messageCount > 0) {
                if (!budget.chargeVerify(h.batchLength)) {                       // 3.3.1
                    throw unverifiedResidue(g, dmg);
                }
                if (verify(g, c, h.batchLength)) {                               // 3.3.2
                    throw new Refusal("InteriorDamage", g.s, "start_offset", g.s, "damage_position", dmg,
                            "survivor_position", c);
                }
            }
        }
        // 4: no survivor, a torn tail; the caller's bounds stand
    }

    /** 4.8 AS(): {@code (provable_entries, provable_position, searched_entries)}. */
    private long[] anchorSearch48(Seg g) {
        if (g.n < 2) {                                                           // 1
            return new long[]{0, 0, 0};
        }
        long i = g.n - 2;                                                        // 2
        long down = g.l;
        long searched = 0;
        while (true) {                                                           // 3
            long[] e = entry(g, i);                                              // 3.1
            searched = searched + 1;
            if (lt(e[2], g.l)) {                                                 // 3.2
                budget.grow(minus(down, e[2]));                                  // 3.2.1
                down = e[2];
                Header h = headerAt(g, e[2]);                                    // 3.2.2
                if (h != null && h.partitionId == partitionId && h.baseOffset == e[0] && h.messageCount > 0
                        && le(add(e[2], h.batchLength), g.l)) {
                    if (!budget.chargeVerify(h.batchLength)) {
                        throw unverifiedResidue(g, e[2]);
                    }
                    if (verify(g, e[2], h.batchLength)) {
                        return new long[]{i + 1, e[2], searched};
                    }
                }
            }
            if (searched == MAX_INDEX_ANCHOR_PROBE_ENTRIES || i == 0) {         // 3.3
                break;
            }
            i = i - 1;
        }
        return new long[]{0, 0, searched};                                      // 4
    }

    /** 4.9 Shortfall(r, durable_position). */
    private static void shortfall49(Seg g, Walk r, long durablePosition) {
        long walked = r.startTs != null ? r.position : 0;
        if (lt(walked, durablePosition)) {
            throw new Refusal("FsyncedRebuildShortfall", g.s, "start_offset", g.s, "entry_count", g.n,
                    "walked_position", walked, "durable_position", durablePosition);
        }
    }

    /** 4.10 EMPTY: bounds {0, 0, S, 0, index 0}, flagged recovered empty. */
    private static void empty410(Seg g) {
        g.result = Result.EMPTY;
        g.startTs = 0;
        g.endTs = 0;
        g.endOffset = g.s;
        g.size = 0;
        g.indexSize = 0;
        g.recoveredEmpty = true;
        g.rebuilt = null;
    }

    /** 4.11: a REBUILT segment's entries go to {@code <S>.index.staging} while still in pass A. */
    private void stage411(Seg g) {
        if (g.result == Result.REBUILT) {
            stagingOps.add("stage_index " + rel(staging(g)) + " " + entries(g.rebuilt));
        }
    }

    private Path staging(Seg g) {
        return dir.resolve(stem(g.s) + ".index.staging");
    }

    // ---- 5 pass B ------------------------------------------------------------------------------------------------

    private void chainGuard5() {
        long recoverable = 0;                                                    // 1
        for (Seg g : segs) {
            recoverable = add(recoverable, g.size);
        }
        recoverableBytes = recoverable;
        for (int i = 1; i < segs.size(); i++) {                                  // 2
            Seg prev = segs.get(i - 1);
            Seg next = segs.get(i);
            if (prev.size == 0) {                                                // 2.1
                prev.status = "refused";
                throw new Refusal("EmptyNonTailSegment", prev.s, "empty_start", prev.s, "next_start", next.s,
                        "recoverable_bytes", recoverable);
            }
            if (prev.endOffset != -1L && prev.endOffset + 1 == next.s) {        // 2.2
                continue;
            }
            long[] anchor;                                                       // 2.3
            try {
                anchor = readAnchor(next.s);
            } catch (Transient t) {
                next.status = "io_error";
                throw t;
            }
            boolean admitted = lt(prev.endOffset, next.s) && anchor != null     // 2.4
                    && anchor[0] == next.s && anchor[1] == prev.s && anchor[2] == prev.endOffset;
            if (!admitted) {
                next.status = "refused";
                throw new Refusal("Hole", next.s, "previous_start", prev.s, "previous_end", prev.endOffset,
                        "next_start", next.s, "recoverable_bytes", recoverable);
            }
        }
    }

    /** F 6: {@code (planted_start, sealed_start, sealed_end)}, or null when absent or proving nothing. */
    private long[] readAnchor(long s) {
        Path p = dir.resolve(stem(s) + ".anchor");
        if (deleted.contains(p.getFileName().toString())) {
            return null;
        }
        byte[] b;
        try {
            if (Files.size(p) != 40) {
                return null;
            }
            b = Files.readAllBytes(p);
        } catch (NoSuchFileException missing) {
            return null;
        } catch (IOException e) {
            throw new Transient(p, "cannot read file", e);
        }
        if (b.length != 40 || u64(b, 0) != ANCHOR_MAGIC || u64(b, 32) != Xxh3.hash(b, 0, 32)) {
            return null;
        }
        return new long[]{u64(b, 8), u64(b, 16), u64(b, 24)};
    }

    // ---- 6 pass C ------------------------------------------------------------------------------------------------

    /**
     * 6.1 for one segment, computed right after its pass A (a fence number depends on the fences planned before):
     * the operations pass C performs, with the file lengths as each step finds them.
     */
    private void planPassC6(Seg g) {
        long logNow = g.l;
        boolean indexUnreadable = false;
        if (g.checkpointSegment) {
            // pass A ignored this index (9.2); what pass C finds there. The rename of step 3 needs no stat; the
            // truncation (Lc = 0) stats it first, and fails the boot if it cannot
            try {
                g.indexLength = stat(g.indexPath);
                g.index = g.indexLength > 0 ? Arrays.copyOf(readWhole(g.indexPath, g.indexLength),
                        (int) g.indexLength) : new byte[0];
            } catch (Transient t) {
                indexUnreadable = true;
                g.indexLength = 0;
                g.index = new byte[0];
            }
        }
        long indexNow = g.indexLength;
        if (g.recoveredEmpty) {                                                  // 1: Fence (6.2)
            if (logNow != 0 || indexNow != 0) {
                Path fence = null;
                for (int k = 0; k < FENCED_DIR_PROBE_LIMIT && fence == null; k++) {
                    Path candidate = dir.resolveSibling(dirName + ".fenced." + k);
                    if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS) && !fencesTaken.contains(candidate)) {
                        fence = candidate;
                    }
                }
                if (fence == null) {
                    g.passCFailure = "cannot write to file: all " + FENCED_DIR_PROBE_LIMIT + " fence names taken";
                    g.passCFailurePath = dir.resolveSibling(dirName + ".fenced.0");
                    return;
                }
                fencesTaken.add(fence);
                g.passC.add("fence " + rel(g.logPath) + " -> " + rel(fence) + " log=" + logNow + " index=" + indexNow);
                g.changes = true;
                logNow = 0;
                indexNow = 0;
            }
        }
        if (!g.checkpointSegment) {                                              // 2: Truncate(log, size)
            truncate(g, g.logPath, logNow, g.size, "truncate_log");
        }
        if (g.result == Result.REBUILT) {                                        // 3: install the staged index
            g.passC.add("install_index " + rel(g.indexPath) + " <- " + rel(staging(g)) + " from=" + indexNow + " "
                    + entries(g.rebuilt));
            if (!Arrays.equals(indexBytes(g.rebuilt), g.index)) {
                g.changes = true;
            }
        } else if (indexUnreadable) {                                            //    or Truncate(index, planned)
            g.passCFailure = "cannot read file metadata";
            g.passCFailurePath = g.indexPath;
        } else {
            truncate(g, g.indexPath, indexNow, g.indexSize, "truncate_index");
        }
        // 4: opening storage re-checks the log length against the recovered size: after step 2 they are equal for
        // every segment but the checkpointed one, which opens without a log writer (section 9 item 4)
    }

    /** 6.2 Truncate(path, target), with the length the file has at this point of pass C. */
    private static void truncate(Seg g, Path p, long current, long target, String kind) {
        if (current == target) {
            return;
        }
        if (gt(target, current)) {
            g.passCFailure = "cannot write to file: a truncation would extend " + current + " -> " + target;
            g.passCFailurePath = p;
            return;
        }
        g.passC.add(kind + " " + rel(p) + " " + current + "->" + target);
        g.changes = true;
    }

    // ---- 7.2 per-segment status, by content ---------------------------------------------------------------------

    /**
     * Precedence: recovered empty, then truncated (log or index shortened; an index shortened only by a partial
     * trailing entry counts as truncated), then index rebuilt (index bytes differ), then clean.
     */
    private static void status72(Seg g) {
        if (g.recoveredEmpty) {
            g.status = "recovered_empty";
            return;
        }
        boolean logShortened = !g.checkpointSegment && lt(g.size, g.l);
        boolean indexShortened;
        boolean indexDiffers;
        if (g.result == Result.REBUILT) {
            byte[] now = indexBytes(g.rebuilt);
            indexDiffers = !Arrays.equals(now, g.index);
            indexShortened = indexDiffers && g.index.length > now.length && g.index.length / ENTRY == g.rebuilt.size()
                    && Arrays.equals(now, Arrays.copyOf(g.index, now.length));
        } else {
            indexShortened = lt(g.indexSize, g.indexLength);
            indexDiffers = indexShortened;
        }
        if (logShortened || indexShortened) {
            g.status = "truncated";
        } else if (indexDiffers) {
            g.status = "index_rebuilt";
        } else {
            g.status = "clean";
        }
    }

    private static byte[] indexBytes(List<long[]> entries) {
        byte[] out = new byte[(int) (entries.size() * ENTRY)];
        for (int i = 0; i < entries.size(); i++) {
            for (int f = 0; f < 3; f++) {
                long v = entries.get(i)[f];
                for (int b = 0; b < 8; b++) {
                    out[(int) (i * ENTRY) + f * 8 + b] = (byte) (v >>> (8 * b));
                }
            }
        }
        return out;
    }

    // ---- 9 the WAL-checkpoint variant ----------------------------------------------------------------------------

    /** 9.1: keep only {@code S < N} or {@code S = C}. */
    private List<Long> checkpointFilter9(List<Long> starts) {
        if (checkpoint == null) {
            return starts;
        }
        List<Long> kept = new ArrayList<>();
        for (long s : starts) {
            if (lt(s, checkpoint.next()) || s == checkpoint.start()) {
                kept.add(s);
            }
        }
        return kept;
    }

    /** 9.2: R() over the first {@code Lc} bytes, ignoring the index and the mode. */
    private void checkpointSegment9(Seg g) {
        long raw = stat(g.logPath);
        long lc = checkpoint.length();
        if (lt(raw, lc)) {
            throw new Refusal("StorageSizeMismatch", g.s, "start_offset", g.s, "on_disk_bytes", raw,
                    "expected_bytes", lc);
        }
        g.l = lc;
        if (lc > 0) {
            g.log = Arrays.copyOf(readWhole(g.logPath, lc), (int) lc);
        }
        Walk r = rebuild46(g);
        long validated = r.startTs != null ? r.position : 0;
        if (validated != lc) {
            throw new Refusal("CheckpointSizeMismatch", g.s, "start_offset", g.s, "validated_bytes", validated,
                    "expected_bytes", lc);
        }
        if (r.startTs != null) {
            useR(g, r);
        } else {
            // Lc = 0: R() returned nothing; never flagged recovered empty, its index is truncated to 0 bytes
            g.result = Result.KEEP;
            g.startTs = 0;
            g.endTs = 0;
            g.endOffset = g.s;
            g.size = 0;
            g.indexSize = 0;
        }
    }

    // ---- rendering of planned operations -------------------------------------------------------------------------

    /** A path as {@code <partition dir name>/<file>} or a sibling's name. */
    private static String rel(Path p) {
        Path parent = p.getParent();
        return parent == null ? p.toString() : parent.getFileName() + "/" + p.getFileName();
    }

    static String entries(List<long[]> entries) {
        StringBuilder sb = new StringBuilder("[");
        for (long[] e : entries) {
            if (sb.length() > 1) {
                sb.append(' ');
            }
            sb.append('(').append(Long.toUnsignedString(e[0])).append(',').append(Long.toUnsignedString(e[1]))
                    .append(',').append(Long.toUnsignedString(e[2])).append(')');
        }
        return sb.append(']').toString();
    }
}
