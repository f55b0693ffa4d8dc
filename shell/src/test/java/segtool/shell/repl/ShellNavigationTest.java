package segtool.shell.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.ParsedLine;
import org.jline.terminal.Terminal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 14.10: cd, ls and pwd move within what is open (as kafka-metadata-shell does), relative PATHs and bare
 * segment offsets resolve against it, and completion leaves a value-taking option ready for its value and offers
 * numbers in numeric order, as JLine shows them.
 */
class ShellNavigationTest {
    @TempDir
    static Path root;

    static Path data;

    @BeforeAll
    static void build() throws Exception {
        data = root.resolve("node");
        // small segments, so that start offsets 9 and 10 sort differently as text and as numbers
        PartitionWriter.fill(data.resolve("streams/1/topics/1/partitions/1"), PartitionWriter.Config.of(1)
                .segmentSize(2048).messagesRequiredToSave(1), 40, 1, 40, 7);
        Files.createDirectories(data.resolve("streams/2/topics/1/partitions/1"));
        Files.createDirectories(data.resolve("streams/10/topics/1/partitions/1"));
    }

    @Test
    void cdLsPwd_moveWithinTheOpenPath() throws Exception {
        String out = session( "open " + data, "pwd", "ls", "cd streams/1/topics/1", "pwd",
                "ls partitions", "cd partitions/1", "segments -q", "cd ..", "pwd", "cd", "pwd",
                "segments streams/1/topics/1/partitions/1 -q", "cd /no/such/dir", "cd ../../..", "exit");
        assertTrue(out.contains("\n" + data + "\n"), out);
        assertTrue(out.contains("streams/\n"), out);
        String topic = data.resolve("streams/1/topics/1").toString();
        assertTrue(out.contains("\n" + topic + "\n"), out);
        assertTrue(out.contains("partitions/1/") || out.contains("\n1/\n"), out);
        assertTrue(out.contains("segtool s1/t1/p1> "), "cd into the partition moves the prompt: " + out);
        assertTrue(out.contains("\n" + data.resolve("streams/1/topics/1/partitions") + "\n"), out);
        assertEquals(2, out.split("\n" + data + "\n", -1).length - 1, "cd alone goes back to what was opened: " + out);
        assertTrue(out.contains("segtool: /no/such/dir: no such directory"), out);
        assertFalse(out.contains("\tat "), out);
    }

    @Test
    void lsOrdersNumerically_andShowsSizes() throws Exception {
        String out = session( "open " + data.resolve("streams"), "ls", "exit");
        int one = out.indexOf("\n1/\n");
        int two = out.indexOf("\n2/\n");
        int ten = out.indexOf("\n10/\n");
        assertTrue(one >= 0 && one < two && two < ten, out);
        String part = session( "open " + data.resolve("streams/1/topics/1/partitions/1"), "ls", "exit");
        assertTrue(part.contains("00000000000000000000.log"), part);
        assertTrue(part.matches("(?s).*00000000000000000000\\.log\\s+[0-9,]+ bytes.*"), part);
    }

    @Test
    void insideADump_cdStaysInsideTheDump() throws Exception {
        Path dump = root.resolve("node.tar");
        var c = segtool.shell.CommandLines.oneShot();
        c.setOut(new java.io.PrintWriter(new java.io.StringWriter(), true));
        assertEquals(0, c.execute("pack", data.toString(), "-o", dump.toString()));
        String out = session( "open " + dump, "cd streams/1/topics/1/partitions/1", "pwd",
                "batches 0 --limit 1", "cd ../../../../../..", "pwd", "cd ..", "exit");
        assertTrue(out.contains("\n" + dump + "::streams/1/topics/1/partitions/1\n"), out);
        assertTrue(out.contains("1 batches, 1 messages"), out);
        assertTrue(out.contains("\n" + dump + "\n"), out);
        assertTrue(out.contains("..: leads out of the crash dump " + dump), out);
        assertFalse(out.contains("segtool-dump-"), out);
    }

    /** The shell's output with line ends as "\n" (the terminal writes "\r\n"). */
    static String session(String... lines) throws Exception {
        return ReplTest.session(null, lines).replace("\r", "");
    }

    static List<Candidate> complete(Repl repl, String line) {
        ParsedLine parsed = repl.reader().getParser().parse(line, line.length());
        List<Candidate> out = new ArrayList<>();
        new ShellCompleter(repl.commandLine(), repl.session()).complete(repl.reader(), parsed, out);
        Collections.sort(out);
        return out;
    }

    static List<String> values(List<Candidate> cs) {
        return cs.stream().map(Candidate::value).toList();
    }

    @Test
    void completion_readyForValues_numericOrder_andDirectories() throws Exception {
        try (Terminal t = ReplTest.dumb(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
             Repl repl = new Repl(t, null)) {
            repl.session().open(data.resolve("streams/1/topics/1/partitions/1"));
            Candidate limit = complete(repl, "messages --li").stream().filter(c -> c.value().equals("--limit"))
                    .findFirst().orElseThrow();
            assertTrue(limit.complete(), "--limit is followed by a space, ready for its value");
            Candidate json = complete(repl, "scan --js").stream().filter(c -> c.value().equals("--json"))
                    .findFirst().orElseThrow();
            assertTrue(json.complete());
            Candidate fsync = complete(repl, "scan --enforce").stream()
                    .filter(c -> c.value().equals("--enforce-fsync")).findFirst().orElseThrow();
            assertFalse(fsync.complete(), "an optional value leaves room for '='");

            List<String> starts = values(complete(repl, "index "));
            List<String> numeric = starts.stream().filter(s -> s.matches("[0-9]+")).toList();
            assertTrue(numeric.size() > 3, numeric.toString());
            for (int i = 1; i < numeric.size(); i++) {
                assertTrue(Long.parseLong(numeric.get(i - 1)) < Long.parseLong(numeric.get(i)), numeric.toString());
            }
            List<String> offsets = values(complete(repl, "find --offset "));
            for (int i = 1; i < Math.min(offsets.size(), 20); i++) {
                assertTrue(Long.parseLong(offsets.get(i - 1)) < Long.parseLong(offsets.get(i)), offsets.toString());
            }

            repl.session().open(data.resolve("streams"));
            assertEquals(List.of("1/", "2/", "10/"), values(complete(repl, "cd ")));
            assertEquals(List.of("1/topics/"), values(complete(repl, "ls 1/")));
        }
    }
}
