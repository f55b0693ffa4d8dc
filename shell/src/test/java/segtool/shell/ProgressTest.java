package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import segtool.analyzers.exit.ExitCode;
import segtool.shell.options.OutputOptions;

/** --progress (issue 14.7): on stderr with stdout redirected, within the width, and still after a cancel. */
class ProgressTest {
    @Test
    void scanWithProgress_drawsOnStderrWhileStdoutIsAFile_within80Columns() throws Exception {
        Cli.Result plain = Proc.run(Map.of("COLUMNS", "80"), "scan", WidthTest.GALLERY);
        Cli.Result r = Proc.run(Map.of("COLUMNS", "80"), "scan", "--progress", WidthTest.GALLERY);
        assertEquals(ExitCode.REFUSED, r.exit(), r.toString());
        assertEquals(plain.out(), r.out(), "the report is the same with the bar");
        String[] frames = r.err().split("[\r\n]");
        String last = "";
        for (String f : frames) {
            assertTrue(f.length() <= 80, "frame wider than 80: [" + f + "]");
            if (!f.isBlank()) {
                last = f;
            }
        }
        // every partition counts, the one whose inputs refuse a verdict (metadata-legacy-enforce-fsync) too
        assertTrue(last.startsWith("judging 100%") && last.endsWith(" 29/29 partitions"), r.err());
        assertEquals("", plain.err(), "no bar without --progress when stderr is not a terminal");
    }

    /** Runs {@code body} on a thread of its own, as the command's thread, and returns what the bar printed. */
    static String asCommand(java.util.function.Consumer<Progress> body, AtomicReference<Progress> made)
            throws InterruptedException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread command = new Thread(() -> {
            Progress p = Progress.start(new OutputOptions(), "judging", true, 80, new PrintStream(err, true));
            made.set(p);
            p.update(1, 4, 100, 400);
            body.accept(p);
            p.close();
        });
        command.start();
        command.join();
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void afterCancel_onePartition_theBarDoesNotJumpToTheEnd() throws Exception {
        AtomicReference<Progress> made = new AtomicReference<>();
        // one partition is judged on the command's thread: the interrupted engine still reports it done
        String text = asCommand(p -> {
            Thread.currentThread().interrupt();
            p.update(4, 4, 400, 400);
        }, made);
        assertEquals(0.25, made.get().shown(), 1e-9, text);
        assertTrue(text.contains(" cancelled") && !text.contains("4/4 partitions"), text);
    }

    @Test
    void afterCancel_manyPartitions_theBarDoesNotJumpToTheEnd() throws Exception {
        AtomicReference<Progress> made = new AtomicReference<>();
        // many partitions: the pool interrupts its workers, each ending early reports its partition done
        String text = asCommand(p -> {
            Thread worker = new Thread(() -> {
                Thread.currentThread().interrupt();
                p.update(4, 4, 400, 400);
            });
            worker.start();
            try {
                worker.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }, made);
        assertEquals(0.25, made.get().shown(), 1e-9, text);
        assertTrue(text.contains(" cancelled") && !text.contains("4/4 partitions"), text);
    }
}
