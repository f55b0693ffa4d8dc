package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;

/**
 * Latent damage (RECOVERY 11.1 item 1): in durable mode boot keeps a segment by walking from its last index entry
 * only (A7); below it, the mapping scan reads the 256-byte header at each entry and computes no checksum. A rotted
 * or torn record there passes boot and fails later, on the read path, when a poll verifies it
 * ({@code validate_checksum}). This check reads what boot leaves unread ({@link SegmentReport#unread()}) with the
 * walk boot uses elsewhere (W of 4.5, F 2.5 verification), and reports every stretch a reader will fail on. It runs
 * after the judgement, on its report, and never changes a verdict or a number in it.
 *
 * <p>For each unread region {@code [0, last.position)} the walk starts at entry 0 and runs over exactly the region
 * (the record at {@code last.position} is W(last)'s). Where it stops before the end of the region, the stretch up to
 * the next index entry is a {@link Finding}: its byte range, the offsets it holds (from the chain before it to the
 * entry after it), and the check that failed; the walk resumes at that entry, whose header the mapping scan has
 * matched. An I/O error while reading is not damage: it is reported as the segment's {@code ioError}.
 */
public final class LatentDamage {
    /**
     * One stretch of a log readers will fail on: bytes {@code [from, to)}, offsets {@code firstOffset..lastOffset}
     * ({@code lastOffset} below {@code firstOffset} when the stretch holds none the index names), the walk's stop
     * kind and the failed check in words.
     */
    public record Finding(long from, long to, long firstOffset, long lastOffset, Stop.Kind kind, String check) {
        public long bytes() {
            return to - from;
        }

        /** True when the stretch holds at least one offset. */
        public boolean hasOffsets() {
            return U64.le(firstOffset, lastOffset);
        }
    }

    /** One segment's check: the regions read, their total bytes, what failed, or why it could not be read. */
    public record Segment(long start, Path log, List<Region> checked, long checkedBytes, List<Finding> findings,
                          String ioError) {
        public Segment {
            checked = List.copyOf(checked);
            findings = List.copyOf(findings);
        }

        public boolean damaged() {
            return !findings.isEmpty();
        }
    }

    /** The check of one partition: one entry per segment that has bytes boot leaves unread. */
    public record Report(PartitionPath partition, List<Segment> segments) {
        public Report {
            segments = List.copyOf(segments);
        }

        /** True when some segment has latent damage. */
        public boolean damaged() {
            return segments.stream().anyMatch(Segment::damaged);
        }

        /** Number of findings over all segments. */
        public long findings() {
            return segments.stream().mapToLong(s -> s.findings().size()).sum();
        }

        public Segment segment(long start) {
            for (Segment s : segments) {
                if (s.start() == start) {
                    return s;
                }
            }
            return null;
        }
    }

    private final RecoveryOptions options;

    public LatentDamage(RecoveryOptions options) {
        this.options = options;
    }

    /** Checks every segment of {@code report} with unread regions; reads only. */
    public Report check(PartitionReport report) {
        List<Segment> out = new ArrayList<>();
        for (SegmentReport s : report.segments()) {
            if (s.unread().isEmpty()) {
                continue;
            }
            out.add(segment(report.partition(), s));
        }
        return new Report(report.partition(), out);
    }

    private Segment segment(PartitionPath partition, SegmentReport s) {
        List<Finding> findings = new ArrayList<>();
        long bytes = 0;
        try {
            for (Region region : s.unread()) {
                bytes += region.bytes();
                region(partition, s, region, findings);
            }
        } catch (IOException e) {
            return new Segment(s.start(), s.log(), s.unread(), bytes, findings, s.log() + ": "
                    + IoFailure.reasonOf(e));
        }
        return new Segment(s.start(), s.log(), s.unread(), bytes, findings, null);
    }

    /** The region {@code [from, to)} of segment {@code s}, walked from entry to entry. */
    private void region(PartitionPath partition, SegmentReport s, Region region, List<Finding> findings)
            throws IOException {
        long end = region.to();
        try (SegmentLog log = SegmentLog.open(options.view().file(s.log()), s.start(), partition.partitionId(), end, options);
             IndexFile index = IndexFile.open(s.index())) {
            long n = Math.min(index.entries(), s.entries());
            long i = 0;
            IndexEntry anchor = new IndexEntry(s.start(), s.first() == null ? 0 : s.first().timestamp(),
                    region.from());
            while (U64.lt(anchor.position(), end)) {
                Walks walks = new Walks(log, bytes -> { });
                Walk w;
                String check;
                try {
                    w = walks.anchored("latent", anchor);
                    check = w.stop().describe();
                } catch (Refusal.Raised raised) {
                    w = raised.walk;
                    check = "the record at " + U64.str(w.position()) + " verifies but breaks the chain: "
                            + raised.refusal;
                }
                long stopped = w.position();
                if (!U64.lt(stopped, end)) {
                    return;
                }
                // the next entry past the stop: a header the mapping scan matched, where the walk resumes
                IndexEntry next = null;
                while (i < n) {
                    IndexEntry e = index.entry(i);
                    if (U64.gt(e.position(), stopped)) {
                        next = e;
                        break;
                    }
                    i++;
                }
                long to = next == null || U64.gt(next.position(), end) ? end : next.position();
                long first = w.provedMessages() ? U64.addSat(w.endOffset(), 1) : anchor.offset();
                long last = next == null ? s.last().offset() - 1 : next.offset() - 1;
                findings.add(new Finding(stopped, to, first, last, w.stop().kind(), check));
                if (next == null || !U64.lt(next.position(), end)) {
                    return;
                }
                anchor = next;
            }
        }
    }
}
