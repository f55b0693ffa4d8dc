package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warm-up thread compiles the verify loop only for an input large enough to pay for it (issue 15). */
class WarmupTest {
    @TempDir
    Path dir;

    /** Warmup's decision for {@code args}, without starting its thread. */
    static boolean large(String... args) {
        return Warmup.isLarge(args);
    }

    private Path log(Path partition, String name, long size) throws IOException {
        Files.createDirectories(partition);
        Path f = partition.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size); // sparse: only its size matters
        }
        return f;
    }

    @Test
    void aTinyPartitionDoesNotWarmUp() throws IOException {
        Path p = dir.resolve("streams/1/topics/1/partitions/1");
        log(p, "00000000000000000000.log", 1145);
        log(p, "00000000000000000000.index", Warmup.WORTH * 2); // not a log: not counted
        assertFalse(large("scan", dir.toString()));
        assertFalse(large("scan", "--durability", "replicated", p.toString()));
    }

    @Test
    void logsAddingUpToTheThresholdWarmUp() throws IOException {
        Path p = dir.resolve("streams/1/topics/1/partitions/1");
        log(p, "00000000000000000000.log", Warmup.WORTH / 2);
        assertFalse(large("scan", dir.toString()));
        log(p, "00000000000001000000.log", Warmup.WORTH / 2);
        assertTrue(large("scan", dir.toString()));
        assertTrue(large("explain", "--strict", p.resolve("00000000000000000000.log").toString(), p.toString()));
    }

    @Test
    void aFileNamedOnTheCommandLineCountsWhateverItsName() throws IOException {
        Path f = log(dir, "copy.bin", Warmup.WORTH);
        assertTrue(large("batches", f.toString()));
    }

    @Test
    void commandsThatNeverVerifyAndNonPathsDoNotWarmUp() throws IOException {
        log(dir, "00000000000000000000.log", Warmup.WORTH);
        assertFalse(large("segments", dir.toString()));
        assertFalse(large("hexdump", dir.toString()));
        assertFalse(large("--version"));
        assertFalse(large("scan", "no/such/path", "\0"));
    }

    @Test
    void theLaunchersCountStopsTheThreadBeforeItStarts() {
        String before = System.getProperty("segtool.warmup");
        try {
            System.clearProperty("segtool.warmup");
            boolean twoCores = Runtime.getRuntime().availableProcessors() >= 2;
            assertEquals(twoCores, Warmup.wanted(new String[] {"scan", dir.toString()}));
            assertFalse(Warmup.wanted(new String[] {"segments", dir.toString()}));
            System.setProperty("segtool.warmup", "no");
            assertFalse(Warmup.wanted(new String[] {"scan", dir.toString()}));
        } finally {
            if (before == null) {
                System.clearProperty("segtool.warmup");
            } else {
                System.setProperty("segtool.warmup", before);
            }
        }
    }
}
