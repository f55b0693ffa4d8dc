package segtool.analyzers.reference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The observable result of one partition load, in a shape both the engine (through {@link EngineVerdict}) and
 * {@link ReferenceRecovery} produce, so the two can be compared field by field: the outcome, the refusal with its
 * variant, segment and every field, each segment's status and bounds, the budget at the end, pass B's
 * {@code recoverable_bytes}, the whole planned operation list, whether any byte on disk would change, and for an
 * I/O failure the name of the file it names.
 *
 * <p>Values are plain strings and longs so that a mismatch prints as a readable diff. Unsigned values print
 * unsigned.
 */
public record Verdict(String outcome, Refused refusal, String ioFile, List<Segment> segments, long recoverableBytes,
                      List<Long> budget, List<String> plan, boolean changesFiles) {

    /** A refusal: the RECOVERY 7.1 variant name, the segment it is about, and its fields in catalogue order. */
    public record Refused(String variant, long segmentStart, Map<String, Long> fields) {
        public Refused {
            fields = new LinkedHashMap<>(fields);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(variant).append("@").append(Long.toUnsignedString(segmentStart))
                    .append(" {");
            String sep = "";
            for (Map.Entry<String, Long> e : fields.entrySet()) {
                sb.append(sep).append(e.getKey()).append(": ").append(Long.toUnsignedString(e.getValue()));
                sep = ", ";
            }
            return sb.append('}').toString();
        }
    }

    /**
     * One segment: start offset, status (clean, truncated, index_rebuilt, recovered_empty, refused, not_examined,
     * io_error) and, when it has bounds, {@code bounds} = start_timestamp, end_timestamp, end_offset, size,
     * index size in bytes, recovered-empty flag (1/0); an empty list when it has none.
     */
    public record Segment(long start, String status, List<Long> bounds) {
        @Override
        public String toString() {
            List<String> b = new ArrayList<>();
            for (Long v : bounds) {
                b.add(Long.toUnsignedString(v));
            }
            return Long.toUnsignedString(start) + ":" + status + b;
        }
    }

    /** Severity as the scan exit code reports it: 0 nothing changes, 1 files change, 2 refused, 3 I/O error. */
    public int exitClass() {
        switch (outcome) {
            case "io_error":
                return 3;
            case "refused":
                return 2;
            default:
                return changesFiles ? 1 : 0;
        }
    }

    /** The fields that differ between this and {@code other}, one line each; empty when they agree. */
    public List<String> differences(Verdict other) {
        List<String> out = new ArrayList<>();
        diff(out, "outcome", outcome, other.outcome);
        diff(out, "refusal", String.valueOf(refusal), String.valueOf(other.refusal));
        diff(out, "I/O failure on", String.valueOf(ioFile), String.valueOf(other.ioFile));
        diff(out, "segment count", segments.size(), other.segments.size());
        for (int i = 0; i < Math.min(segments.size(), other.segments.size()); i++) {
            diff(out, "segment " + i, segments.get(i).toString(), other.segments.get(i).toString());
        }
        if (outcome.equals("accepted") || (refusal != null && (refusal.variant.equals("Hole")
                || refusal.variant.equals("EmptyNonTailSegment")))) {
            diff(out, "recoverable_bytes", recoverableBytes, other.recoverableBytes);
        }
        if (!outcome.equals("io_error")) {
            diff(out, "budget", budget, other.budget);
            diff(out, "plan", plan, other.plan);
        }
        diff(out, "exit class", exitClass(), other.exitClass());
        return out;
    }

    private static void diff(List<String> out, String what, Object a, Object b) {
        if (!a.equals(b)) {
            out.add(what + ": " + a + " <> " + b);
        }
    }
}
