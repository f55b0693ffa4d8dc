package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.archive.DumpWriter;
import segtool.analyzers.salvage.Salvager;
import segtool.formats.naming.PartitionPath;

/**
 * Issue 16.2 for the commands that write beside the data: {@code salvage -o OUT} and {@code pack -o DUMP}. A fault
 * ({@link FaultFs}) at every file-system operation of either fails it with the file and the OS reason, leaves
 * nothing at OUT (no half archive that could be taken for a whole one, no temporary left behind), and never touches
 * the partition it reads.
 */
class OutputFaultTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    @TempDir(factory = FastTempDir.class)
    Path tmp;

    private Path source() throws IOException {
        Path p = tmp.resolve("data/streams/1/topics/1/partitions/1");
        Trees.copy(GALLERY.resolve("interior-damage/streams/1/topics/1/partitions/1"), p);
        return p;
    }

    private interface Run {
        void run(FaultFs fs, Path out) throws IOException;
    }

    /** Runs {@code run} with a fault at each mutation; returns the number of trials. */
    private int everyMutation(String what, Run run) throws Exception {
        Path partition = source();
        Map<String, byte[]> before = Trees.snapshot(tmp.resolve("data"), true);
        FaultFs counting = FaultFs.counting();
        Path probe = tmp.resolve("out/probe");
        Files.createDirectories(probe.getParent());
        run.run(counting, probe);
        int steps = counting.mutations();
        assertTrue(steps > 5, what + ": " + steps + " mutations");
        int trials = 0;
        for (FaultFs.Fault f : FaultFs.Fault.values()) {
            for (int n = 1; n <= steps; n++) {
                String at = what + ", " + f + " at mutation " + n + " of " + steps;
                Path out = tmp.resolve("out/run-" + f + "-" + n);
                FaultFs fs = new FaultFs(FaultFs.Kind.MUTATION, n, f);
                IOException e = assertThrows(IOException.class, () -> run.run(fs, out), at);
                assertNotNull(fs.failed(), at);
                assertTrue(e.getMessage() != null && e.getMessage().contains(f.reason), () -> at + ": " + e);
                assertFalse(e.getMessage().contains("\n"), at + ": one line");
                assertFalse(Files.exists(out), at + ": nothing at OUT");
                try (Stream<Path> s = Files.list(out.getParent())) {
                    List<String> left = new ArrayList<>();
                    s.map(x -> x.getFileName().toString()).filter(x -> !x.equals("probe") && !x.startsWith("run-"))
                            .forEach(left::add);
                    assertEquals(List.of(), left, at + ": no temporary left beside OUT");
                }
                Trees.assertSame(before, Trees.snapshot(tmp.resolve("data"), true), at + ": the source is untouched");
                trials++;
            }
        }
        System.out.println("fault injection: " + what + ": " + trials + " trials, OUT absent and the source "
                + "untouched after each");
        return trials;
    }

    @Test
    void salvage_aFaultAtEveryMutation_leavesNoArchive_andTheSourceUntouched() throws Exception {
        Path partition = tmp.resolve("data/streams/1/topics/1/partitions/1");
        everyMutation("salvage", (fs, out) -> new Salvager(Salvager.Options.defaults("test").withMessages(true))
                .salvage(PartitionPath.of(fs.wrap(partition)), fs.wrap(out), new ArrayList<>()));
    }

    @Test
    void pack_aFaultAtEveryMutation_leavesNoDump_andTheSourceUntouched() throws Exception {
        Path data = tmp.resolve("data");
        everyMutation("pack", (fs, out) -> DumpWriter.pack(fs.wrap(data), fs.wrap(out)));
    }
}
