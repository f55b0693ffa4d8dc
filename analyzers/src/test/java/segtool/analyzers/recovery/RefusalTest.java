package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The field names of every refusal record are the catalogue's (RECOVERY 7.1), in its order. */
class RefusalTest {
    private static void assertNames(Refusal r, String... names) {
        assertEquals(List.of(names), List.copyOf(r.fields().keySet()), r.variant().name());
    }

    @Test
    void everyVariantCarriesTheCataloguesFieldsInOrder() {
        assertNames(new Refusal.InteriorDamage(0, 1, 2), "start_offset", "damage_position", "survivor_position");
        assertNames(new Refusal.UnverifiedResidue(0, 1, 2, 3, 4, 5, 6), "start_offset", "damage_position",
                "residue_bytes", "candidates_examined", "budget_units", "verified_bytes", "verify_budget_bytes");
        assertNames(new Refusal.OffsetDiscontinuity(0, 1, 2, 3), "start_offset", "expected_offset",
                "found_offset", "position");
        assertNames(new Refusal.ForeignBatch(0, 1, 2), "start_offset", "batch_partition_id", "position");
        assertNames(new Refusal.FsyncedLogLoss(0, 1, 2, 3, 4), "start_offset", "entry_count", "provable_entries",
                "provable_position", "searched_entries");
        assertNames(new Refusal.FsyncedRebuildShortfall(0, 1, 2, 3), "start_offset", "entry_count",
                "walked_position", "durable_position");
        assertNames(new Refusal.EmptyNonTailSegment(0, 1, 2), "empty_start", "next_start", "recoverable_bytes");
        assertNames(new Refusal.Hole(0, 1, 2, 3), "previous_start", "previous_end", "next_start",
                "recoverable_bytes");
        assertNames(new Refusal.StorageSizeMismatch(0, 1, 2), "start_offset", "on_disk_bytes", "expected_bytes");
        assertNames(new Refusal.CheckpointSizeMismatch(0, 1, 2), "start_offset", "validated_bytes",
                "expected_bytes");
    }

    @Test
    void valuesAreUnsignedInText_andTheSegmentIsTheOneTheRefusalIsAbout() {
        Refusal hole = new Refusal.Hole(0, -1L, 4, 678);
        assertEquals("Hole {previous_start: 0, previous_end: 18446744073709551615, next_start: 4, "
                + "recoverable_bytes: 678}", hole.toString());
        assertEquals(4, hole.segmentStart());
        assertEquals(9, new Refusal.EmptyNonTailSegment(9, 12, 0).segmentStart());
        assertEquals(Map.of("start_offset", 5L, "batch_partition_id", 2L, "position", 0L),
                new Refusal.ForeignBatch(5, 2, 0).fields());
    }
}
