package segtool.samples;

import static segtool.samples.Expected.Mode.accepted;
import static segtool.samples.Expected.Mode.refused;
import static segtool.samples.Expected.Segment.of;
import static segtool.samples.Expected.Status.CLEAN;
import static segtool.samples.Expected.Status.INDEX_REBUILT;
import static segtool.samples.Expected.Status.RECOVERED_EMPTY;
import static segtool.samples.Expected.Status.TRUNCATED;
import static segtool.samples.SpecVectors.TA;
import static segtool.samples.SpecVectors.TB;
import static segtool.samples.SpecVectors.TC;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Expected.Partition;
import segtool.samples.Expected.Refusal;
import segtool.samples.Expected.Segment;

/**
 * The damaged samples, one per recovery outcome of RECOVERY.md. Each is built with the {@link PartitionWriter}, broken
 * with {@link Damage}, and carries its verdict per mode as hand-written literals. The comment above each verdict is
 * the hand derivation: which steps of RECOVERY.md run and what they see.
 *
 * <p>Most samples start from the FORMAT.md section 8 segment: partition 1, {@code S = 0}, records A (315 bytes at
 * 0, offset 0), B (467 at 315, offsets 1-3) and C (363 at 782, offset 4); log length 1,145. "I3" is the three-chunk
 * index {@code [(0,TA,0), (1,TB,315), (4,TC,782)]} (72 bytes); the one-chunk index is {@code [(0,TA,0)]}.
 */
final class Gallery {
    /** Where a sample's partition lives below the sample directory (partition id 1 comes from the path). */
    static final String PARTITION_1 = "streams/1/topics/1/partitions/1";

    @FunctionalInterface
    interface Builder {
        void build(Path sampleDirectory) throws IOException;
    }

    record Sample(String name, String description, Builder builder, List<Partition> expected) {
        String expectedJson() {
            return Expected.render(name, description, expected);
        }
    }

    private Gallery() {
    }

    static List<Sample> all() {
        return List.of(healthy(), tornTail(), indexPartialEntry(), indexPastEndStepBack1(), indexPastEndStepBack2(),
                indexRebuilt(), recoveredEmpty(), interiorDamage(), interiorDamageBelowLastEntry(), unverifiedResidue(),
                offsetDiscontinuity(), foreignBatch(), fsyncedLogLoss(), fsyncedRebuildShortfall(), hole(),
                anchoredGap(), emptyNonTailSegment(), nonCanonicalNames(), DataDir.sample(),
                MetadataSamples.durability(), MetadataSamples.journalTopic(), MetadataSamples.legacyEnforceFsync(),
                MetadataSamples.walCheckpoint(), MetadataSamples.walOpen());
    }

    static Path partition(Path sampleDirectory) {
        return sampleDirectory.resolve(PARTITION_1);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Building blocks

    /** A ‖ B ‖ C flushed one batch per chunk: index I3. */
    private static Path threeChunks(Path sample) throws IOException {
        Path dir = partition(sample);
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(1))) {
            SpecVectors.appendA(w);
            SpecVectors.appendB(w);
            SpecVectors.appendC(w);
        }
        return dir;
    }

    /** A ‖ B ‖ C flushed as one chunk: index [(0,TA,0)]. */
    private static Path oneChunk(Path sample) throws IOException {
        Path dir = partition(sample);
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1))) {
            SpecVectors.appendA(w);
            SpecVectors.appendB(w);
            SpecVectors.appendC(w);
        }
        return dir;
    }

    /**
     * RECOVERY V8: segment 0 = A ‖ B as one chunk (sealed at the 782-byte cap, index [(0,TA,0)]), segment 4 = C
     * (index [(4,TC,0)]).
     */
    private static Path twoSegments(Path sample) throws IOException {
        Path dir = partition(sample);
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).segmentSize(782))) {
            SpecVectors.appendA(w);
            SpecVectors.appendB(w);
            w.flush();
            SpecVectors.appendC(w);
        }
        return dir;
    }

    private static Path log0(Path dir) {
        return SegmentFiles.log(dir, 0);
    }

    private static Path index0(Path dir) {
        return SegmentFiles.index(dir, 0);
    }

    private static Partition both(Expected.Mode mode) {
        return Partition.bothModes(PARTITION_1, mode);
    }

    private static Partition modes(Expected.Mode lenient, Expected.Mode durable) {
        return Partition.of(PARTITION_1, lenient, durable);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The samples

    static Sample healthy() {
        // V1. Scan: all three entries match. A3: W(E2) verifies C, ends at 1,145 = L.
        // Lenient A6: W(E0) walks A, B, C to 1,145 = L -> KEEP. Durable A7: probe at 1,145 >= L -> KEEP.
        return new Sample("healthy",
                "FORMAT 8 segment A|B|C with the three-chunk index (V1): both modes accept it clean, end 4, "
                        + "1,145 bytes, index kept (72 bytes).",
                Gallery::threeChunks,
                List.of(both(accepted(of(0, CLEAN, 4, 1145, 72)))));
    }

    static Sample tornTail() {
        // V2: L = 1,245. Scan passes (C ends at 1,145 <= 1,245). A3: W(E2) stops at 1,145 (no 256 bytes left).
        // Lenient A6: W(E0) ends at 1,145 != 1,245 -> R(): A, B, C, stop at 1,145; probe residue 100 < 257, no
        // candidate; rebuilt index = [(0,TA,0)] (B and C start < 64 KiB after A) -> log 1,245 -> 1,145.
        // Durable A7: probe at 1,145 finds nothing -> KEEP size 1,145, index kept at 72.
        return new Sample("torn-tail",
                "100 zero bytes after the last batch (V2): lenient truncates the log to 1,145 and rebuilds the index "
                        + "to one entry; durable truncates the log and keeps the 72-byte index.",
                sample -> Damage.appendZeros(log0(threeChunks(sample)), 100),
                List.of(modes(accepted(of(0, TRUNCATED, 4, 1145, 24)),
                        accepted(of(0, TRUNCATED, 4, 1145, 72)))));
    }

    static Sample indexPartialEntry() {
        // Index = I3 + 10 bytes (82): n = floor(82 / 24) = 3, the 10 bytes are ignored. Log as V1.
        // Lenient A6: W(E0) reaches L = 1,145 -> KEEP, index truncated 82 -> 72. Durable A7: KEEP, same truncation.
        // "Index floored to whole entries" counts as truncated.
        return new Sample("index-partial-entry",
                "Healthy log, index ends in 10 bytes of a torn fourth entry: both modes keep the log and floor the "
                        + "index to 72 bytes (status truncated).",
                sample -> {
                    byte[] torn = new IndexEntry(5, TC + 1, 1145).toBytes();
                    Damage.appendBytes(index0(threeChunks(sample)), Arrays.copyOf(torn, 10));
                },
                List.of(both(accepted(of(0, TRUNCATED, 4, 1145, 72)))));
    }

    static Sample indexPastEndStepBack1() {
        // V3: index I3 + (5, TC+1, 1145). Scan: structural, E3 does not match (1,145 + 256 > L) -> mappings false.
        // A3: W(E3) starts at 1,145 = L, accepts nothing -> A4.
        // Lenient: R() -> A, B, C, size 1,145, end 4, one rebuilt entry; log untouched.
        // Durable: AS() probes E2 at 782: C verifies -> provable_entries 3, step-back 4 - 3 = 1 -> no refusal;
        // R() as above; shortfall: walked 1,145 >= last.position 1,145 -> REBUILT.
        return new Sample("index-past-end-stepback-1",
                "One index entry points at the end of the log (V3): lenient rebuilds the index; durable proves "
                        + "entry 2 (step-back 1) and rebuilds it too; log untouched.",
                sample -> Damage.appendIndexEntries(index0(threeChunks(sample)), new IndexEntry(5, TC + 1, 1145)),
                List.of(both(accepted(of(0, INDEX_REBUILT, 4, 1145, 24)))));
    }

    static Sample indexPastEndStepBack2() {
        // V4: index I3 + (5, TC+1, 1145) + (6, TC+2, 1200). A3: W(E4) starts past L -> A4.
        // Lenient: R() rebuilds as in V3.
        // Durable: AS(): i = 3, E3.position 1,145 is not < L (searched 1, no read); i = 2, C at 782 verifies ->
        // (provable_entries 3, provable_position 782, searched 2); n - 3 = 2 > 1 -> FsyncedLogLoss.
        return new Sample("index-past-end-stepback-2",
                "Two index entries past the end of the log (V4): lenient rebuilds the index; durable refuses "
                        + "FsyncedLogLoss (step-back 2).",
                sample -> Damage.appendIndexEntries(index0(threeChunks(sample)), new IndexEntry(5, TC + 1, 1145),
                        new IndexEntry(6, TC + 2, 1200)),
                List.of(modes(accepted(of(0, INDEX_REBUILT, 4, 1145, 24)),
                        refused(Refusal.of("FsyncedLogLoss", 0, "start_offset", 0, "entry_count", 5,
                                "provable_entries", 3, "provable_position", 782, "searched_entries", 2),
                                Segment.refused(0)))));
    }

    static Sample indexRebuilt() {
        // Index [(0,TA,0), (4,TC,782), (1,TB,315)]: entry 2's offset 1 <= 4 -> structural = false -> A2: R() in
        // both modes, no durable checks. R(): A, B, C -> size 1,145 = L, end 4, one entry; log untouched.
        return new Sample("index-rebuilt",
                "Index entries out of order (offset and position regress at entry 2): both modes drop the index and "
                        + "rebuild one entry; log untouched.",
                sample -> Damage.replaceIndex(index0(threeChunks(sample)), List.of(new IndexEntry(0, TA, 0),
                        new IndexEntry(4, TC, 782), new IndexEntry(1, TB, 315))),
                List.of(both(accepted(of(0, INDEX_REBUILT, 4, 1145, 24)))));
    }

    static Sample recoveredEmpty() {
        // V11: log = 300 x 0xAB, index = 10 x 0xAB -> n = 0, L > 0 -> R(): header at 0 has nonzero reserved bytes
        // -> stop at 0; probe: 44 candidates (1..44), none decodes -> no survivor; nothing proven -> EMPTY.
        // Pass C fences both files into 1.fenced.0 and seeds empty ones: end_offset = S = 0, size 0, index 0.
        return new Sample("recovered-empty",
                "Log of 300 0xAB bytes and a 10-byte index (V11): nothing verifies; both modes recover the segment "
                        + "empty and fence both files into 1.fenced.0.",
                sample -> {
                    Path dir = threeChunks(sample);
                    Damage.writeRaw(log0(dir), Damage.repeated(300, 0xAB));
                    Damage.writeRaw(index0(dir), Damage.repeated(10, 0xAB));
                },
                List.of(both(accepted(of(0, RECOVERED_EMPTY, 0, 0, 0)))));
    }

    static Sample interiorDamage() {
        // V7: byte 620 (inside B's first payload) flipped, index [(0,TA,0)]. Scan: E0 matches. A3: W(E0) accepts A,
        // B fails verification at 315. Lenient A6 -> R() stops at 315; durable A7 probes from 315 directly.
        // Probe(315, chain end 0): candidate 782 (C) decodes, advances (4 > 0), fits, verifies -> InteriorDamage.
        Refusal damage = Refusal.of("InteriorDamage", 0, "start_offset", 0, "damage_position", 315,
                "survivor_position", 782);
        return new Sample("interior-damage",
                "One payload byte of batch B flipped under a one-entry index (V7): both modes refuse InteriorDamage "
                        + "(damage at 315, survivor at 782).",
                sample -> Damage.flipByte(log0(oneChunk(sample)), 620),
                List.of(both(refused(damage, Segment.refused(0)))));
    }

    static Sample interiorDamageBelowLastEntry() {
        // V6: byte 620 flipped, index I3. Scan: B's header still matches E1. A3: W(E2) verifies C, ends at L.
        // Lenient A6: W(E0) stops at 315 -> R() stops at 315 -> probe finds C at 782 -> InteriorDamage.
        // Durable A7: probe at 1,145 = L -> KEEP; B lies below last.position and is never verified at boot.
        return new Sample("interior-damage-below-last-entry",
                "Byte 620 flipped under the three-chunk index (V6): lenient refuses InteriorDamage; durable reads "
                        + "only from the last entry and accepts the segment clean.",
                sample -> Damage.flipByte(log0(threeChunks(sample)), 620),
                List.of(modes(refused(Refusal.of("InteriorDamage", 0, "start_offset", 0, "damage_position", 315,
                                "survivor_position", 782), Segment.refused(0)),
                        accepted(of(0, CLEAN, 4, 1145, 72)))));
    }

    /** The 400-byte record of the RECOVERY 10 budget example: two messages of 24-byte payloads, offsets 0-1. */
    private static List<Message> budgetExampleRecord() {
        // 256 + 2 x (48 + 24) = 400
        return List.of(Message.of(1, "budget example msg 00001".getBytes()),
                Message.of(2, "budget example msg 00002".getBytes()));
    }

    /** 64 header-only fakes: base_offset 100, batch_length 8,192, message_count 1..64, every other byte zero. */
    static byte[] overlappingHeaders() {
        byte[] out = new byte[64 * BatchHeader.LENGTH];
        for (int k = 0; k < 64; k++) {
            int at = k * BatchHeader.LENGTH;
            LittleEndian.putU64(out, at + BatchHeader.BASE_OFFSET_OFFSET, 100);
            LittleEndian.putU64(out, at + BatchHeader.BATCH_LENGTH_OFFSET, 8192);
            LittleEndian.putU32(out, at + BatchHeader.MESSAGE_COUNT_OFFSET, k + 1);
        }
        return out;
    }

    static Sample unverifiedResidue() {
        // RECOVERY 10 budget example. L = 400 + 64 x 256 = 16,784, index absent -> R() in both modes.
        // R() accepts the 400-byte record (end 1), the fake at 400 fails verification -> Probe(400, 1):
        // residue 16,384 -> limits 32,768 units / 65,536 verify bytes. Only 256-aligned candidates decode and fit
        // (unaligned ones have nonzero reserved bytes, a batch_length < 256, or a claimed length past L or MAXB);
        // candidates 656, 912, ... (k = 1..8) each charge 8,192 and fail; the 9th at 2,704 takes the verify spend to
        // 73,728 > 65,536 -> UnverifiedResidue with 2,704 - 400 = 2,304 candidates examined.
        Refusal residue = Refusal.of("UnverifiedResidue", 0, "start_offset", 0, "damage_position", 400,
                "residue_bytes", 16384, "candidates_examined", 2304, "budget_units", 32768,
                "verified_bytes", 73728, "verify_budget_bytes", 65536);
        return new Sample("unverified-residue",
                "A valid 400-byte batch then 64 overlapping plausible headers, no index (RECOVERY 10 budget "
                        + "example): both modes refuse UnverifiedResidue when the verify budget runs out.",
                sample -> {
                    Path dir = partition(sample);
                    try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1))) {
                        w.append(budgetExampleRecord(), TA, TA - 1_000_000);
                    }
                    Damage.delete(index0(dir));
                    Damage.appendBytes(log0(dir), overlappingHeaders());
                },
                List.of(both(refused(residue, Segment.refused(0)))));
    }

    static Sample offsetDiscontinuity() {
        // C re-stamped with base_offset 7 and a recomputed checksum, index [(0,TA,0)]. Scan: E0 matches.
        // A3 (both modes): W(E0) accepts A (0) and B (1-3), expects 4; C at 782 verifies, is partition 1, carries
        // 7 != 4 after the walk has accepted a record -> OffsetDiscontinuity.
        return new Sample("offset-discontinuity",
                "Batch C re-stamped at offset 7 with a valid checksum under a one-entry index: both modes refuse "
                        + "OffsetDiscontinuity (expected 4, found 7, at 782).",
                sample -> {
                    Path log = log0(oneChunk(sample));
                    Damage.overwriteU64(log, 782 + BatchHeader.BASE_OFFSET_OFFSET, 7);
                    Damage.restampBatch(log, 782);
                },
                List.of(both(refused(Refusal.of("OffsetDiscontinuity", 0, "start_offset", 0, "expected_offset", 4,
                        "found_offset", 7, "position", 782), Segment.refused(0)))));
    }

    static Sample foreignBatch() {
        // C re-stamped with partition_id 2 and a recomputed checksum, index I3. Scan: E2 does not match (partition).
        // A3 (both modes): W(E2) at 782: C verifies, partition 2 != 1 -> ForeignBatch before any offset check.
        return new Sample("foreign-batch",
                "Batch C re-stamped for partition 2 with a valid checksum: both modes refuse ForeignBatch at 782, "
                        + "raised by the walk from the last index entry.",
                sample -> {
                    Path log = log0(threeChunks(sample));
                    Damage.overwriteU64(log, 782 + BatchHeader.PARTITION_ID_OFFSET, 2);
                    Damage.restampBatch(log, 782);
                },
                List.of(both(refused(Refusal.of("ForeignBatch", 0, "start_offset", 0, "batch_partition_id", 2,
                        "position", 782), Segment.refused(0)))));
    }

    static Sample fsyncedLogLoss() {
        // Log cut to 500 bytes (inside B), index I3. Scan: E1 does not match (315 + 256 > 500). A3: W(E2) starts at
        // 782 >= L -> A4.
        // Lenient: R() accepts A, stops at 315 (no header fits); probe residue 185, no candidate -> REBUILT size 315,
        // end 0, one entry; log 500 -> 315.
        // Durable: AS(): i = 1, E1 at 315 < 500, no 256-byte header fits -> not proved (searched 1); i = 0, A verifies
        // -> (provable_entries 1, provable_position 0, searched 2); 3 - 1 = 2 > 1 -> FsyncedLogLoss.
        return new Sample("fsynced-log-loss",
                "Log cut to 500 bytes (inside B) under the three-chunk index: lenient truncates to batch A (315) and "
                        + "rebuilds; durable refuses FsyncedLogLoss (only entry 0 proves).",
                sample -> Damage.truncate(log0(threeChunks(sample)), 500),
                List.of(modes(accepted(of(0, TRUNCATED, 0, 315, 24)),
                        refused(Refusal.of("FsyncedLogLoss", 0, "start_offset", 0, "entry_count", 3,
                                "provable_entries", 1, "provable_position", 0, "searched_entries", 2),
                                Segment.refused(0)))));
    }

    static Sample fsyncedRebuildShortfall() {
        // Chunks [A] [B, C] [D at offset 5, position 1,145]: index [(0,TA,0), (1,TB,315), (5,TC+1000,1145)].
        // Log cut to 900 (inside C). Scan: E2 does not match -> A3: W(E2) starts past L -> A4.
        // Lenient: R() accepts A, B, stops at 782 (C's header would end at 1,038 > 900); probe residue 118, no
        // candidate -> REBUILT size 782, end 3, one entry; log 900 -> 782.
        // Durable: AS(): E1 at 315, B verifies -> provable_entries 2, step-back 1 -> no refusal; R() as above;
        // shortfall: walked 782 < last.position 1,145 -> FsyncedRebuildShortfall.
        return new Sample("fsynced-rebuild-shortfall",
                "Chunks A | B+C | D with the log cut inside C: lenient truncates to 782 and rebuilds; durable proves "
                        + "entry 1 but the rebuild stops below the last entry: FsyncedRebuildShortfall.",
                sample -> {
                    Path dir = partition(sample);
                    try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1))) {
                        SpecVectors.appendA(w);
                        w.flush();
                        SpecVectors.appendB(w);
                        SpecVectors.appendC(w);
                        w.flush();
                        w.append(List.of(Message.of(5, "flushed alone, lost with the tail".getBytes())),
                                TC + 1_000, TC + 944);
                    }
                    Damage.truncate(log0(dir), 900);
                },
                List.of(modes(accepted(of(0, TRUNCATED, 3, 782, 24)),
                        refused(Refusal.of("FsyncedRebuildShortfall", 0, "start_offset", 0, "entry_count", 3,
                                "walked_position", 782, "durable_position", 1145), Segment.refused(0)))));
    }

    static Sample hole() {
        // V9: segment 0 = A + first 100 bytes of B (415), index [(0,TA,0)]; segment 4 = C, index [(4,TC,0)].
        // Segment 0: W(E0) stops at 315. Lenient A6 -> R() -> REBUILT size 315, end 0 (staged, never installed);
        // durable A7: probe residue 100, nothing -> KEEP size 315, end 0. Segment 4 is clean in both.
        // Pass B: recoverable_bytes = 315 + 363 = 678; 0 + 1 != 4, no 4.anchor -> Hole (named after segment 4).
        // Nothing is applied: the statuses of segment 0 are pass A's plan.
        Refusal hole = Refusal.of("Hole", 4, "previous_start", 0, "previous_end", 0, "next_start", 4,
                "recoverable_bytes", 678);
        return new Sample("hole",
                "Segment 0 torn inside B, segment 4 intact (V9): both modes cut segment 0 back to batch A (end 0) "
                        + "and refuse Hole (next start 4, 678 recoverable bytes); nothing is applied.",
                sample -> Damage.truncate(log0(twoSegments(sample)), 415),
                List.of(both(refused(hole, of(0, TRUNCATED, 0, 315, 24), Segment.refused(4)))));
    }

    static Sample anchoredGap() {
        // Segment 0 = A ‖ B (782 bytes, offsets 0-3, index [(0,TA,0)]); segment 10 = C's message re-stamped at
        // offset 10 (363 bytes, index [(10,t,0)]); 10.anchor = (planted 10, sealed 0, sealed_end 3).
        // Both segments KEEP clean in both modes. Pass B: 3 + 1 != 10; the anchor is valid, 3 < 10 and its three
        // fields match -> gap admitted.
        return new Sample("anchored-gap",
                "Segment 0 (offsets 0-3) and a planted segment at 10 with a matching anchor: both modes admit the "
                        + "gap and accept both segments clean.",
                sample -> {
                    Path dir = partition(sample);
                    try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).segmentSize(782))) {
                        SpecVectors.appendA(w);
                        SpecVectors.appendB(w);
                    }
                    Damage.writeAnchor(dir, new AnchorRecord(10, 0, 3));
                    try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).startOffset(10))) {
                        SpecVectors.appendC(w, TC + 60_000_000);
                    }
                },
                List.of(both(accepted(of(0, CLEAN, 3, 782, 24), of(10, CLEAN, 10, 363, 24)))));
    }

    static Sample emptyNonTailSegment() {
        // V8 layout with segment 0's log cut to 0 bytes, its index [(0,TA,0)] kept. Segment 0: E0 does not match
        // (0 + 256 > 0); A3: W(E0) accepts nothing -> A4. Lenient: R() proves nothing -> EMPTY. Durable: AS() with
        // n = 1 -> (0,0,0), step-back 1; R() -> EMPTY; shortfall: walked 0 >= last.position 0. Segment 4 clean.
        // Pass B: recoverable_bytes = 0 + 363; segment 0 has size 0 and is not last -> EmptyNonTailSegment.
        Refusal empty = Refusal.of("EmptyNonTailSegment", 0, "empty_start", 0, "next_start", 4,
                "recoverable_bytes", 363);
        return new Sample("empty-non-tail-segment",
                "Segment 0's log lost every byte (index entry kept), segment 4 intact: segment 0 recovers empty, so "
                        + "both modes refuse EmptyNonTailSegment.",
                sample -> Damage.truncate(log0(twoSegments(sample)), 0),
                List.of(both(refused(empty, Segment.refused(0), of(4, CLEAN, 4, 363, 24)))));
    }

    static Sample nonCanonicalNames() {
        // Sweep: 00000000000000000000.index.staging (scratch), 00000000000000000007.index and .anchor (no 7 log
        // stem) are deleted. Log stems "00000000000000000000" and "5" -> start offsets [0, 5].
        // Segment 0 is V1: clean. Segment 5 is read at 00000000000000000005.log/.index, which do not exist: L = 0,
        // no entries -> EMPTY (nothing to fence). Pass B: 4 + 1 = 5 -> contiguous; the empty segment is last.
        // 5.log itself (a valid batch at offset 5) is never read.
        List<String> swept = List.of("00000000000000000000.index.staging", "00000000000000000007.anchor",
                "00000000000000000007.index");
        Expected.Mode mode = accepted(of(0, CLEAN, 4, 1145, 72), of(5, RECOVERED_EMPTY, 5, 0, 0));
        return new Sample("non-canonical-names",
                "Healthy segment 0 beside a stray 5.log, orphan index and anchor and a staging file: the sweep deletes "
                        + "scratch and orphans; segment 5 is read at its canonical (absent) name and recovers empty; "
                        + "accepted.",
                sample -> {
                    Path dir = threeChunks(sample);
                    Damage.writeRaw(dir.resolve("5.log"), RecordEncoder.encode(1, 5, TC + 1_000, TC + 944,
                            List.of(SpecVectors.cMessage())));
                    Damage.writeRaw(SegmentFiles.indexStaging(dir, 0),
                            IndexFile.encode(List.of(new IndexEntry(0, TA, 0))));
                    Damage.writeRaw(SegmentFiles.index(dir, 7),
                            IndexFile.encode(List.of(new IndexEntry(7, TC + 2_000, 0))));
                    Damage.writeAnchor(dir, new AnchorRecord(7, 0, 4));
                },
                List.of(new Partition(PARTITION_1, swept, mode, mode)));
    }
}
