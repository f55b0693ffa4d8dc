package segtool.analyzers.recovery;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import segtool.formats.io.U64;

/**
 * A structural refusal (RECOVERY.md 7.1): the variant and its fields, in the catalogue's order and snake_case
 * names. Values are unsigned 64-bit. {@code segmentStart} is the start offset of the segment the refusal is about:
 * the segment being judged for pass-A refusals, the empty segment for EmptyNonTailSegment and the later segment of
 * the failing pair for Hole.
 */
public record Refusal(Variant variant, long segmentStart, Map<String, Long> fields) {
    public enum Variant {
        InteriorDamage, UnverifiedResidue, OffsetDiscontinuity, ForeignBatch, FsyncedLogLoss,
        FsyncedRebuildShortfall, EmptyNonTailSegment, Hole, StorageSizeMismatch, CheckpointSizeMismatch
    }

    public Refusal {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    static Refusal of(Variant variant, long segmentStart, Object... namesAndValues) {
        Map<String, Long> f = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            f.put((String) namesAndValues[i], (Long) namesAndValues[i + 1]);
        }
        return new Refusal(variant, segmentStart, f);
    }

    public long field(String name) {
        Long v = fields.get(name);
        if (v == null) {
            throw new IllegalArgumentException(variant + " has no field " + name);
        }
        return v;
    }

    /** {@code InteriorDamage {start_offset: 0, damage_position: 315, survivor_position: 782}}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(variant.name()).append(" {");
        String sep = "";
        for (Map.Entry<String, Long> e : fields.entrySet()) {
            sb.append(sep).append(e.getKey()).append(": ").append(U64.str(e.getValue()));
            sep = ", ";
        }
        return sb.append('}').toString();
    }

    /** Thrown inside the engine to end a partition load, as the server's first refusal does. */
    static final class Raised extends Exception {
        final Refusal refusal;

        Raised(Refusal refusal) {
            super(refusal.toString(), null, false, false);
            this.refusal = refusal;
        }
    }
}
