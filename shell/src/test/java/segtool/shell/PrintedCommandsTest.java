package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.report.ShellWords;

/**
 * The commands segtool prints for an operator to paste (explain's look-at-it and loss lines, doctor's next steps,
 * repair's undo line, find's show-it line) name the same files when a path holds a space or a quote: each such
 * line is split here as a POSIX shell splits it, and the words must be the paths, and the read-only commands run.
 * Before, the paths were printed bare, and "$ segtool hexdump /srv/op's data/..." split into other words.
 */
class PrintedCommandsTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final Pattern PRINTED = Pattern.compile("(?:\\$ |next: |undo with: |show it: )(segtool .*)$",
            Pattern.MULTILINE);

    @Test
    void quote_leavesPlainWordsAndQuotesTheRest() {
        assertEquals("/srv/iggy/1", ShellWords.quote("/srv/iggy/1"));
        assertEquals("'/srv/op'\\''s data/1'", ShellWords.quote("/srv/op's data/1"));
        assertEquals("'a$b'", ShellWords.quote("a$b"));
        assertEquals("''", ShellWords.quote(""));
        for (String s : List.of("/srv/op's data/1", "a b", "x;rm -rf y", "tab\there", "$(echo)", "back\\slash", "")) {
            assertEquals(List.of(s), words(ShellWords.quote(s)), s);
        }
    }

    /**
     * A scratch file whose name holds a line feed: doctor's and repair's lines show it as {@code \n} (as ls -b does),
     * so one file is one line of the report; it was printed raw, and its second half read as a line of its own.
     */
    @Test
    void aNameWithALineFeed_staysOnOneLine(@TempDir Path scratch) throws IOException {
        Path root = scratch.resolve("d");
        Partitions.copyTree(GALLERY.resolve("healthy"), root);
        Path p = root.resolve(Path.of("streams", "1", "topics", "1", "partitions", "1"));
        Files.write(p.resolve("x\nsegtool: all clean.staging"), new byte[3]);
        for (Object[] args : List.of(new Object[]{"doctor", root}, new Object[]{"repair", p},
                new Object[]{"explain", p})) {
            Cli.Result r = Cli.run(args);
            assertTrue(r.out().contains("x\\nsegtool: all clean.staging"), r.toString());
            assertFalse(r.out().lines().anyMatch(l -> l.startsWith("segtool: all clean")), r.toString());
        }
        assertEquals("a\\tb\\x01c\\x7f", ShellWords.shown("a\tb\u0001c\u007f"));
        assertEquals("plain/name.log", ShellWords.shown("plain/name.log"));
    }

    @Test
    void explainAndDoctor_printPathsAsOneWord(@TempDir Path scratch) throws IOException {
        Path root = scratch.resolve("op's data dir");
        Partitions.copyTree(GALLERY.resolve("interior-damage"), root);
        Path p = root.resolve(Path.of("streams", "1", "topics", "1", "partitions", "1"));
        String log = p.resolve("00000000000000000000.log").toString();

        List<List<String>> explain = printed(Cli.run("explain", p).out());
        assertTrue(explain.stream().anyMatch(w -> w.get(1).equals("hexdump") && w.get(2).equals(log)), explain.toString());
        assertTrue(explain.stream().anyMatch(w -> w.get(1).equals("salvage") && w.get(2).equals(p.toString())),
                explain.toString());
        assertTrue(explain.stream().anyMatch(w -> w.get(1).equals("repair") && w.get(2).equals(p.toString())),
                explain.toString());
        for (List<String> w : explain) {
            if (List.of("hexdump", "batches", "segments").contains(w.get(1))) {
                Cli.Result r = Cli.run(w.subList(1, w.size()).toArray());
                assertNotEquals(ExitCodes.USAGE, r.exit(), w + "\n" + r);
                assertFalse(r.err().contains("No such file"), w + "\n" + r);
            }
        }

        List<List<String>> doctor = printed(Cli.run("doctor", root).out());
        assertTrue(doctor.stream().anyMatch(w -> w.get(1).equals("explain") && w.get(2).equals(p.toString())),
                doctor.toString());
        for (List<String> w : doctor) {
            if (w.get(1).equals("explain")) {
                assertEquals(ExitCodes.REFUSED, Cli.run(w.subList(1, w.size()).toArray()).exit(), w.toString());
            }
        }
    }

    @Test
    void repairUndoAndFindShowIt_printPathsAsOneWord(@TempDir Path scratch) throws IOException {
        Path root = scratch.resolve("a b");
        Partitions.copyTree(GALLERY.resolve("torn-tail"), root);
        Path p = root.resolve(Path.of("streams", "1", "topics", "1", "partitions", "1"));

        Cli.Result applied = Cli.run("repair", "--apply", "--yes", p);
        List<List<String>> undo = printed(applied.out());
        assertFalse(undo.isEmpty(), applied.toString());
        for (List<String> w : undo) {
            assertEquals("restore", w.get(1), w.toString());
            assertTrue(Files.isDirectory(Path.of(w.get(2))), w.toString());
            // its dry run (without --apply) reads that quarantine and would restore it
            List<String> dry = new ArrayList<>(w.subList(1, w.size()));
            dry.remove("--apply");
            Cli.Result r = Cli.run(dry.toArray());
            assertEquals(ExitCodes.CHANGES, r.exit(), dry + "\n" + r);   // would put the cut bytes back
        }

        List<List<String>> show = printed(Cli.run("find", p, "--offset", "0").out());
        assertEquals(1, show.size(), show.toString());
        assertEquals(p.resolve("00000000000000000000.log").toString(), show.get(0).get(2));
        assertEquals(ExitCodes.CLEAN, Cli.run(show.get(0).subList(1, show.get(0).size()).toArray()).exit());
    }

    /**
     * A crash dump whose name holds a space and a quote: the commands explain and doctor print name it as
     * {@code 'op'\''s dumps/node 1.tar.lz4::streams/...'}, one word; the address replaced the extraction's path bare
     * (the extraction's path itself needs no quoting), and the printed lines split into other words.
     */
    @Test
    void aDumpAddressWithASpace_isOneWord(@TempDir Path scratch) throws IOException {
        Path node = scratch.resolve("node");
        Partitions.copyTree(GALLERY.resolve("hole"), node);
        Path dump = Files.createDirectories(scratch.resolve("op's dumps")).resolve("node 1.tar.lz4");
        assertEquals(ExitCodes.CLEAN, Cli.run("pack", node, "-o", dump).exit());
        String address = dump + "::streams/1/topics/1/partitions/1";
        List<List<String>> explain = printed(Cli.run("explain", address).out());
        assertTrue(explain.stream().anyMatch(w -> w.get(1).equals("segments") && w.get(2).equals(address)),
                explain.toString());
        for (List<String> w : explain) {
            assertTrue(w.stream().noneMatch(x -> x.startsWith("dumps/") || x.startsWith("1.tar")), w.toString());
            if (w.get(1).equals("segments")) {
                assertNotEquals(ExitCodes.USAGE, Cli.run(w.subList(1, w.size()).toArray()).exit(), w.toString());
            }
        }
        // nothing changes a dump: no repair to paste, but where to run it (as doctor says)
        assertTrue(explain.stream().noneMatch(w -> w.get(1).equals("repair")), explain.toString());
        assertTrue(Cli.run("explain", address).out().contains("(a crash dump is read-only: extract it, and run "
                + "repair --accept-loss"), "explain says where the repair runs");
        List<List<String>> doctor = printed(Cli.run("doctor", dump).out());
        assertTrue(doctor.stream().anyMatch(w -> w.get(1).equals("explain") && w.get(2).equals(address)),
                doctor.toString());
    }

    /** The printed command lines of an output, each split into words as a POSIX shell does (comments dropped). */
    private static List<List<String>> printed(String out) {
        List<List<String>> all = new ArrayList<>();
        Matcher m = PRINTED.matcher(out);
        while (m.find()) {
            all.add(words(m.group(1)));
        }
        return all;
    }

    /** POSIX word splitting of one line: blanks separate, '...' quotes, \ escapes outside quotes, # starts a comment. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                assertTrue(end > i, "unclosed quote in " + line);
                w = w == null ? new StringBuilder() : w;
                w.append(line, i + 1, end);
                i = end;
            } else if (c == '\\' && i + 1 < line.length()) {
                w = w == null ? new StringBuilder() : w;
                w.append(line.charAt(++i));
            } else if (c == ' ' || c == '\t') {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else if (c == '#' && w == null) {
                break;
            } else {
                assertFalse("\"$`;&|<>()*?[".indexOf(c) >= 0, "unquoted '" + c + "' in " + line);
                w = w == null ? new StringBuilder() : w;
                w.append(c);
            }
        }
        if (w != null) {
            words.add(w.toString());
        }
        return words;
    }
}
