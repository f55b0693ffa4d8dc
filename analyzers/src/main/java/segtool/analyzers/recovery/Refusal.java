package segtool.analyzers.recovery;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import segtool.formats.io.U64;

/**
 * A structural refusal (RECOVERY.md 7.1): one record per variant of the catalogue, whose components are the
 * variant's fields in the catalogue's order. Every field is an unsigned 64-bit value. The snake_case names used in
 * JSON and text ({@code start_offset}, {@code damage_position}, ...) are derived from the component names, so a
 * field cannot be misnamed in one place only.
 *
 * <p>{@link #segmentStart()} is the start offset of the segment the refusal is about: the segment being judged for
 * pass-A refusals, the empty segment for EmptyNonTailSegment and the later segment of the failing pair for Hole.
 * Java 17 cannot switch over a sealed type, so callers switch on {@link #variant()}.
 */
public sealed interface Refusal {
    enum Variant {
        InteriorDamage, UnverifiedResidue, OffsetDiscontinuity, ForeignBatch, FsyncedLogLoss,
        FsyncedRebuildShortfall, EmptyNonTailSegment, Hole, StorageSizeMismatch, CheckpointSizeMismatch
    }

    Variant variant();

    long segmentStart();

    /** The fields by their catalogue names, in the catalogue's order; values unsigned. */
    default Map<String, Long> fields() {
        return Fields.of(this);
    }

    /** A verified record after the damage position: the damage is interior, not a torn tail (4.7). */
    record InteriorDamage(long startOffset, long damagePosition, long survivorPosition) implements Refusal {
        public Variant variant() {
            return Variant.InteriorDamage;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** A budget charge failed (2.4): the residue after {@code damagePosition} could not be classified. */
    record UnverifiedResidue(long startOffset, long damagePosition, long residueBytes, long candidatesExamined,
                             long budgetUnits, long verifiedBytes, long verifyBudgetBytes) implements Refusal {
        public Variant variant() {
            return Variant.UnverifiedResidue;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** A verified record whose base offset is not the one the chain expects (4.5 step 5, 4.6 step 5). */
    record OffsetDiscontinuity(long startOffset, long expectedOffset, long foundOffset, long position)
            implements Refusal {
        public Variant variant() {
            return Variant.OffsetDiscontinuity;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** A verified record of another partition (4.5 step 4, 4.6 step 4). */
    record ForeignBatch(long startOffset, long batchPartitionId, long position) implements Refusal {
        public Variant variant() {
            return Variant.ForeignBatch;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** Durable mode, A4: the log backs fewer than {@code n - 1} index entries (4.8). */
    record FsyncedLogLoss(long startOffset, long entryCount, long provableEntries, long provablePosition,
                          long searchedEntries) implements Refusal {
        public Variant variant() {
            return Variant.FsyncedLogLoss;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** Durable mode: the rebuild walk ends before the last entry's position (4.9). */
    record FsyncedRebuildShortfall(long startOffset, long entryCount, long walkedPosition, long durablePosition)
            implements Refusal {
        public Variant variant() {
            return Variant.FsyncedRebuildShortfall;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** Pass B: a segment other than the last recovers with size 0 (5 step 2.1). */
    record EmptyNonTailSegment(long emptyStart, long nextStart, long recoverableBytes) implements Refusal {
        public Variant variant() {
            return Variant.EmptyNonTailSegment;
        }

        public long segmentStart() {
            return emptyStart;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** Pass B: a pair that is neither contiguous nor admitted by an anchor (5 step 2.4). */
    record Hole(long previousStart, long previousEnd, long nextStart, long recoverableBytes) implements Refusal {
        public Variant variant() {
            return Variant.Hole;
        }

        public long segmentStart() {
            return nextStart;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** The log on disk is shorter than recovery expects (6.1 step 4, 9). */
    record StorageSizeMismatch(long startOffset, long onDiskBytes, long expectedBytes) implements Refusal {
        public Variant variant() {
            return Variant.StorageSizeMismatch;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** The checkpointed prefix does not verify to exactly the checkpoint's length (9). */
    record CheckpointSizeMismatch(long startOffset, long validatedBytes, long expectedBytes) implements Refusal {
        public Variant variant() {
            return Variant.CheckpointSizeMismatch;
        }

        public long segmentStart() {
            return startOffset;
        }

        @Override
        public String toString() {
            return Fields.text(this);
        }
    }

    /** Thrown inside the engine to end a partition load, as the server's first refusal does. */
    final class Raised extends Exception {
        final transient Refusal refusal;
        /** The walk the refusal ended, as far as it got (its stop is {@link Stop.Kind#REFUSED}), or null. */
        final transient Walk walk;

        Raised(Refusal refusal) {
            this(refusal, null);
        }

        Raised(Refusal refusal, Walk walk) {
            super(refusal.toString(), null, false, false);
            this.refusal = refusal;
            this.walk = walk;
        }
    }

    /** The field names and values of a refusal record, read from its components. */
    final class Fields {
        private static final ClassValue<RecordComponent[]> COMPONENTS = new ClassValue<>() {
            @Override
            protected RecordComponent[] computeValue(Class<?> type) {
                return type.getRecordComponents();
            }
        };

        private Fields() {
        }

        static Map<String, Long> of(Refusal r) {
            Map<String, Long> out = new LinkedHashMap<>();
            for (RecordComponent c : COMPONENTS.get(r.getClass())) {
                try {
                    out.put(snake(c.getName()), (Long) c.getAccessor().invoke(r));
                } catch (IllegalAccessException | InvocationTargetException e) {
                    throw new IllegalStateException(c + " of " + r.variant(), e);
                }
            }
            return Collections.unmodifiableMap(out);
        }

        /** {@code InteriorDamage {start_offset: 0, damage_position: 315, survivor_position: 782}}. */
        static String text(Refusal r) {
            StringBuilder sb = new StringBuilder(r.variant().name()).append(" {");
            String sep = "";
            for (Map.Entry<String, Long> e : of(r).entrySet()) {
                sb.append(sep).append(e.getKey()).append(": ").append(U64.str(e.getValue()));
                sep = ", ";
            }
            return sb.append('}').toString();
        }

        /** {@code damagePosition} -> {@code damage_position}. */
        static String snake(String camel) {
            StringBuilder sb = new StringBuilder(camel.length() + 4);
            for (char ch : camel.toCharArray()) {
                if (Character.isUpperCase(ch)) {
                    sb.append('_').append(Character.toLowerCase(ch));
                } else {
                    sb.append(ch);
                }
            }
            return sb.toString();
        }
    }
}
