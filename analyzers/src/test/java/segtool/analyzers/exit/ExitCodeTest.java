package segtool.analyzers.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.formats.log.BatchHeader;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/** The one mapping from results to exit codes, and the one precedence for runs with mixed results. */
class ExitCodeTest {
    @TempDir
    Path root;

    @Test
    void precedence_mostUrgentWins() {
        assertEquals(ExitCode.IO_ERROR, ExitCode.combine(ExitCode.REFUSED, ExitCode.IO_ERROR));
        assertEquals(ExitCode.IO_ERROR, ExitCode.combine(ExitCode.IO_ERROR, ExitCode.REFUSED));
        assertEquals(ExitCode.REFUSED, ExitCode.combine(ExitCode.CHANGES, ExitCode.REFUSED));
        assertEquals(ExitCode.CHANGES, ExitCode.combine(ExitCode.CLEAN, ExitCode.CHANGES));
        assertEquals(ExitCode.IN_USE, ExitCode.combine(ExitCode.IO_ERROR, ExitCode.IN_USE));
        assertEquals(ExitCode.USAGE, ExitCode.combine(ExitCode.IN_USE, ExitCode.USAGE));
        assertEquals(ExitCode.CANCELLED, ExitCode.combine(ExitCode.USAGE, ExitCode.CANCELLED));
        assertEquals(ExitCode.CLEAN, ExitCode.combine(List.of()));
        assertEquals(ExitCode.IO_ERROR, ExitCode.combine(List.of(0, 2, 1, 3, 2, 0)));
        assertThrows(IllegalArgumentException.class, () -> ExitCode.combine(0, 6));
        assertEquals(ExitCode.LATENT, ExitCode.combine(ExitCode.CHANGES, ExitCode.LATENT));
        assertEquals(ExitCode.REFUSED, ExitCode.combine(ExitCode.LATENT, ExitCode.REFUSED));
        assertEquals(ExitCode.INCOMPLETE, ExitCode.combine(ExitCode.REFUSED, ExitCode.INCOMPLETE));
        assertEquals(ExitCode.IO_ERROR, ExitCode.combine(ExitCode.INCOMPLETE, ExitCode.IO_ERROR));
    }

    @Test
    void everyCodeIsDocumentedOnceInPrecedenceOrder() {
        assertEquals(List.of(130, 143, 64, 4, 3, 23, 2, 5, 1, 0), ExitCode.PRECEDENCE);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 23, 64, 130, 143), List.copyOf(ExitCode.meanings().keySet()));
    }

    List<PartitionWriter.SegmentLayout> layouts;

    PartitionPath partition(long id) {
        Path dir = root.resolve("data/streams/1/topics/1/partitions/" + id);
        layouts = PartitionWriter.fill(dir, PartitionWriter.Config.of(id).segmentSize(16 * 1024)
                .messagesRequiredToSave(5), 300, 5, 40, 7);
        return PartitionPath.of(dir);
    }

    static void cut(Path file, long by) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(f.length() - by);
        }
    }

    static void flip(Path file, long position) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(position);
            int v = f.read();
            f.seek(position);
            f.write(v ^ 0x10);
        }
    }

    @Test
    void verdicts_mapAndCombine_refusedAndUnreadableIsThree() throws IOException {
        RecoveryEngine engine = new RecoveryEngine();
        PartitionPath clean = partition(1);
        PartitionPath torn = partition(2);
        long tail = layouts.get(layouts.size() - 1).startOffset();
        cut(layouts.get(layouts.size() - 1).log(), 300);
        PartitionPath refused = partition(3);
        // a payload byte of batch 2 of segment 0, with verified batches after it: interior damage
        flip(layouts.get(0).log(), layouts.get(0).batch(2).position() + BatchHeader.LENGTH + 60);
        PartitionPath unreadable = partition(4);
        // an index that is a link to itself: opening it fails with ELOOP, which is no verdict (RECOVERY 7.3)
        Path index = layouts.get(1).index();
        Files.delete(index);
        Files.createSymbolicLink(index, index);

        PartitionReport c = engine.judge(clean, false);
        PartitionReport t = engine.judge(torn, false);
        PartitionReport r = engine.judge(refused, false);
        PartitionReport u = engine.judge(unreadable, false);
        assertEquals(PartitionReport.Outcome.IO_ERROR, u.outcome(), () -> u.outcome() + " " + u.refusal());
        assertEquals(PartitionReport.Outcome.REFUSED, r.outcome());
        assertEquals(ExitCode.CLEAN, ExitCode.of(c));
        assertEquals(ExitCode.CHANGES, ExitCode.of(t));
        assertEquals(ExitCode.REFUSED, ExitCode.of(r));
        assertEquals(ExitCode.IO_ERROR, ExitCode.of(u));
        assertEquals(ExitCode.IO_ERROR, ExitCode.ofReports(List.of(c, r, u, t), null));
        assertEquals(ExitCode.REFUSED, ExitCode.ofReports(List.of(t, r, c), null));
        assertEquals(ExitCode.CHANGES, ExitCode.ofReports(List.of(c, t), null));
        // narrowed to one segment: the torn tail is in the last segment, not in segment 0
        assertEquals(ExitCode.CLEAN, ExitCode.of(t, s -> s == 0));
        assertEquals(ExitCode.CHANGES, ExitCode.of(t, s -> s == tail));
        // a refusal counts whole, whatever segment is asked about
        assertEquals(ExitCode.REFUSED, ExitCode.of(r, s -> s == tail));
    }
}
