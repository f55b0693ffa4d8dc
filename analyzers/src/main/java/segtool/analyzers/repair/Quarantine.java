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

    public static Quarantine open(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        byte[] json;
        try {
            json = Files.readAllBytes(abs.resolve(MANIFEST));
        } catch (NoSuchFileException e) {
            throw new IOException(abs + ": not a quarantine directory (no " + MANIFEST + ")", e);
        }
        return new Quarantine(abs, Manifest.parse(json), readJournal(abs));
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

    /** Sequence numbers of the operations the journal records as finished; a torn last line is ignored. */
    static Set<Integer> readJournal(Path dir) throws IOException {
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
        for (String line : text.substring(0, end).split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length >= 2 && parts[0].equals("done")) {
                try {
                    done.add(Integer.parseInt(parts[1]));
                } catch (NumberFormatException ignored) {
                    // not a line segtool writes; ignored like a torn one
                }
            }
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

    public byte[] content(String relative) throws IOException {
        return Files.readAllBytes(dir.resolve(relative));
    }
}
