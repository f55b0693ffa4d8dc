package segtool.analyzers.replica;

import java.util.ArrayList;
import java.util.List;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.SegmentReport;
import segtool.analyzers.recovery.Walk;
import segtool.formats.io.U64;

/**
 * The one place this package reads the engine's report: the outcome, the refusal, and per segment the bounds pass A
 * gave it. Everything else here works on {@link PartitionManifest.Verdict}, so a change to the report's types is
 * followed in this file alone.
 *
 * <p>The verified chain is the engine's accepted bounds, segment by segment from the first: each segment with
 * bounds contributes {@code [start, end_offset]} and its recovered size; a recovered-empty segment contributes no
 * offsets. It stops at the segment a refusal names. A segment refused in pass A still contributes what the
 * engine's walk from byte 0 proved before it stopped (the records before the damage), when such a walk ran.
 */
final class EngineView {
    private EngineView() {
    }

    static PartitionManifest.Verdict verdict(PartitionReport r) {
        String refusal = r.refusal() == null ? null : r.refusal().toString();
        String variant = r.refusal() == null ? null : r.refusal().variant().name();
        Long refusalSegment = r.refusal() == null ? null : r.refusal().segmentStart();
        return new PartitionManifest.Verdict(r.outcome().json(), ExitCode.of(r), refusal, variant, refusalSegment,
                r.ioError(),
                r.outcome() == PartitionReport.Outcome.IO_ERROR ? PartitionManifest.Chain.EMPTY : chain(r));
    }

    private static PartitionManifest.Chain chain(PartitionReport r) {
        List<PartitionManifest.ChainPart> parts = new ArrayList<>();
        for (SegmentReport s : r.segments()) {
            if (r.refusal() != null && s.refusal() != null) {
                // the segment the refusal marks; refused in pass A (no bounds), its walk from byte 0 still counts
                if (!s.hasBounds()) {
                    Walk w = fromByteZero(s);
                    if (w != null && w.provedMessages() && w.position() > 0) {
                        parts.add(part(s.start(), w.endOffset(), w.position()));
                    }
                }
                break;
            }
            if (!s.hasBounds()) {
                break;
            }
            if (s.recoveredEmpty() || s.size() == 0) {
                parts.add(new PartitionManifest.ChainPart(s.start(), s.start(), 0, 0));
            } else {
                parts.add(part(s.start(), s.endOffset(), s.size()));
            }
        }
        long bytes = 0;
        long offsets = 0;
        Long first = null;
        long last = 0;
        for (PartitionManifest.ChainPart p : parts) {
            bytes += p.bytes();
            offsets += p.offsets();
            if (p.offsets() > 0) {
                if (first == null) {
                    first = p.start();
                }
                last = p.endOffset();
            }
        }
        if (parts.isEmpty()) {
            return PartitionManifest.Chain.EMPTY;
        }
        return new PartitionManifest.Chain(first == null ? parts.get(0).start() : first, last, bytes, offsets,
                List.copyOf(parts));
    }

    private static PartitionManifest.ChainPart part(long start, long end, long bytes) {
        return new PartitionManifest.ChainPart(start, end, bytes, U64.addSat(end - start, 1));
    }

    /** The walk of segment {@code s} that started at byte 0: R(), or W() from an entry at position 0. */
    private static Walk fromByteZero(SegmentReport s) {
        if (s.rebuild() != null && s.rebuild().from() == 0) {
            return s.rebuild();
        }
        if (s.fromFirst() != null && s.fromFirst().from() == 0) {
            return s.fromFirst();
        }
        return null;
    }
}
