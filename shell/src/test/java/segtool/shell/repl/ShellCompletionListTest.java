package segtool.shell.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import org.jline.terminal.Terminal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 14.10 in the shell over a dumb JLine terminal: a bare offset inside an open partition is taken as the segment
 * that holds it; completion gives JLine what it needs to list candidates with their descriptions in one column, by
 * group, offsets in numeric order, and leaves a value-taking option ready for its value.
 */
class ShellCompletionListTest {
    @TempDir
    static Path root;

    static Path dir;
    static List<PartitionWriter.SegmentLayout> segments;

    @BeforeAll
    static void build() {
        dir = root.resolve("node/streams/1/topics/1/partitions/1");
        // 2 KiB segments of five-message batches: several segments, each holding offsets past its start
        segments = PartitionWriter.fill(dir, PartitionWriter.Config.of(1).segmentSize(2048).messagesRequiredToSave(1),
                60, 5, 40, 7);
    }

    static List<Candidate> complete(Repl repl, String line) {
        ParsedLine parsed = repl.reader().getParser().parse(line, line.length());
        List<Candidate> out = new ArrayList<>();
        new ShellCompleter(repl.commandLine(), repl.session()).complete(repl.reader(), parsed, out);
        return out;
    }

    @Test
    void bareOffsetInsideASegment_isTheSegmentThatHoldsIt() throws Exception {
        PartitionWriter.SegmentLayout seg = segments.get(2);
        assertTrue(seg.endOffset() > seg.startOffset() + 3, "the segment holds several offsets");
        long inside = seg.startOffset() + 3;
        String out = ReplTest.session(null, dir, null, "batches " + inside, "index " + inside,
                "messages " + inside + " --limit 1", "exit");
        String note = "segtool: offset " + inside + " is in segment " + seg.startOffset() + " ("
                + SegmentFiles.stem(seg.startOffset()) + ".log";
        assertEquals(3, out.split(java.util.regex.Pattern.quote(note), -1).length - 1, out);
        assertTrue(out.contains(SegmentFiles.stem(seg.startOffset()) + ".log: " + seg.length() + " bytes"), out);
        assertTrue(out.contains(SegmentFiles.stem(seg.startOffset()) + ".index: "), out);
        assertTrue(out.contains("\noffset " + inside + "  id "), "messages start at the offset asked: " + out);
        assertFalse(out.contains("[64]"), out);
        assertFalse(out.contains("no such segment"), out);
    }

    @Test
    void candidates_carryDescriptionsAndGroups_numbersInNumericOrder_optionsReadyForValues() throws Exception {
        try (Terminal t = ReplTest.dumb(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
             Repl repl = new Repl(t, null)) {
            repl.session().open(dir);
            LineReader reader = repl.reader();
            // JLine lays candidates out in columns of equal width, so descriptions line up, grouped by name
            assertFalse(reader.isSet(LineReader.Option.LIST_PACKED));
            assertTrue(reader.isSet(LineReader.Option.AUTO_GROUP) && reader.isSet(LineReader.Option.GROUP));
            List<Candidate> commands = complete(repl, "");
            int at = commands.stream().mapToInt(c -> c.value().length()).max().orElseThrow() + 2;
            for (Candidate c : commands) {
                assertEquals("commands", c.group(), c.value());
                assertTrue(c.displ().length() <= at || c.displ().charAt(at) != ' ' && c.displ().charAt(at - 1) == ' ',
                        "[" + c.displ() + "]");
            }
            List<Candidate> options = complete(repl, "explain --");
            assertTrue(options.stream().anyMatch(c -> c.value().equals("--detail")), options.toString());
            // each description starts in the same column, after the widest option name and two spaces
            int column = options.stream().mapToInt(c -> c.value().length()).max().orElseThrow() + 2;
            for (Candidate c : options) {
                assertEquals("options", c.group(), c.value());
                assertTrue(c.displ().startsWith(c.value() + " "), c.displ());
                assertTrue(c.displ().length() > column && c.displ().charAt(column - 1) == ' '
                        && c.displ().charAt(column) != ' ', "[" + c.displ() + "]");
                assertEquals(null, c.descr(), "no JLine descr: it would be right-aligned instead");
            }
            assertTrue(options.stream().anyMatch(c -> c.displ().matches("--detail +Also show how recovery.*")));
            Candidate limit = complete(repl, "messages --lim").stream().filter(c -> c.value().equals("--limit"))
                    .findFirst().orElseThrow();
            assertTrue(limit.complete(), "a space follows --limit: ready for the value");
            assertTrue(complete(repl, "messages --limit=").isEmpty(), "--limit= is left as typed");
            assertTrue(complete(repl, "batches --limit ").stream().noneMatch(c -> c.value().startsWith("-")),
                    "after --limit comes its value, not another option");

            List<Candidate> starts = complete(repl, "index ").stream().filter(c -> c.value().matches("[0-9]+"))
                    .toList();
            assertEquals(segments.size(), starts.size(), starts.toString());
            List<Candidate> bySortKey = new ArrayList<>(starts);
            bySortKey.sort(java.util.Comparator.comparing(Candidate::sort));
            for (int i = 0; i < bySortKey.size(); i++) {
                assertEquals(Long.toString(segments.get(i).startOffset()), bySortKey.get(i).value(),
                        "JLine orders by the sort key: numeric order");
            }
        }
    }
}
