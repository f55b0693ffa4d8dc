package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A quarantine directory, read side. Layout, beside the partition directory {@code <p>}:
 * <pre>
 *   &lt;p&gt;.segtool-quarantine.&lt;yyyyMMdd'T'HHmmss.SSS'Z'&gt;/
 *     manifest.json            the plan and every copied range ({@link Manifest}); its presence is the commit point
 *     journal                  "done &lt;seq&gt; &lt;op&gt;" per finished operation, appended and forced
 *     bytes/&lt;id&gt;-&lt;file&gt;@&lt;offset&gt;   a copy of one removed byte range
 *     new/&lt;S&gt;.index            an index the plan installs (written ahead, so a re-run installs the same bytes)
 * </pre>
 * A directory without {@code manifest.json} is a preparation that never committed: nothing was changed for it.
 */
public final class Quarantine {
    public static final String MARKER = segtool.analyzers.layout.Targets.QUARANTINE_MARKER;
    public static final String MANIFEST = "manifest.json";
    public static final String JOURNAL = "journal";
    public static final String BYTES = "bytes";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final Path dir;
    private final Manifest manifest;
    private final Set<Integer> done;

    private Quarantine(Path dir, Manifest manifest, Set<Integer> done) {
        this.dir = dir;
        this.manifest = manifest;
        this.done = done;
    }

    /**
     * Opens and checks a quarantine directory. The path given is followed once to its real path; from there nothing
     * is followed. Refuses ({@link Confinement.Damaged}, one line) a manifest that does not parse, is inconsistent
     * (an operation's removed bytes not covered by its entries, copies in {@code bytes/} no entry names), names any
     * path outside the partition directory, its fence directories and the quarantine's {@code bytes/} and
     * {@code new/}, or a journal line segtool does not write.
     */
    public static Quarantine open(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            abs = abs.toRealPath();
        }
        byte[] json;
        try {
            json = Files.readAllBytes(abs.resolve(MANIFEST));
        } catch (NoSuchFileException e) {
            throw new IOException(abs + ": not a quarantine directory (no " + MANIFEST + ")", e);
        }
        Manifest manifest;
        try {
            manifest = Manifest.parse(json);
        } catch (IOException | RuntimeException e) {
            throw new Confinement.Damaged(abs.resolve(MANIFEST), unparsed(e, json.length));
        }
        Set<Integer> done = readJournal(abs, manifest);
        validate(abs, manifest, done);
        return new Quarantine(abs, manifest, done);
    }

    /**
     * Why a manifest does not parse, with the byte where the parser stopped: "does not parse at byte 900 of 900 (cut
     * short?): Unexpected end-of-input ...". Jackson's own message repeats the location over several lines; its
     * first line without it is the reason.
     */
    private static String unparsed(Exception e, int length) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        String at = "";
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            why = j.getOriginalMessage() == null ? why : j.getOriginalMessage();
            long byteAt = j.getLocation() == null ? -1 : j.getLocation().getByteOffset();
            if (byteAt >= 0) {
                at = " at byte " + byteAt + " of " + length + (byteAt >= length ? " (cut short?)" : "");
            }
        }
        return "does not parse" + at + ": " + why.lines().findFirst().orElse(why);
    }

    private static void validate(Path dir, Manifest m, Set<Integer> done) throws IOException {
        String partition;
        try {
            partition = partitionOf(dir).getFileName().toString();
        } catch (IllegalArgumentException e) {
            throw new Confinement.Damaged(dir, e.getMessage());
        }
        Confinement.directoryOrAbsent(partitionOf(dir));
        if (!Files.isDirectory(partitionOf(dir), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new Confinement.Damaged(dir, "its partition directory " + partitionOf(dir) + " does not exist");
        }
        if (!List.of(Manifest.APPLYING, Manifest.COMPLETE, Manifest.RESTORED).contains(m.state())) {
            throw new Confinement.Damaged(dir, "state " + m.state() + " is not one segtool writes");
        }
        if (m.operations() == null || m.entries() == null) {
            throw new Confinement.Damaged(dir, "operations or entries missing");
        }
        for (String sub : List.of(BYTES, Planner.NEW_CONTENTS)) {
            java.nio.file.attribute.BasicFileAttributes a = Confinement.stat(dir.resolve(sub));
            if (a == null || !a.isDirectory()) {
                throw new Confinement.Damaged(dir, sub + "/ is " + (a == null ? "missing" : Confinement.kind(a)));
            }
        }
        Set<String> contents = new HashSet<>();
        List<RepairOp> ops = m.operations();
        for (int i = 0; i < ops.size(); i++) {
            RepairOp op = ops.get(i);
            if (op == null || op.seq() != i) {
                throw new Confinement.Damaged(dir, "operation " + i + " is missing or out of order");
            }
            for (String name : partitionFiles(op)) {
                if (!Confinement.isName(name)) {
                    throw new Confinement.Damaged(dir, "operation " + i + " names " + quote(name)
                            + ", which is not a file directly inside " + partition);
                }
            }
            if (op instanceof RepairOp.Fence f && (!Confinement.isName(f.directory())
                    || !f.directory().startsWith(partition + ".fenced.")
                    || segtool.formats.naming.SegmentFiles.fenceNumber(f.directory()) < 0)) {
                throw new Confinement.Damaged(dir, "operation " + i + " names the fence directory "
                        + quote(f.directory()) + ", which is not " + partition + ".fenced.<n> beside the partition");
            }
            String content = op instanceof RepairOp.StageIndex s ? s.content()
                    : op instanceof RepairOp.InstallIndex n ? n.content() : null;
            if (content != null) {
                if (!Confinement.isIn(Planner.NEW_CONTENTS, content)) {
                    throw new Confinement.Damaged(dir, "operation " + i + " reads " + quote(content)
                            + ", which is not a file in " + Planner.NEW_CONTENTS + "/");
                }
                java.nio.file.attribute.BasicFileAttributes a = Confinement.stat(dir.resolve(content));
                if (a == null || !a.isRegularFile()) {
                    throw new Confinement.Damaged(dir, content + " is " + (a == null ? "missing"
                            : Confinement.kind(a)));
                }
                contents.add(content);
            }
        }
        Set<String> copies = new HashSet<>();
        for (QuarantineEntry e : m.entries()) {
            if (e == null || e.op() < 0 || e.op() >= ops.size()) {
                throw new Confinement.Damaged(dir, "an entry belongs to no operation");
            }
            if (!Confinement.isIn(BYTES, e.copy()) || !copies.add(e.copy())) {
                throw new Confinement.Damaged(dir, "entry " + e.id() + " names the copy " + quote(e.copy())
                        + ", which is not a file of its own in " + BYTES + "/");
            }
            java.nio.file.attribute.BasicFileAttributes a = Confinement.stat(dir.resolve(e.copy()));
            if (a == null || !a.isRegularFile()) {
                throw new Confinement.Damaged(dir, e.copy() + " is " + (a == null ? "missing" : Confinement.kind(a)));
            }
            if (!partitionFiles(ops.get(e.op())).contains(e.file())) {
                throw new Confinement.Damaged(dir, "entry " + e.id() + " names " + quote(e.file())
                        + ", which its operation does not change");
            }
        }
        for (RepairOp op : ops) {
            for (long[] range : removed(op)) {
                String file = op instanceof RepairOp.Fence f && range[2] == 1 ? f.index() : op.file();
                long at = range[0];
                for (QuarantineEntry e : m.entries()) {
                    if (e.op() != op.seq() || !e.file().equals(file)) {
                        continue;
                    }
                    if (e.offset() != at || e.length() <= 0 || e.originalLength() != range[3]) {
                        throw new Confinement.Damaged(dir, "the entries of operation " + op.seq() + " ("
                                + op.kind() + " " + file + ") do not cover the bytes it removes");
                    }
                    at = e.end();
                }
                if (at != range[1]) {
                    throw new Confinement.Damaged(dir, "the entries of operation " + op.seq() + " (" + op.kind()
                            + " " + file + ") cover [" + range[0] + ", " + at + ") of the removed [" + range[0] + ", "
                            + range[1] + ")");
                }
            }
        }
        for (String sub : List.of(BYTES, Planner.NEW_CONTENTS)) {
            Set<String> known = sub.equals(BYTES) ? copies : contents;
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir.resolve(sub))) {
                for (Path p : s) {
                    if (!known.contains(sub + "/" + p.getFileName())) {
                        throw new Confinement.Damaged(dir, sub + "/" + p.getFileName() + " is named by no entry of "
                                + MANIFEST + " (was an operation removed from it?)");
                    }
                }
            }
        }
        int expectDone = 0;
        while (done.contains(expectDone)) {
            expectDone++;
        }
        if (done.size() != expectDone) {
            throw new Confinement.Damaged(dir, "the journal records operations out of order: " + done);
        }
    }

    /** The partition files an operation reads or changes, by name. */
    static List<String> partitionFiles(RepairOp op) {
        List<String> out = new ArrayList<>();
        out.add(op.file());
        if (op instanceof RepairOp.Fence f) {
            out.add(f.index());
        } else if (op instanceof RepairOp.InstallIndex i) {
            out.add(i.staging());
        }
        return out;
    }

    /** {from, to, which (0 the file, 1 a fence's index), original length} of each range an operation removes. */
    private static List<long[]> removed(RepairOp op) {
        if (op instanceof RepairOp.Delete d) {
            return List.of(new long[]{0, d.length(), 0, d.length()});
        }
        if (op instanceof RepairOp.Fence f) {
            List<long[]> out = new ArrayList<>();
            out.add(new long[]{0, f.logExisted() ? f.logBytes() : 0, 0, f.logBytes()});
            out.add(new long[]{0, f.indexExisted() ? f.indexBytes() : 0, 1, f.indexBytes()});
            return out;
        }
        if (op instanceof RepairOp.TruncateLog t) {
            return List.of(new long[]{t.to(), t.from(), 0, t.from()});
        }
        if (op instanceof RepairOp.TruncateIndex t) {
            return List.of(new long[]{t.to(), t.from(), 0, t.from()});
        }
        if (op instanceof RepairOp.InstallIndex i) {
            return List.of(new long[]{0, i.existed() ? i.from() : 0, 0, i.from()});
        }
        return List.of();
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s.replace("\n", "\\n") + "\"";
    }

    public static boolean isQuarantineName(String name) {
        return name.contains(MARKER);
    }

    public static boolean hasManifest(Path dir) {
        return Files.isRegularFile(dir.resolve(MANIFEST));
    }

    /** {@code <p>.segtool-quarantine.<stamp>} for a partition directory {@code <p>}. */
    static Path directoryFor(Path partition, Instant now, int attempt) {
        Path abs = partition.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + MARKER + STAMP.format(now) + (attempt == 0 ? "" : "-" + attempt));
    }

    /** The partition directory a quarantine directory sits beside. */
    public static Path partitionOf(Path quarantine) {
        Path abs = quarantine.toAbsolutePath().normalize();
        String name = abs.getFileName().toString();
        int at = name.indexOf(MARKER);
        if (at <= 0) {
            throw new IllegalArgumentException(abs + ": not named <partition>" + MARKER + "<time>");
        }
        return abs.resolveSibling(name.substring(0, at));
    }

    /** Every quarantine directory of {@code partition}, oldest first. */
    public static List<Path> of(Path partition) throws IOException {
        Path abs = partition.toAbsolutePath().normalize();
        List<Path> out = new ArrayList<>();
        Path parent = abs.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return out;
        }
        String prefix = abs.getFileName() + MARKER;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(parent)) {
            for (Path p : s) {
                if (p.getFileName().toString().startsWith(prefix) && Files.isDirectory(p)) {
                    out.add(p);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Sequence numbers of the operations the journal records as finished. A torn last line (no newline: a crash while
     * appending) is ignored; any other line that is not {@code done <seq> <kind>} of an operation of the manifest
     * makes the quarantine unusable.
     */
    static Set<Integer> readJournal(Path dir, Manifest m) throws IOException {
        Set<Integer> done = new HashSet<>();
        byte[] raw;
        try {
            raw = Files.readAllBytes(dir.resolve(JOURNAL));
        } catch (NoSuchFileException e) {
            return done;
        }
        String text = new String(raw, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return done;
        }
        int lineNo = 0;
        for (String line : text.substring(0, end).split("\n", -1)) {
            lineNo++;
            String[] parts = line.split(" ", -1);
            Integer seq = null;
            if (parts.length == 3 && parts[0].equals("done") && parts[1].matches("[0-9]{1,9}")) {
                seq = Integer.parseInt(parts[1]);
            }
            if (seq == null || m.operations() == null || seq >= m.operations().size()
                    || m.operations().get(seq) == null || !m.operations().get(seq).kind().equals(parts[2])) {
                throw new Confinement.Damaged(dir, JOURNAL + " line " + lineNo + " is not one segtool writes for "
                        + "this plan: " + quote(line.length() > 60 ? line.substring(0, 60) + "..." : line));
            }
            done.add(seq);
        }
        return done;
    }

    public Path directory() {
        return dir;
    }

    public Manifest manifest() {
        return manifest;
    }

    public Path partition() {
        return partitionOf(dir);
    }

    public boolean isDone(int seq) {
        return done.contains(seq);
    }

    /** True when the plan was committed but not every operation finished. */
    public boolean unfinished() {
        return Manifest.APPLYING.equals(manifest.state());
    }

    /**
     * True if operation {@code seq} may have changed files: it finished, or it is the first unfinished one (the one
     * a crash interrupted). Operations run strictly in order, so later ones have not touched anything.
     */
    public boolean touched(int seq) {
        if (done.contains(seq)) {
            return true;
        }
        for (RepairOp op : manifest.operations()) {
            if (!done.contains(op.seq())) {
                return op.seq() == seq;
            }
        }
        return false;
    }

    public List<QuarantineEntry> entriesOf(int seq) {
        List<QuarantineEntry> out = new ArrayList<>();
        for (QuarantineEntry e : manifest.entries()) {
            if (e.op() == seq) {
                out.add(e);
            }
        }
        return out;
    }

    public List<QuarantineEntry> entriesOf(int seq, String file) {
        List<QuarantineEntry> out = new ArrayList<>();
        for (QuarantineEntry e : entriesOf(seq)) {
            if (e.file().equals(file)) {
                out.add(e);
            }
        }
        return out;
    }

    public Path copy(QuarantineEntry e) {
        return dir.resolve(e.copy());
    }

    /** The file a new content was written to (read it through a bounded window, not {@link #content}). */
    public Path contentFile(String relative) {
        return dir.resolve(relative);
    }
}
