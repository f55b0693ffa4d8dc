package segtool.shell.repl;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.inspect.SegmentReader;
import segtool.formats.index.IndexEntry;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.shell.ShellSession;

/**
 * Tab completion driven by the picocli model: command names, option names (with their descriptions), option
 * values (enums, true/false, the open partition's id and offsets), and positional parameters by what they name:
 * paths for PATH/PARTITION, start offsets of the open partition plus paths for SEGMENT, index entry positions for
 * POSITION. Reads only directory listings and index files, never logs, so it stays instant.
 */
public final class ShellCompleter implements Completer {
    /** Upper bound on offset or position candidates offered at once. */
    static final int MAX_NUMBERS = 200;

    private final CommandLine root;
    private final ShellSession session;

    /** Completes the commands of {@code root}; segments and offsets come from what {@code session} has open. */
    public ShellCompleter(CommandLine root, ShellSession session) {
        this.root = root;
        this.session = session;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words();
        int wi = line.wordIndex();
        String word = line.word() == null ? "" : line.word().substring(0, Math.min(line.wordCursor(),
                line.word().length()));
        if (wi == 0) {
            commands(candidates);
            return;
        }
        CommandLine sub = root.getSubcommands().get(words.get(0));
        if (sub == null) {
            return;
        }
        CommandSpec spec = sub.getCommandSpec();
        if (sub.getCommand() instanceof CommandLine.HelpCommand) {
            commands(candidates);
            return;
        }
        int eq = word.indexOf('=');
        if (word.startsWith("-") && eq > 0) {
            OptionSpec o = spec.findOption(word.substring(0, eq));
            if (o != null) {
                List<String> vs = values(o, spec);
                for (int i = 0; i < vs.size(); i++) {
                    candidates.add(new Candidate(word.substring(0, eq + 1) + vs.get(i), vs.get(i), null, null, null,
                            null, true, i));
                }
            }
            return;
        }
        if (word.startsWith("-")) {
            options(spec, candidates);
            return;
        }
        String prev = words.get(wi - 1);
        OptionSpec po = prev.startsWith("-") && !prev.contains("=") ? spec.findOption(prev) : null;
        if (po != null && takesValue(po)) {
            List<String> vs = values(po, spec);
            for (int i = 0; i < vs.size(); i++) {
                candidates.add(new Candidate(vs.get(i), vs.get(i), null, null, null, null, true, i));
            }
            if (po.arity().min() > 0) {
                return;
            }
        }
        int k = positionalIndex(spec, words, wi);
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.index().contains(k)) {
                positional(p, words, wi, word, candidates);
            }
        }
    }

    private void commands(List<Candidate> out) {
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            CommandSpec s = e.getValue().getCommandSpec();
            if (s.usageMessage().hidden()) {
                continue;
            }
            String[] d = s.usageMessage().description();
            rows.add(new String[]{e.getKey(), d.length == 0 ? null : firstSentence(d[0])});
        }
        int w = width(rows);
        for (String[] r : rows) {
            out.add(new Candidate(r[0], display(r[0], r[1], w), "commands", null, null, null, true));
        }
    }

    private static void options(CommandSpec spec, List<Candidate> out) {
        List<String[]> rows = new ArrayList<>();
        List<Boolean> complete = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            String descr = o.description().length == 0 ? null : firstSentence(o.description()[0]);
            for (String name : o.names()) {
                if (name.startsWith("--")) {
                    rows.add(new String[]{name, descr});
                    // a flag, or an option that must have a value: the word is complete (a space follows, ready
                    // for the value); an optional value (--enforce-fsync[=true|false]) leaves room for '='
                    complete.add(o.arity().max() == 0 || o.arity().min() > 0);
                }
            }
        }
        int w = width(rows);
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            out.add(new Candidate(r[0], display(r[0], r[1], w), "options", null, null, null,
                    complete.get(i)));
        }
    }

    private static int width(List<String[]> rows) {
        int w = 0;
        for (String[] r : rows) {
            w = Math.max(w, r[0].length());
        }
        return w;
    }

    /**
     * What JLine lists for a candidate: its name padded to the widest name of the list, then its description, so
     * the descriptions start in one column. (JLine pads between a display and a Candidate {@code descr} so that
     * each row ends where the widest one does: the descriptions come out right-aligned, starting at ragged
     * columns. So the description is part of the display; JLine still matches, groups and lays out the rows.)
     */
    static String display(String name, String descr, int width) {
        return descr == null ? name : name + " ".repeat(width - name.length() + 2) + descr;
    }

    private static String firstSentence(String text) {
        String s = text.replace("%n", " ").strip();
        int dot = s.indexOf(". ");
        while (dot > 0 && s.charAt(dot - 1) == '.') {
            dot = s.indexOf(". ", dot + 2);
        }
        String first = dot > 0 ? s.substring(0, dot) : s;
        return first.length() > 70 ? first.substring(0, 67) + "..." : first;
    }

    private static boolean takesValue(OptionSpec o) {
        return o.arity().max() > 0;
    }

    /** Which positional parameter the word at {@code wi} fills: words that are options or option values skip. */
    private static int positionalIndex(CommandSpec spec, List<String> words, int wi) {
        int k = 0;
        for (int i = 1; i < wi; i++) {
            String w = words.get(i);
            if (w.startsWith("-") && w.length() > 1) {
                OptionSpec o = w.contains("=") ? null : spec.findOption(w);
                if (o != null && o.arity().min() > 0) {
                    i++;
                }
                continue;
            }
            k++;
        }
        return k;
    }

    private List<String> values(OptionSpec o, CommandSpec spec) {
        List<String> out = new ArrayList<>();
        if (o.completionCandidates() != null) {
            o.completionCandidates().forEach(out::add);
        }
        if (!out.isEmpty()) {
            return out;
        }
        if (o.typeInfo().isBoolean()) {
            return List.of("true", "false");
        }
        String name = o.longestName();
        if (name.equals("--partition-id")) {
            PartitionPath p = openPartition();
            if (p != null && p.hasPartitionId()) {
                out.add(Long.toString(p.partitionId()));
            }
        } else if (name.equals("--offset")) {
            out.addAll(offsets());
        }
        return out;
    }

    private void positional(PositionalParamSpec p, List<String> words, int wi, String word, List<Candidate> out) {
        String label = p.paramLabel();
        if (label.contains("SEGMENT")) {
            if (!word.contains("/")) {
                List<String> starts = segmentStarts();
                for (int i = 0; i < starts.size(); i++) {
                    out.add(new Candidate(starts.get(i), starts.get(i), "segments", null, null, null, true, i));
                }
            }
            paths(word, out);
        } else if (label.contains("PATH") || label.contains("PARTITION")) {
            paths(word, out);
        } else if (label.equals("POSITION") && wi >= 2) {
            List<String> ps = positions(words.get(wi - 1));
            for (int i = 0; i < ps.size(); i++) {
                out.add(new Candidate(ps.get(i), ps.get(i), "index entry positions", null, null, null, true, i));
            }
        } else if (label.equals("DIR")) {
            dirs(word, out);
        }
    }

    // ---- what the open partition offers ------------------------------------------------------------------

    private Path openDirectory() {
        Path open = session.openOnDisk();
        if (open == null) {
            return null;
        }
        return Files.isRegularFile(open) ? open.toAbsolutePath().getParent() : open;
    }

    private PartitionPath openPartition() {
        Path dir = openDirectory();
        return dir == null ? null : PartitionPath.of(dir);
    }

    private List<String> segmentStarts() {
        Path dir = openDirectory();
        List<String> out = new ArrayList<>();
        if (dir == null) {
            return out;
        }
        try {
            for (long s : PartitionFiles.starts(dir)) {
                out.add(Long.toUnsignedString(s));
            }
        } catch (IOException e) {
            // nothing to offer
        }
        return out;
    }

    /** Segment start offsets, then index entry offsets, of the open partition; at most {@link #MAX_NUMBERS}. */
    private List<String> offsets() {
        Path dir = openDirectory();
        Set<String> out = new LinkedHashSet<>(segmentStarts());
        if (dir == null) {
            return new ArrayList<>(out);
        }
        try {
            for (long s : PartitionFiles.starts(dir)) {
                for (IndexEntry e : SegmentReader.indexEntries(SegmentFiles.index(dir, s), MAX_NUMBERS - out.size())) {
                    out.add(Long.toUnsignedString(e.offset()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing more to offer
        }
        List<String> sorted = new ArrayList<>(out);
        sorted.sort((x, y) -> Long.compareUnsigned(Long.parseUnsignedLong(x), Long.parseUnsignedLong(y)));
        return sorted;
    }

    /** Index entry positions of the segment named by {@code segment} (a start offset or a file). */
    private List<String> positions(String segment) {
        List<String> out = new ArrayList<>();
        Path index;
        Long start = SegmentFiles.startOffsetOf(segment);
        Path dir = openDirectory();
        if (start != null && dir != null) {
            index = SegmentFiles.index(dir, start);
        } else {
            Path p = Path.of(segment);
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            index = p.resolveSibling(SegmentFiles.stemOf(name) + SegmentFiles.INDEX);
        }
        try {
            for (IndexEntry e : SegmentReader.indexEntries(index, MAX_NUMBERS)) {
                out.add(Long.toUnsignedString(e.position()));
            }
        } catch (IOException | RuntimeException e) {
            // nothing to offer
        }
        return out;
    }

    /** Directories relative to the open path (for cd and ls), numeric names in numeric order. */
    private void dirs(String word, List<Candidate> out) {
        int slash = word.lastIndexOf('/');
        String typed = word.substring(0, slash + 1);
        Path base;
        try {
            base = session.openPath() == null ? Path.of(typed.isEmpty() ? "." : typed)
                    : session.relative(typed.isEmpty() ? "." : typed);
        } catch (IllegalArgumentException e) {
            return;
        }
        Path dir = session.openPath() == null ? base : segtool.shell.ShellSession.peek(base);
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.startsWith(word.substring(slash + 1)) && (!name.startsWith(".") || word.startsWith("."))) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            return;
        }
        names.sort(ShellCompleter::compareNames);
        for (int i = 0; i < names.size(); i++) {
            out.add(new Candidate(typed + names.get(i) + "/", names.get(i) + "/", null, null, null, null, false, i));
        }
    }

    /** Numeric names (segment files by their start offset too) in numeric order, then the rest by name. */
    static int compareNames(String a, String b) {
        Long x = leadingNumber(a);
        Long y = leadingNumber(b);
        if (x != null && y != null) {
            int c = Long.compareUnsigned(x, y);
            return c != 0 ? c : a.compareTo(b);
        }
        if ((x == null) != (y == null)) {
            return x != null ? -1 : 1;
        }
        return a.compareTo(b);
    }

    private static Long leadingNumber(String name) {
        int end = 0;
        while (end < name.length() && Character.isDigit(name.charAt(end))) {
            end++;
        }
        return end == 0 || end > 20 ? null : segtool.formats.io.U64.parse(name.substring(0, end));
    }

    /** Files and directories matching {@code word}; directories end in '/' and do not close the word. */
    static void paths(String word, List<Candidate> out) {
        String home = System.getProperty("user.home");
        String expanded = word.startsWith("~/") ? home + word.substring(1) : word;
        int slash = expanded.lastIndexOf('/');
        Path dir = slash < 0 ? Path.of(".") : Path.of(slash == 0 ? "/" : expanded.substring(0, slash));
        String prefix = expanded.substring(slash + 1);
        String typed = word.substring(0, word.lastIndexOf('/') + 1);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (!name.startsWith(prefix) || name.startsWith(".") && !prefix.startsWith(".")) {
                    continue;
                }
                boolean isDir = Files.isDirectory(p);
                String value = typed + name + (isDir ? "/" : "");
                out.add(new Candidate(value, name + (isDir ? "/" : ""), null, null, null, null, !isDir));
            }
        } catch (IOException e) {
            // an unreadable directory offers nothing
        }
    }
}
