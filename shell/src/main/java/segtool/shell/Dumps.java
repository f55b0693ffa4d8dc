package segtool.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import segtool.analyzers.archive.DumpReader;
import segtool.analyzers.archive.ManifestProblem;
import segtool.analyzers.archive.ManifestStatus;
import segtool.analyzers.archive.OpenedDump;
import segtool.analyzers.layout.Targets;
import segtool.analyzers.report.ShellWords;

/**
 * Crash dumps (.tar, .tar.lz4, .tar.gz, .lz4) opened in place of a directory. An archive is extracted once per
 * process into a private temp directory (with size limits; hostile entries are refused) and removed at exit; the
 * interactive shell keeps it while it is open.
 *
 * <p>A path inside a dump has an address that outlives the extraction: {@code DUMP::INNER}, for example
 * {@code node1.tar.lz4::streams/1/topics/1/partitions/1/0} (the archive, two colons, the path below the dump's top
 * directory). Every read-only command and the shell's {@code open} accept it, and everything a command prints
 * names paths under an extraction in that form ({@link #addressed}), never by the temporary directory, which is gone
 * when the command ends.
 */
final class Dumps {
    /** Between the archive and the path inside it. */
    static final String SEPARATOR = "::";

    private static final Map<Path, OpenedDump> OPEN = new LinkedHashMap<>();
    /** The extracted root of each open dump, as a string, and the archive as the user named it. */
    private static final Map<String, String> LABELS = new LinkedHashMap<>();
    private static volatile List<Map.Entry<String, String>> longestFirst = List.of();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Dumps::closeAll, "segtool-dump-cleanup"));
    }

    private Dumps() {
    }

    /** True when {@code path} is a regular file that is an archive rather than a segment file. */
    static boolean isArchive(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        String name = path.getFileName().toString();
        if (name.endsWith(".log") || name.endsWith(".index")) {
            return false;
        }
        if (name.endsWith(".tar") || name.endsWith(".tar.lz4") || name.endsWith(".tar.gz") || name.endsWith(".tgz")
                || name.endsWith(".lz4") || name.endsWith(".gz")) {
            return true;
        }
        byte[] head = new byte[512];
        int n;
        try (InputStream in = Files.newInputStream(path)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            return false;
        }
        boolean lz4 = n >= 4 && (head[0] & 0xFF) == 0x04 && (head[1] & 0xFF) == 0x22 && (head[2] & 0xFF) == 0x4D
                && (head[3] & 0xFF) == 0x18;
        boolean gzip = n >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B;
        boolean tar = n >= 262 && new String(head, 257, 5, java.nio.charset.StandardCharsets.US_ASCII).equals("ustar");
        return lz4 || gzip || tar;
    }

    /** True when {@code text} is a {@code DUMP::INNER} address (whether or not the archive exists). */
    static boolean isAddress(String text) {
        return text != null && text.contains(SEPARATOR);
    }

    /** True when {@code text} names a dump: an archive, or a path inside one. */
    static boolean namesDump(String text) {
        return text != null && (isAddress(text) || isArchive(Path.of(text)));
    }

    /**
     * What {@code text} names on disk: for an archive, its extracted root; for {@code DUMP::INNER}, that path below
     * the root (extracting the dump on first use); anything else is returned as it is.
     */
    static Path onDisk(String text, PrintWriter err) throws IOException {
        if (!isAddress(text)) {
            Path p = Path.of(text);
            return isArchive(p) ? open(p, err) : p;
        }
        int at = text.indexOf(SEPARATOR);
        String archiveText = text.substring(0, at);
        String inner = text.substring(at + SEPARATOR.length());
        Path archive = Path.of(archiveText.isEmpty() ? "." : archiveText);
        if (!Files.exists(archive)) {
            throw new Targets.NotATarget(archive + ": no such file or directory (in the address " + text + ")");
        }
        if (!isArchive(archive)) {
            throw new Targets.NotATarget(archive + ": not a crash dump; DUMP" + SEPARATOR + "PATH names a path inside "
                    + "a .tar, .tar.lz4, .tar.gz or .lz4 archive");
        }
        Path rel = Path.of(inner).normalize();
        if (rel.isAbsolute() || rel.startsWith("..")) {
            throw new Targets.NotATarget(text + ": the path after " + SEPARATOR + " must stay inside the dump "
                    + "(relative, no ..)");
        }
        Path root = open(archive, err);
        return inner.isEmpty() ? root : root.resolve(rel);
    }

    /** As {@link #onDisk(String, PrintWriter)} for a dump already open (the shell's open path); never extracts. */
    static synchronized Path peek(Path address) {
        String text = address.toString();
        int at = text.indexOf(SEPARATOR);
        Path archive = Path.of(at < 0 ? text : text.substring(0, at));
        OpenedDump d = OPEN.get(archive.toAbsolutePath().normalize());
        if (d == null) {
            return address;
        }
        String inner = at < 0 ? "" : text.substring(at + SEPARATOR.length());
        return inner.isEmpty() ? d.root() : d.root().resolve(Path.of(inner).normalize());
    }

    /** The extracted root of {@code archive}, extracting it on first use; reports the manifest check on err. */
    static synchronized Path open(Path archive, PrintWriter err) throws IOException {
        Path key = archive.toAbsolutePath().normalize();
        OpenedDump dump = OPEN.get(key);
        if (dump == null) {
            dump = DumpReader.open(archive);
            OPEN.put(key, dump);
            label(dump.root(), archive.normalize().toString());
            ManifestStatus status = dump.manifestStatus();
            if (status.state() == ManifestStatus.State.MISMATCH) {
                err.println("segtool: warning: " + archive + ": the dump's manifest does not match its contents:");
                for (ManifestProblem p : ((ManifestStatus.Mismatch) status).problems()) {
                    err.println("  " + p);
                }
                err.flush();
            }
        }
        return dump.root();
    }

    private static void label(Path root, String archive) {
        LABELS.put(root.toString(), archive);
        LABELS.put(root.toAbsolutePath().toString(), archive);
        try {
            LABELS.put(root.toRealPath().toString(), archive);
        } catch (IOException e) {
            // the names above are the ones printed
        }
        List<Map.Entry<String, String>> list = new ArrayList<>(LABELS.entrySet());
        list.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        longestFirst = List.copyOf(list);
    }

    /**
     * {@code text} with every path under an open dump's extraction written as its address: {@code <root>/x/y}
     * becomes {@code DUMP::x/y} and {@code <root>} alone becomes {@code DUMP}. Where the path is followed by a gap
     * and more text (a table's column: a border, or three spaces or more), the gap absorbs the difference in length,
     * so the columns stay aligned.
     */
    static String address(String text) {
        return addressOf(text);
    }

    /** True when {@code p} lies under an open dump's extraction (it is printed as {@code DUMP::...}). */
    static boolean inDump(Path p) {
        String s = p.toAbsolutePath().toString();
        return !addressOf(s).equals(s);
    }

    private static String addressOf(String text) {
        List<Map.Entry<String, String>> labels = longestFirst;
        for (Map.Entry<String, String> e : labels) {
            String root = e.getKey();
            int at = text.indexOf(root);
            if (at < 0) {
                continue;
            }
            StringBuilder b = new StringBuilder(text.length());
            int from = 0;
            while (at >= 0) {
                int end = at + root.length();
                boolean inside = end < text.length() && text.charAt(end) == '/';
                boolean whole = end >= text.length() || inside || !isPathChar(text.charAt(end));
                if (!whole) {
                    b.append(text, from, end);
                    from = end;
                    at = text.indexOf(root, from);
                    continue;
                }
                int rest = inside ? end + 1 : end;
                int tokenEnd = rest;
                while (tokenEnd < text.length() && !Character.isWhitespace(text.charAt(tokenEnd))) {
                    tokenEnd++;
                }
                // a label a shell would split (a space or a quote in the archive's name) is quoted with the rest of
                // its word, so that a printed command names the dump; trailing punctuation of prose stays outside
                int wordEnd = tokenEnd;
                while (wordEnd > rest && ":,;)".indexOf(text.charAt(wordEnd - 1)) >= 0) {
                    wordEnd--;
                }
                String word = e.getValue() + (inside ? SEPARATOR : "") + text.substring(rest, wordEnd);
                String label = ShellWords.quote(e.getValue()).equals(e.getValue()) ? word : ShellWords.quote(word);
                b.append(text, from, at).append(label).append(text, wordEnd, tokenEnd);
                int gapEnd = tokenEnd;
                while (gapEnd < text.length() && text.charAt(gapEnd) == ' ') {
                    gapEnd++;
                }
                int gap = gapEnd - tokenEnd;
                boolean column = gapEnd < text.length() && (text.charAt(gapEnd) == '|' ? gap >= 1
                        : gap >= 3 && text.charAt(gapEnd) != '\n' && text.charAt(gapEnd) != '\r');
                if (column) {
                    int shorter = (wordEnd - at) - label.length();
                    b.append(" ".repeat(Math.max(1, gap + shorter)));
                    from = gapEnd;
                } else {
                    from = tokenEnd;
                }
                at = text.indexOf(root, from);
            }
            b.append(text, from, text.length());
            text = b.toString();
        }
        return text;
    }

    private static boolean isPathChar(char c) {
        return Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.';
    }

    /** {@code w}, printing paths under a dump's extraction by their address (line by line); idempotent. */
    static PrintWriter addressed(PrintWriter w) {
        return w instanceof Addressed ? w : new Addressed(w);
    }

    /** A writer that holds a line until its end, then writes it with {@link #address} applied. */
    private static final class Addressed extends PrintWriter {
        Addressed(PrintWriter target) {
            super(new LineWriter(target), true);
        }
    }

    private static final class LineWriter extends Writer {
        private final PrintWriter target;
        private final StringBuilder line = new StringBuilder();

        LineWriter(PrintWriter target) {
            super(target);
            this.target = target;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            if (longestFirst.isEmpty() && line.length() == 0) {
                target.write(buf, off, len);
                return;
            }
            for (int i = off; i < off + len; i++) {
                line.append(buf[i]);
                if (buf[i] == '\n') {
                    emit();
                }
            }
        }

        private void emit() {
            if (line.length() > 0) {
                target.write(address(line.toString()));
                line.setLength(0);
            }
        }

        @Override
        public void flush() {
            emit();
            target.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }

    /** Removes the extraction of the dump {@code address} names (DUMP or DUMP::PATH), if it is open. */
    static synchronized void release(Path address) throws IOException {
        String text = address.toString();
        int at = text.indexOf(SEPARATOR);
        Path archive = Path.of(at < 0 ? text : text.substring(0, at)).toAbsolutePath().normalize();
        OpenedDump d = OPEN.remove(archive);
        if (d != null) {
            d.close();
        }
    }

    static synchronized void closeAll() {
        for (OpenedDump d : OPEN.values()) {
            try {
                d.close();
            } catch (RuntimeException | IOException ignored) {
                // best effort at exit; the extraction sits in a private temp directory
            }
        }
        OPEN.clear();
    }
}
