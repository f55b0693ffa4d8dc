package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * An orphan whose name is not valid UTF-8 (bytes ff fe in it): the boot sweep deletes it, but segtool's plans name
 * files as text, and as text the name is another file's. repair --apply said "delete bad??name.index" and
 * "repaired", deleted nothing (the text name was not there, which a resumable step takes for done), and every
 * re-run did the same. Now the dry run and --apply both stop with an I/O error that names the file and what to do,
 * and nothing changes.
 */
class UnnameableFileTest {
    private static final RecoveryEngine ENGINE = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));

    @TempDir
    Path root;

    @Test
    void anOrphanWithANonUtf8Name_isRefusedNotReportedDeleted() throws Exception {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(4).trackLayout(false),
                16, 4, 100, 1);
        Process touch = new ProcessBuilder("bash", "-c", "touch $'bad\\xff\\xfename.index'").directory(dir.toFile())
                .inheritIO().start();
        assertTrue(touch.waitFor(30, TimeUnit.SECONDS) && touch.exitValue() == 0);
        List<String> before = listing(dir);
        assertTrue(before.stream().anyMatch(n -> n.contains("\ufffd")), before.toString());

        // the verdict is the server's: the sweep deletes the orphan
        PartitionReport judged = ENGINE.judge(PartitionPath.of(dir), false);
        assertEquals(1, judged.swept().size(), judged.swept().toString());

        for (boolean apply : new boolean[]{false, true}) {
            Repairer.Outcome o = new Repairer(ENGINE, ServerGuard.Report::idle, new Applier(StepHook.NONE, "t"),
                    plan -> true).repair(PartitionPath.of(dir), false, apply, false);
            assertEquals(Repairer.Status.IO_ERROR, o.status(), "apply=" + apply + ": " + o.notes());
            assertEquals(3, o.exitCode());
            assertTrue(o.error().contains("bad??name.index: this file's name is not valid UTF-8"), o.error());
            assertTrue(o.error().contains("ls -b"), o.error());
            assertEquals(before, listing(dir), "nothing changed in the partition");
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir.getParent(), "1.segtool-quarantine.*")) {
                assertTrue(!s.iterator().hasNext(), "no quarantine was made");
            }
        }
    }

    private static List<String> listing(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }
}
