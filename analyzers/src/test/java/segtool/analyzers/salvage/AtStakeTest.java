package segtool.analyzers.salvage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.recovery.Refusal;
import segtool.formats.log.BatchHeader;
import segtool.formats.naming.PartitionPath;

/**
 * The offsets each gallery refusal puts at stake, by hand from the FORMAT 8 records (A at 0, offset 0; B at 315,
 * offsets 1-3; C at 782, offset 4; log 1,145 bytes) and the shapes' descriptions: what is missing and where, and what
 * the least-loss cut takes out of the live partition.
 */
class AtStakeTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("interior-damage", false, "[1..3 INSIDE 0 null bytes 315-782]", "CUT_LOG 0@315 [4] 830"),
                Arguments.of("unverified-residue", false, "[]", "CUT_LOG 0@400 [] 16384"),
                Arguments.of("offset-discontinuity", false, "[4..6 INSIDE 0 null at 782]", "CUT_LOG 0@782 [7] 363"),
                Arguments.of("foreign-batch", false, "[4 AT_END 0 null]", "CUT_LOG 0@782 [] 363"),
                Arguments.of("hole", false, "[1..3 BETWEEN 0 4]", "MOVE_SEGMENTS_ASIDE 4@0 [4] 363"),
                // nothing precedes the empty segment 0: it goes aside alone and offset 4 stays live
                Arguments.of("empty-non-tail-segment", false, "[0..3 BETWEEN 0 4]", "MOVE_EMPTY_ASIDE 0@0 [] 0"),
                Arguments.of("fsynced-log-loss", true, "[1..4 AT_END 0 null]", "REBUILD_INDEX 0@0 [] 0"),
                Arguments.of("fsynced-rebuild-shortfall", true, "[4..5 AT_END 0 null]", "REBUILD_INDEX 0@0 [] 0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void galleryRefusal_offsetsAtStake(String shape, boolean durable, String missing, String cut) throws IOException {
        PartitionPath p = PartitionPath.of(GALLERY.resolve(shape).resolve("streams/1/topics/1/partitions/1"));
        PartitionReport r = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)).judge(p, durable);
        assertEquals(PartitionReport.Outcome.REFUSED, r.outcome(), shape);
        AtStake s = AtStake.survey(r, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES);
        List<String> m = s.missing().stream().map(x -> x.offsets() + " " + x.where() + " " + x.before() + " "
                + x.after() + (x.fromByte() >= 0 ? " bytes " + x.fromByte() + "-" + x.toByte() : "")
                + (x.position() >= 0 ? " at " + x.position() : "")).toList();
        assertEquals(missing, m.toString(), shape);
        AtStake.Cut c = s.cut();
        assertEquals(cut, c.plan() + " " + c.segment() + "@" + c.position() + " " + c.offsetsLeaving() + " "
                + c.bytesLeaving(), shape);
    }

    @TempDir
    Path tmp;

    /**
     * Durable V6 (byte 620 flipped inside B, I3: boot reads B only by its header) with the foreign-batch shape's
     * verifying foreign record (its bytes 782-1145) appended at 1145: durable boot refuses ForeignBatch at 1145, so
     * the cut there keeps A, B and C (offsets 0-4). The survey's byte-0 chain breaks at B (315), making C "past
     * damage"; C is below the cut, so offset 4 does not leave, and the only bytes leaving are the foreign record's.
     */
    @Test
    void aDurableCutAboveTheByte0Break_keepsTheRecordsBelowIt() throws IOException {
        Path v6 = GALLERY.resolve("interior-damage-below-last-entry").resolve("streams/1/topics/1/partitions/1");
        byte[] foreign = Files.readAllBytes(GALLERY.resolve("foreign-batch")
                .resolve("streams/1/topics/1/partitions/1/00000000000000000000.log"));
        Path dir = Files.createDirectories(tmp.resolve("streams/1/topics/1/partitions/1"));
        byte[] log = Files.readAllBytes(v6.resolve("00000000000000000000.log"));
        byte[] both = Arrays.copyOf(log, log.length + foreign.length - 782);
        System.arraycopy(foreign, 782, both, log.length, foreign.length - 782);
        Files.write(dir.resolve("00000000000000000000.log"), both);
        Files.copy(v6.resolve("00000000000000000000.index"), dir.resolve("00000000000000000000.index"));
        PartitionReport r = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1))
                .judge(PartitionPath.of(dir), true);
        assertEquals(Refusal.Variant.ForeignBatch, r.refusal().variant(), String.valueOf(r.refusal()));
        assertEquals(1145, ((Refusal.ForeignBatch) r.refusal()).position());
        AtStake.Cut c = AtStake.survey(r, BatchHeader.MAX_RECOVERABLE_BATCH_BYTES).cut();
        assertEquals("CUT_LOG 0@1145 [] 363", c.plan() + " " + c.segment() + "@" + c.position() + " "
                + c.offsetsLeaving() + " " + c.bytesLeaving());
    }
}
