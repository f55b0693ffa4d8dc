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
import segtool.analyzers.recovery.Sweep;
import segtool.formats.naming.PartitionPath;
import segtool.formats.writer.PartitionWriter;

/**
 * An entry whose name is not valid UTF-8 (bytes ff fe in it): RECOVERY 3 step 1 skips it, so boot neither deletes it
 * nor counts it as a segment file, and segtool does the same, with a warning. Before, the sweep planned to delete it
 * as an orphan, and repair --apply said "delete bad??name.index" and "repaired" while deleting nothing (as text the
 * name is another file's, which a resumable step takes for already gone), on every run; then, for a while, repair
 * refused the whole partition over it, torn tail and all.
 */
class UnnameableFileTest {
    private static final RecoveryEngine ENGINE = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1));

    @TempDir
    Path root;

    @Test
    void anEntryWithANonUtf8Name_isSkippedAsTheServerSkipsIt() throws Exception {
        Path dir = root.resolve("streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(4).trackLayout(false),
                16, 4, 100, 1);
        Process touch = new ProcessBuilder("bash", "-c", "touch $'bad\\xff\\xfename.index'; printf 'xx' >> "
                + "00000000000000000000.log").directory(dir.toFile()).inheritIO().start();
        assertTrue(touch.waitFor(30, TimeUnit.SECONDS) && touch.exitValue() == 0);
        List<String> before = listing(dir);
        assertTrue(before.stream().anyMatch(n -> n.contains("\ufffd")), before.toString());

        PartitionReport judged = ENGINE.judge(PartitionPath.of(dir), false);
        assertEquals(List.of(), judged.swept(), "not an orphan: skipped");
        assertEquals(List.of("bad??name.index" + Sweep.NOT_UTF8), judged.warnings());
        assertEquals(PartitionReport.Outcome.ACCEPTED, judged.outcome());

        // the torn tail (two stray bytes) is repaired; the entry is left as it is
        Repairer.Outcome o = new Repairer(ENGINE, ServerGuard.Report::idle, new Applier(StepHook.NONE, "t"),
                plan -> true).repair(PartitionPath.of(dir), false, true, false);
        assertEquals(Repairer.Status.APPLIED, o.status(), () -> o.error() + " " + o.notes());
        assertEquals(0, o.exitCode());
        assertEquals(before, listing(dir), "the same names: the entry is still there");
        assertTrue(!ENGINE.judge(PartitionPath.of(dir), false).changesFiles());
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
