package segtool.shell.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jline.terminal.Terminal;
import picocli.CommandLine;
import segtool.formats.writer.PartitionWriter;
import segtool.shell.CommandLines;

/** Issue 14.1 in the shell: `open` takes a crash dump and a DUMP::PATH address, and the commands then work in it. */
class DumpShellTest {
    @TempDir
    static Path root;

    static Path dump;

    @BeforeAll
    static void build() {
        Path dir = root.resolve("node/streams/1/topics/1/partitions/1");
        PartitionWriter.fill(dir, PartitionWriter.Config.of(1).segmentSize(16 * 1024).messagesRequiredToSave(5),
                300, 5, 40, 7);
        dump = root.resolve("node.tar.lz4");
        CommandLine c = CommandLines.oneShot();
        StringWriter err = new StringWriter();
        c.setErr(new PrintWriter(err, true));
        c.setOut(new PrintWriter(new StringWriter(), true));
        assertEquals(0, c.execute("pack", root.resolve("node").toString(), "-o", dump.toString()), err.toString());
    }

    @Test
    void openADumpPartition_thenSegmentsByStartOffset() throws Exception {
        String p1 = dump + "::streams/1/topics/1/partitions/1";
        String out = ReplTest.session(null, "open " + p1, "segments", "batches 0 --limit 1", "index 120",
                "messages --limit 1", "exit");
        assertTrue(out.contains("opened partition " + p1 + ": 3 segment(s)"), out);
        assertTrue(out.contains("segtool s1/t1/p1> "), out);
        assertTrue(out.contains(p1 + "  (partition 1): 3 segment(s)"), out);
        assertTrue(out.contains("1 batches, 5 messages"), out);
        assertTrue(out.contains("00000000000000000120.index"), out);
        assertTrue(out.contains("1 message(s) shown"), out);
        assertFalse(out.contains("segtool-dump-"), out);
        assertFalse(out.contains("[64]") || out.contains("[3]"), out);
    }

    @Test
    void close_removesTheExtraction() throws Exception {
        try (Terminal t = ReplTest.dumb(new java.io.ByteArrayInputStream(new byte[0]),
                new java.io.ByteArrayOutputStream()); Repl repl = new Repl(t, null)) {
            assertEquals(0, repl.execute(java.util.List.of("open", dump + "::streams/1")));
            Path extracted = segtool.shell.ShellSession.peek(repl.session().openPath());
            assertTrue(java.nio.file.Files.isDirectory(extracted), extracted.toString());
            assertFalse(extracted.toString().contains("::"), extracted.toString());
            assertEquals(0, repl.execute(java.util.List.of("close")));
            assertFalse(java.nio.file.Files.exists(extracted), "the extraction is gone: " + extracted);
            assertEquals(0, repl.execute(java.util.List.of("open", dump.toString())), "and opens again");
        }
    }

    @Test
    void openTheWholeDump_isADataDirectory() throws Exception {
        String out = ReplTest.session(null, "open " + dump, "scan -q", "messages", "exit");
        assertTrue(out.contains("opened data directory " + dump + ": 1 partition(s)"), out);
        assertTrue(out.contains("1 message(s) shown") || out.contains("message(s) shown"), out);
        assertFalse(out.contains("segtool-dump-"), out);
        assertFalse(out.contains("not a segment file"), out);
    }
}
