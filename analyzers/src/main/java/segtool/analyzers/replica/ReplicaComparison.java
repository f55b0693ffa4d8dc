package segtool.analyzers.replica;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.io.U64;

/**
 * Compares replicas of the same partitions: joins them by {@link PartitionKey}, then per partition finds each
 * replica's divergence from the donor at batch granularity, the replicas whose verified chain is a prefix of
 * another's, the donor (the replica whose verified chain covers the most offsets), and what every other replica
 * would take from it. Works on {@link PartitionManifest}s only, so {@code compare} (directories, collected in
 * memory) and {@code plan} (manifests from many nodes) give the same answer for the same bytes.
 *
 * <p>Sealed {@code .log} files are compared by XXH3-64 first and walked batch by batch only when they differ;
 * {@code .index} files are never compared (their entries follow each node's flush timing).
 */
public final class ReplicaComparison {
    /** Exit codes of {@code compare} and {@code plan}. */
    public static final int AGREE = 0;
    public static final int DONOR_COVERS = 1;
    public static final int UNCOVERED = 2;

    /** One replica: its name (node) and every partition manifest it holds. */
    public record Replica(String name, List<PartitionManifest> partitions) {
    }

    /**
     * The first place where two replicas' logs differ: the segment, the byte position in its log, the offset there
     * (the record's {@code base_offset}, or the next offset the chain expects), which field or check differs, and
     * the two values as text.
     */
    public record Divergence(long segment, long position, long offset, String field, String donor, String replica) {
        boolean before(Divergence o) {
            int c = Long.compareUnsigned(segment, o.segment);
            return c < 0 || (c == 0 && position < o.position);
        }
    }

    /**
     * A byte range of one segment the replica takes from the donor: afterwards its {@code .log} is its own bytes
     * {@code [0, from)} followed by the donor's {@code [from, to)}, {@code to} bytes long, and its {@code .index}
     * is the donor's entries below {@code to}. {@code from == to} shortens the log to {@code to}. The local and donor
     * lengths and digests are what {@code apply} re-checks before it changes anything.
     */
    public record Transfer(long segment, long from, long to, String reason, boolean localPresent, long localLength,
                           long localXxh3, long donorLength, long donorXxh3, long donorIndexLength) {
    }

    /** A log segment's length and XXH3-64 on one replica; all but the last are sealed. */
    public record SegmentDigest(long start, long length, long xxh3, boolean sealed) {
    }

    /** What the comparison says about one replica of one partition. */
    public record ReplicaResult(String replica, String path, boolean present, PartitionManifest.Verdict verdict,
                                List<SegmentDigest> segments, Divergence divergence, String action,
                                List<Transfer> transfers) {
        public boolean damaged() {
            return !"none".equals(action) && !"donor".equals(action);
        }
    }

    /** Replica {@code replica}'s verified chain is a proper prefix of replica {@code of}'s. */
    public record Prefix(String replica, String of) {
    }

    /** An inclusive range of offsets. */
    public record Range(long first, long last) {
    }

    /** One partition across replicas. {@code joinedBy} is {@code identity} or {@code path}. */
    public record PartitionResult(PartitionKey key, String joinedBy, List<ReplicaResult> replicas, String donor,
                                  String firstDivergent, Divergence firstDivergence, List<Prefix> prefixes,
                                  List<Range> uncovered, boolean agree, int exitCode, List<String> warnings) {
        public ReplicaResult replica(String name) {
            for (ReplicaResult r : replicas) {
                if (r.replica().equals(name)) {
                    return r;
                }
            }
            return null;
        }
    }

    /** Every partition, worst first, and the run's exit code. */
    public record Result(List<String> replicas, List<PartitionResult> partitions, List<String> warnings,
                         int exitCode) {
    }

    private ReplicaComparison() {
    }

    public static Result compare(List<Replica> replicas) {
        List<String> names = new ArrayList<>();
        for (Replica r : replicas) {
            if (names.contains(r.name())) {
                throw new IllegalArgumentException("two replicas are named " + r.name());
            }
            names.add(r.name());
        }
        List<String> warnings = new ArrayList<>();
        // join: by path part first; within a group by the full identity when every member has one
        Map<PartitionKey, Map<String, List<PartitionManifest>>> byPath = new TreeMap<>();
        for (Replica r : replicas) {
            for (PartitionManifest m : r.partitions()) {
                byPath.computeIfAbsent(m.key().pathPart(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(r.name(), k -> new ArrayList<>()).add(m);
            }
        }
        List<PartitionResult> out = new ArrayList<>();
        boolean warnedPath = false;
        for (Map.Entry<PartitionKey, Map<String, List<PartitionManifest>>> g : byPath.entrySet()) {
            boolean allIdentity = g.getValue().values().stream().flatMap(List::stream)
                    .allMatch(m -> m.key().fromMetadata());
            if (allIdentity) {
                Map<PartitionKey, Map<String, PartitionManifest>> byKey = new TreeMap<>();
                for (Map.Entry<String, List<PartitionManifest>> e : g.getValue().entrySet()) {
                    for (PartitionManifest m : e.getValue()) {
                        byKey.computeIfAbsent(m.key(), k -> new LinkedHashMap<>()).put(e.getKey(), m);
                    }
                }
                List<String> local = new ArrayList<>();
                if (byKey.size() > 1) {
                    local.add(g.getKey().label() + ": replicas hold different incarnations (created_revision, "
                            + "purge_generation); each is compared on its own");
                }
                for (Map.Entry<PartitionKey, Map<String, PartitionManifest>> k : byKey.entrySet()) {
                    out.add(partition(k.getKey(), "identity", names, k.getValue(), local));
                }
            } else {
                if (!warnedPath) {
                    warnings.add("partitions joined by stream/topic/partition: the metadata's created_revision and "
                            + "purge_generation (METADATA 2.6) were not read on every replica, so a deleted and "
                            + "recreated partition would be joined with its old incarnation");
                    warnedPath = true;
                }
                Map<String, PartitionManifest> members = new LinkedHashMap<>();
                List<String> local = new ArrayList<>();
                for (Map.Entry<String, List<PartitionManifest>> e : g.getValue().entrySet()) {
                    members.put(e.getKey(), e.getValue().get(0));
                    if (e.getValue().size() > 1) {
                        local.add(e.getKey() + " holds " + g.getKey().label() + " " + e.getValue().size()
                                + " times; the first (" + e.getValue().get(0).path() + ") is compared");
                    }
                }
                out.add(partition(g.getKey(), "path", names, members, local));
            }
        }
        out.sort(Comparator.comparingInt((PartitionResult p) -> rank(p.exitCode())).thenComparing(
                PartitionResult::key));
        int exit = ExitCode.CLEAN;
        for (PartitionResult p : out) {
            exit = combine(exit, p.exitCode());
        }
        return new Result(List.copyOf(names), List.copyOf(out), List.copyOf(warnings), exit);
    }

    /** 3 first (no verdict somewhere), then 2, 1, 0. */
    private static int rank(int code) {
        return code == ExitCode.IO_ERROR ? 0 : 3 - code;
    }

    private static int combine(int a, int b) {
        return rank(a) <= rank(b) ? a : b;
    }

    private static PartitionResult partition(PartitionKey key, String joinedBy, List<String> names,
                                             Map<String, PartitionManifest> members, List<String> warningsIn) {
        List<String> warnings = new ArrayList<>(warningsIn);
        // the donor: most offsets in the verified chain, then most bytes, then the better verdict, then order given
        String donor = null;
        PartitionManifest d = null;
        for (String n : names) {
            PartitionManifest m = members.get(n);
            if (m == null || !m.verdict().judged()) {
                continue;
            }
            if (d == null || better(m, d)) {
                d = m;
                donor = n;
            }
        }
        boolean agree = true;
        PartitionManifest reference = null;
        for (String n : names) {
            PartitionManifest m = members.get(n);
            if (m == null) {
                agree = false;
                continue;
            }
            if (reference == null) {
                reference = m;
            } else if (divergence(reference, m) != null) {
                agree = false;
            }
        }
        boolean ioError = false;
        List<ReplicaResult> results = new ArrayList<>();
        Divergence first = null;
        String firstDivergent = null;
        for (String n : names) {
            PartitionManifest m = members.get(n);
            if (m != null && !m.verdict().judged()) {
                ioError = true;
                warnings.add(n + ": " + key.label() + " could not be judged (" + m.verdict().ioError() + ")");
            }
            if (m == null) {
                results.add(new ReplicaResult(n, null, false, null, List.of(), d == null ? null
                        : new Divergence(firstStart(d), 0, firstStart(d), "partition", "present", "absent"),
                        d == null || d.verdict().chain().parts().isEmpty() ? "none" : "take",
                        d == null ? List.of() : transfers(d, null)));
                continue;
            }
            Divergence div = d == null || n.equals(donor) ? null : divergence(d, m);
            if (div != null && (first == null || div.before(first))) {
                first = div;
                firstDivergent = n;
            }
            List<Transfer> transfers = d == null || n.equals(donor) ? List.of() : transfers(d, m);
            String action;
            if (n.equals(donor)) {
                action = m.verdict().exitCode() == ExitCode.CLEAN ? "donor" : "donor-repair";
            } else if (!m.verdict().judged()) {
                action = "unknown";
            } else if (!transfers.isEmpty()) {
                action = "take";
            } else if (m.verdict().exitCode() != ExitCode.CLEAN) {
                action = "repair";
            } else {
                action = "none";
            }
            results.add(new ReplicaResult(n, m.path(), true, m.verdict(), digests(m), div, action, transfers));
        }
        List<Prefix> prefixes = new ArrayList<>();
        for (String a : names) {
            for (String b : names) {
                PartitionManifest ma = members.get(a);
                PartitionManifest mb = members.get(b);
                if (!a.equals(b) && ma != null && mb != null && isPrefix(ma, mb)) {
                    prefixes.add(new Prefix(a, b));
                }
            }
        }
        List<Range> uncovered = uncovered(d, members.values());
        int exit = ioError ? ExitCode.IO_ERROR : !uncovered.isEmpty() ? UNCOVERED : agree ? AGREE : DONOR_COVERS;
        if (agree && d != null && d.verdict().exitCode() != ExitCode.CLEAN) {
            warnings.add(key.label() + ": every replica holds the same bytes, and boot recovery would not accept "
                    + "them as they are (" + d.verdict().outcome() + "); no replica is better; see `scan`");
        }
        return new PartitionResult(key, joinedBy, List.copyOf(results), donor, firstDivergent, first,
                List.copyOf(prefixes), uncovered, agree, exit, List.copyOf(warnings));
    }

    private static boolean better(PartitionManifest a, PartitionManifest b) {
        PartitionManifest.Chain ca = a.verdict().chain();
        PartitionManifest.Chain cb = b.verdict().chain();
        if (ca.offsets() != cb.offsets()) {
            return Long.compareUnsigned(ca.offsets(), cb.offsets()) > 0;
        }
        if (ca.bytes() != cb.bytes()) {
            return ca.bytes() > cb.bytes();
        }
        return a.verdict().exitCode() < b.verdict().exitCode();
    }

    private static long firstStart(PartitionManifest d) {
        return d.segments().isEmpty() ? 0 : d.segments().get(0).start();
    }

    private static List<SegmentDigest> digests(PartitionManifest m) {
        List<SegmentDigest> out = new ArrayList<>();
        for (int i = 0; i < m.segments().size(); i++) {
            PartitionManifest.Segment s = m.segments().get(i);
            out.add(new SegmentDigest(s.start(), s.logLength(), s.logXxh3(), i < m.segments().size() - 1));
        }
        return List.copyOf(out);
    }

    /** Offsets some replica holds in a record that verifies and that the donor's verified chain does not cover. */
    private static List<Range> uncovered(PartitionManifest d, Iterable<PartitionManifest> all) {
        List<Range> out = new ArrayList<>();
        for (PartitionManifest m : all) {
            for (PartitionManifest.Segment s : m.segments()) {
                Batches b = s.batches();
                for (int i = 0; i < b.size(); i++) {
                    if (!b.verified(i) || b.count(i) == 0) {
                        continue;
                    }
                    long lo = b.baseOffset(i);
                    long hi = U64.addSat(lo, b.count(i) - 1);
                    if (d == null || !d.verdict().chain().covers(lo) || !d.verdict().chain().covers(hi)) {
                        add(out, lo, hi);
                    }
                }
            }
        }
        return merge(out);
    }

    private static void add(List<Range> out, long lo, long hi) {
        out.add(new Range(lo, hi));
    }

    private static List<Range> merge(List<Range> in) {
        List<Range> sorted = new ArrayList<>(in);
        sorted.sort((x, y) -> Long.compareUnsigned(x.first(), y.first()));
        List<Range> out = new ArrayList<>();
        for (Range r : sorted) {
            if (!out.isEmpty()) {
                Range last = out.get(out.size() - 1);
                if (Long.compareUnsigned(r.first(), U64.addSat(last.last(), 1)) <= 0) {
                    if (Long.compareUnsigned(r.last(), last.last()) > 0) {
                        out.set(out.size() - 1, new Range(last.first(), r.last()));
                    }
                    continue;
                }
            }
            out.add(r);
        }
        return List.copyOf(out);
    }

    /**
     * The first difference of replica {@code r} from {@code d}, or null when both hold the same segments with the
     * same log bytes (by length and XXH3-64).
     */
    public static Divergence divergence(PartitionManifest d, PartitionManifest r) {
        TreeSet<Long> starts = new TreeSet<>(Long::compareUnsigned);
        d.segments().forEach(s -> starts.add(s.start()));
        r.segments().forEach(s -> starts.add(s.start()));
        for (long start : starts) {
            PartitionManifest.Segment ds = d.segment(start);
            PartitionManifest.Segment rs = r.segment(start);
            if (ds == null || rs == null) {
                return new Divergence(start, 0, start, "segment", ds == null ? "absent" : "present",
                        rs == null ? "absent" : "present");
            }
            if (ds.logLength() == rs.logLength() && ds.logXxh3() == rs.logXxh3()) {
                continue;
            }
            return inSegment(ds, rs);
        }
        return null;
    }

    /** Where two different logs of one segment first differ, batch by batch. */
    private static Divergence inSegment(PartitionManifest.Segment ds, PartitionManifest.Segment rs) {
        Batches a = ds.batches();
        Batches b = rs.batches();
        long next = ds.start();
        long unverifiedAt = -1;
        long unverifiedOffset = 0;
        for (int i = 0; ; i++) {
            boolean ha = i < a.size();
            boolean hb = i < b.size();
            if (!ha || !hb) {
                long at = ha ? a.position(i) : hb ? b.position(i) : ds.walkEnd();
                if (ha || hb) {
                    long offset = ha ? a.baseOffset(i) : b.baseOffset(i);
                    return new Divergence(ds.start(), at, offset, "record", ha ? describe(a, i) : ended(ds),
                            hb ? describe(b, i) : ended(rs));
                }
                if (ds.walkEnd() != rs.walkEnd() || ds.logLength() != rs.logLength()
                        || !java.util.Objects.equals(ds.walkStop(), rs.walkStop())) {
                    return new Divergence(ds.start(), at, next, "bytes after the last record", ended(ds),
                            ended(rs));
                }
                if (unverifiedAt >= 0) {
                    return new Divergence(ds.start(), unverifiedAt, unverifiedOffset, "record bytes",
                            "xxh3 " + hex(ds.logXxh3()), "xxh3 " + hex(rs.logXxh3()));
                }
                return new Divergence(ds.start(), at, next, "bytes after the last record",
                        "xxh3 " + hex(ds.logXxh3()), "xxh3 " + hex(rs.logXxh3()));
            }
            long pos = a.position(i);
            String field = null;
            String va = null;
            String vb = null;
            if (a.baseOffset(i) != b.baseOffset(i)) {
                field = "base_offset";
                va = U64.str(a.baseOffset(i));
                vb = U64.str(b.baseOffset(i));
            } else if (a.length(i) != b.length(i)) {
                field = "batch_length";
                va = U64.str(a.length(i));
                vb = U64.str(b.length(i));
            } else if (a.count(i) != b.count(i)) {
                field = "message_count";
                va = U64.str(a.count(i));
                vb = U64.str(b.count(i));
            } else if (a.checksum(i) != b.checksum(i)) {
                field = "batch_checksum";
                va = hex(a.checksum(i));
                vb = hex(b.checksum(i));
            } else if (a.verified(i) != b.verified(i)) {
                field = "record checksum";
                va = a.verified(i) ? "verifies" : "does not verify";
                vb = b.verified(i) ? "verifies" : "does not verify";
            }
            if (field != null) {
                return new Divergence(ds.start(), pos, a.baseOffset(i), field, va, vb);
            }
            if (!a.verified(i) && unverifiedAt < 0) {
                unverifiedAt = pos;
                unverifiedOffset = a.baseOffset(i);
            }
            next = a.count(i) == 0 ? a.baseOffset(i) : U64.addSat(a.baseOffset(i), a.count(i));
        }
    }

    private static String describe(Batches b, int i) {
        return "record of " + U64.str(b.length(i)) + " bytes, offsets " + U64.str(b.baseOffset(i)) + "+"
                + U64.str(b.count(i)) + (b.verified(i) ? "" : " (does not verify)");
    }

    private static String ended(PartitionManifest.Segment s) {
        if (s.walkStop() == null) {
            return "log ends at " + U64.str(s.logLength());
        }
        return "walk stops at " + U64.str(s.walkEnd()) + " (" + s.walkStop() + ") of " + U64.str(s.logLength())
                + " bytes";
    }

    static String hex(long v) {
        return segtool.formats.io.Hex.u64(v);
    }

    /**
     * True when {@code a}'s verified chain is a proper prefix of {@code b}'s: the same segments with the same
     * verified bytes up to {@code a}'s last, which {@code b} extends, and no difference of the logs inside it.
     */
    static boolean isPrefix(PartitionManifest a, PartitionManifest b) {
        PartitionManifest.Chain ca = a.verdict().chain();
        PartitionManifest.Chain cb = b.verdict().chain();
        if (Long.compareUnsigned(ca.offsets(), cb.offsets()) >= 0 || ca.parts().size() > cb.parts().size()) {
            return false;
        }
        for (int i = 0; i < ca.parts().size(); i++) {
            PartitionManifest.ChainPart pa = ca.parts().get(i);
            PartitionManifest.ChainPart pb = cb.parts().get(i);
            boolean last = i == ca.parts().size() - 1;
            if (pa.start() != pb.start() || (last ? pa.bytes() > pb.bytes() : pa.bytes() != pb.bytes())) {
                return false;
            }
            if (!sameBatchesUpTo(b.segment(pb.start()), a.segment(pa.start()), pa.bytes())) {
                return false;
            }
        }
        return true;
    }

    /** True when the records of {@code r} below {@code limit} are the records of {@code d} there, all verifying. */
    private static boolean sameBatchesUpTo(PartitionManifest.Segment d, PartitionManifest.Segment r, long limit) {
        if (d == null || r == null) {
            return false;
        }
        if (d.logXxh3() == r.logXxh3() && d.logLength() == r.logLength()) {
            return true;
        }
        return firstDifference(d, r, limit) < 0;
    }

    /**
     * The position of the first record of {@code d} below {@code limit} that {@code r} does not hold identically
     * (same header fields, and verifying exactly when the donor's does), or -1 when it holds them all.
     */
    static long firstDifference(PartitionManifest.Segment d, PartitionManifest.Segment r, long limit) {
        Batches a = d.batches();
        Batches b = r.batches();
        for (int i = 0; i < a.size() && a.position(i) < limit; i++) {
            if (i >= b.size() || b.position(i) != a.position(i) || b.baseOffset(i) != a.baseOffset(i)
                    || b.length(i) != a.length(i) || b.count(i) != a.count(i) || b.checksum(i) != a.checksum(i)
                    || b.verified(i) != a.verified(i)) {
                return a.position(i);
            }
        }
        return -1;
    }

    /**
     * What replica {@code r} (null: the partition is absent there) takes from donor {@code d}: for every segment of
     * the donor's verified chain, the range from the first record it does not hold (identical and verifying) to
     * the end of the donor's verified bytes, or a shortening when it holds them all and more bytes after them.
     */
    static List<Transfer> transfers(PartitionManifest d, PartitionManifest r) {
        List<Transfer> out = new ArrayList<>();
        for (PartitionManifest.ChainPart p : d.verdict().chain().parts()) {
            PartitionManifest.Segment ds = d.segment(p.start());
            PartitionManifest.Segment rs = r == null ? null : r.segment(p.start());
            long to = p.bytes();
            if (rs == null) {
                if (to > 0 || ds.indexLength() > 0) {
                    out.add(new Transfer(p.start(), 0, to, r == null ? "partition absent" : "segment absent", false,
                            0, 0, ds.logLength(), ds.logXxh3(), ds.indexLength()));
                }
                continue;
            }
            long from = firstDifference(ds, rs, to);
            String reason;
            if (from >= 0) {
                reason = from == 0 && rs.logLength() == 0 ? "segment empty" : "differs from " + U64.str(from);
            } else if (rs.logLength() != to) {
                from = to;
                reason = rs.logLength() > to ? "bytes after the verified chain" : "shorter";
            } else {
                continue;
            }
            out.add(new Transfer(p.start(), from, to, reason, true, rs.logLength(), rs.logXxh3(), ds.logLength(),
                    ds.logXxh3(), ds.indexLength()));
        }
        if (r != null && !d.verdict().chain().parts().isEmpty()) {
            PartitionManifest.Chain c = d.verdict().chain();
            long lastStart = c.parts().get(c.parts().size() - 1).start();
            for (PartitionManifest.Segment rs : r.segments()) {
                boolean inside = Long.compareUnsigned(rs.start(), lastStart) <= 0 && c.bytesOf(rs.start()) < 0;
                if (inside) {
                    out.add(new Transfer(rs.start(), 0, 0, "segment not in the donor's chain", true, rs.logLength(),
                            rs.logXxh3(), 0, 0, 0));
                }
            }
            out.sort((x, y) -> Long.compareUnsigned(x.segment(), y.segment()));
        }
        return List.copyOf(out);
    }
}
