package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * The latent-damage check (RECOVERY 11.1): the bytes durable boot accepts below each segment's last index entry are
 * verified as well; every stretch that fails is found with its bytes, offsets and check; the verdict does not move.
 */
class LatentDamageTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final RecoveryEngine ENGINE = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));
    private static final LatentDamage CHECK = new LatentDamage(RecoveryOptions.defaults().withThreads(1));

    @TempDir
    Path root;

    private static PartitionPath gallery(String shape) {
        return PartitionPath.of(GALLERY.resolve(shape).resolve("streams/1/topics/1/partitions/1"));
    }

    @Test
    void v6_durableScansClean_butTheFlippedBatchIsLatentDamage() {
        PartitionReport r = ENGINE.judge(gallery("interior-damage-below-last-entry"), true);
        assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome());
        assertEquals(ExitCode.CLEAN, ExitCode.of(r));
        LatentDamage.Report l = CHECK.check(r);
        assertEquals(1, l.segments().size());
        LatentDamage.Segment s = l.segments().get(0);
        assertEquals(782, s.checkedBytes());
        assertNull(s.ioError());
        assertEquals(1, s.findings().size());
        LatentDamage.Finding f = s.findings().get(0);
        // B (offsets 1-3) is at [315, 782); byte 620 lies in its first message, whose frame starts at 571
        assertEquals(315, f.from());
        assertEquals(782, f.to());
        assertEquals(1, f.firstOffset());
        assertEquals(3, f.lastOffset());
        assertEquals(Stop.Kind.VERIFY_FAILED, f.kind());
        assertTrue(f.check().startsWith("message 0 checksum mismatch at 571"), f.check());
        assertEquals(ExitCode.LATENT, ExitCode.of(r, null, l));
        // the verdict is the same value before and after the check
        assertEquals(ENGINE.judge(gallery("interior-damage-below-last-entry"), true).toString(), r.toString());
    }

    @Test
    void lenientMode_readsEverything_soNothingIsChecked() {
        PartitionReport r = ENGINE.judge(gallery("healthy"), false);
        assertTrue(CHECK.check(r).segments().isEmpty());
        assertEquals(ExitCode.CLEAN, ExitCode.of(r, null, CHECK.check(r)));
    }

    @Test
    void healthyDurable_checksBelowTheLastEntry_findsNothing() {
        PartitionReport r = ENGINE.judge(gallery("healthy"), true);
        LatentDamage.Report l = CHECK.check(r);
        assertEquals(1, l.segments().size());
        assertEquals(782, l.segments().get(0).checkedBytes());
        assertTrue(!l.damaged());
        assertEquals(ExitCode.CLEAN, ExitCode.of(r, null, l));
    }

    @Test
    void aRefusalOutranksLatentDamage() {
        PartitionReport r = ENGINE.judge(gallery("fsynced-log-loss"), true);
        assertEquals(ExitCode.REFUSED, ExitCode.of(r, null, CHECK.check(r)));
    }

    private static void flip(Path file, long position) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(position);
            int b = f.read();
            f.seek(position);
            f.write(b ^ 0x40);
        }
    }

    /**
     * Two batches per flush, so every other batch has no index entry: a rotted payload, a broken header of a batch
     * no entry points at, and a rotted batch in a later segment are three findings, each ending at the next entry,
     * where the walk resumes; the verdict stays accepted and clean.
     */
    @Test
    void severalStretches_eachEndsAtTheNextEntry_verdictUnchanged() throws IOException {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(dir, PartitionWriter.Config.of(1)
                .segmentSize(1 << 20).messagesRequiredToSave(4), 48, 2, 200, 11);
        PartitionPath p = PartitionPath.of(dir);
        PartitionReport clean = ENGINE.judge(p, true);
        assertEquals(ExitCode.CLEAN, ExitCode.of(clean));
        PartitionWriter.SegmentLayout s = segs.get(0);
        assertTrue(s.entries().size() >= 8, "entries " + s.entries().size());
        // batch 2 starts a flush (an entry); batch 5 does not (its flush starts at batch 4)
        PartitionWriter.BatchInfo b2 = s.batch(2);
        PartitionWriter.BatchInfo b5 = s.batch(5);
        assertEquals(b2.position(), s.entries().get(1).position());
        flip(s.log(), b2.position() + 300);
        flip(s.log(), b5.position() + 100);   // inside the reserved header bytes: the header no longer decodes
        PartitionReport r = ENGINE.judge(p, true);
        assertEquals(clean.toString(), r.toString(), "the verdict does not see below the last entry");
        LatentDamage.Report l = CHECK.check(r);
        List<LatentDamage.Finding> f = l.segments().get(0).findings();
        assertEquals(2, f.size(), f.toString());
        assertEquals(b2.position(), f.get(0).from());
        assertEquals(s.batch(4).position(), f.get(0).to());
        assertEquals(b2.baseOffset(), f.get(0).firstOffset());
        assertEquals(s.batch(4).baseOffset() - 1, f.get(0).lastOffset());
        assertEquals(Stop.Kind.VERIFY_FAILED, f.get(0).kind());
        assertEquals(b5.position(), f.get(1).from());
        assertEquals(s.batch(6).position(), f.get(1).to());
        assertEquals(b5.baseOffset(), f.get(1).firstOffset());
        assertEquals(Stop.Kind.HEADER_INVALID, f.get(1).kind());
        assertEquals(ExitCode.LATENT, ExitCode.of(r, null, l));
        assertEquals(ExitCode.CLEAN, ExitCode.of(r));
    }
}
