package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * Step 0 of RECOVERY 3: the directory sweep and the segment list. {@link #of(Path)} lists a partition directory and
 * classifies every entry as the server does, without deleting anything: what it deletes, which start offsets it
 * reads, and what it ignores. Symbolic links are not followed when deciding whether an entry is a directory, as the
 * server's {@code remove_file} does not follow them (it unlinks a link to a directory, and fails on a directory,
 * which is only logged).
 */
public final class Sweep {
    /** How the sweep treats one directory entry. */
    public enum Kind {
        /** A {@code .log} whose stem parses as an unsigned 64-bit decimal: it names a segment start offset. */
        SEGMENT_LOG,
        /** A {@code .log} whose stem is not a start offset: the server ignores it. */
        UNNAMED_LOG,
        /** An {@code .index} or {@code .anchor} with a {@code .log} of the same stem beside it: kept. */
        COMPANION,
        /** A name ending in {@code .staging}: scratch, deleted. */
        STAGING,
        /** An {@code .index} or {@code .anchor} with no {@code .log} of the same stem: deleted. */
        ORPHAN,
        /** Anything else, subdirectories included (e.g. {@code offsets/}). */
        IGNORED
    }

    /**
     * One directory entry as the sweep sees it. {@code deleted} is true when the sweep removes it (a STAGING or
     * ORPHAN entry that is not a real directory); {@code startOffset} is set for SEGMENT_LOG entries only.
     */
    public record Entry(Path path, Kind kind, boolean deleted, Long startOffset) {
    }

    private final List<Entry> entries;
    private final List<Long> startOffsets;
    private final List<PlannedOp.Delete> deletions;
    private final List<String> warnings;
    private final Set<Path> deleted;

    private Sweep(List<Entry> entries, List<Long> startOffsets, List<PlannedOp.Delete> deletions,
                  List<String> warnings) {
        this.entries = List.copyOf(entries);
        this.startOffsets = List.copyOf(startOffsets);
        this.deletions = List.copyOf(deletions);
        this.warnings = List.copyOf(warnings);
        Set<Path> d = new HashSet<>();
        for (PlannedOp.Delete op : deletions) {
            d.add(op.path());
        }
        this.deleted = Set.copyOf(d);
    }

    /** A sweep that found nothing and deletes nothing: for reading one segment as it is on disk. */
    static Sweep none() {
        return new Sweep(List.of(), List.of(), List.of(), List.of());
    }

    /**
     * Lists and classifies {@code dir}. A missing directory has no segments (an empty sweep); any other listing
     * failure, a non-directory included, is an I/O error naming the directory. Reads only.
     */
    public static Sweep of(Path dir) throws IOException {
        return of(dir, DirectoryView.AS_IS);
    }

    /**
     * The end of the warning for a {@code .log} or {@code .index} that is a symlink to nothing: the server's stat
     * finds no file (RECOVERY 7.3: "not found" is no error), so it reads an empty log or a missing index there, and
     * the verdict follows from that; the operator is told why.
     */
    public static final String DANGLING = ", which does not exist: the server finds no file under this name and "
            + "reads it as empty";

    /** True for the warning {@link #of} gives a dangling symlink. */
    public static boolean danglingLink(String warning) {
        return warning.endsWith(DANGLING);
    }

    /** The end of the warning for an entry whose name is not valid UTF-8 (skipped, as the server skips it). */
    public static final String NOT_UTF8 = ": the name is not valid UTF-8; the server skips this entry (RECOVERY 3), "
            + "and so does segtool";

    /** A link that leads to no file; a loop or another failure to follow it is not (it is an I/O error). */
    private static boolean dangles(Path link) {
        try {
            Files.readAttributes(link, BasicFileAttributes.class);
            return false;
        } catch (NoSuchFileException nothing) {
            return true;
        } catch (IOException other) {
            return false;
        }
    }

    /** The entry's own attributes (a link's, not its target's); null when it cannot be read (gone, not yet there). */
    private static BasicFileAttributes lstat(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;
        }
    }

    private static String target(Path link) {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return "a path that cannot be read";
        }
    }

    /**
     * As {@link #of(Path)}, over the directory as {@code view} shows it: its removed names are not listed, and a name
     * it reads from another file is listed even when it does not exist yet (RECOVERY 9 step 0, METADATA 6.7).
     */
    public static Sweep of(Path dir, DirectoryView view) throws IOException {
        TreeSet<Path> names = new TreeSet<>();
        List<String> warnings = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir)) {
            for (Path p : listing) {
                if (SegmentFiles.readsAsText(p)) {
                    names.add(p);
                } else {
                    // RECOVERY 3 step 1: the server skips it (no segment, no orphan, no scratch file)
                    warnings.add(p.getFileName().toString().replace('\ufffd', '?') + NOT_UTF8);
                }
            }
        } catch (NoSuchFileException missing) {
            return none();
        } catch (NotDirectoryException notDir) {
            throw IoFailure.raise(dir, IoFailure.LIST, "not a directory");
        } catch (IOException e) {
            throw IoFailure.raise(dir, IoFailure.LIST, e);
        }
        if (!view.asIs()) {
            names.removeIf(view::removes);
            for (String n : view.readAs().keySet()) {
                names.add(dir.resolve(n));
            }
        }
        Set<String> logStems = new HashSet<>();
        for (Path p : names) {
            String name = p.getFileName().toString();
            if (!name.endsWith(SegmentFiles.STAGING) && SegmentFiles.extensionOf(name).equals("log")) {
                logStems.add(SegmentFiles.stemOf(name));
            }
        }
        List<Entry> entries = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        List<PlannedOp.Delete> stagingDeletes = new ArrayList<>();
        List<PlannedOp.Delete> orphanDeletes = new ArrayList<>();
        for (Path p : names) {
            String name = p.getFileName().toString();
            String ext = SegmentFiles.extensionOf(name);
            BasicFileAttributes entry = lstat(p);   // one lstat per entry: what it is, not what a link leads to
            boolean realDirectory = entry != null && entry.isDirectory();
            if ((ext.equals("log") || ext.equals("index")) && !name.endsWith(SegmentFiles.STAGING)
                    && entry != null && entry.isSymbolicLink() && dangles(p)) {
                warnings.add(name + ": a symlink to " + target(p) + DANGLING);
            }
            if (name.endsWith(SegmentFiles.STAGING)) {
                entries.add(new Entry(p, Kind.STAGING, !realDirectory, null));
                if (!realDirectory) {
                    stagingDeletes.add(new PlannedOp.Delete(p, "scratch file (.staging)"));
                }
            } else if (ext.equals("log")) {
                String stem = SegmentFiles.stemOf(name);
                Long start = SegmentFiles.startOffsetOf(stem);
                if (start != null) {
                    entries.add(new Entry(p, Kind.SEGMENT_LOG, false, start));
                    starts.add(start);
                    if (!SegmentFiles.isCanonical(stem)) {
                        warnings.add(name + ": non-canonical segment name; the server reads "
                                + SegmentFiles.stem(start) + ".log instead"
                                + ((view.asIs() ? Files.exists(SegmentFiles.log(dir, start))
                                : names.contains(SegmentFiles.log(dir, start))) ? "" : ", which does not exist"));
                    }
                } else {
                    entries.add(new Entry(p, Kind.UNNAMED_LOG, false, null));
                    warnings.add(name + ": log name is not a start offset; the server ignores it");
                }
            } else if (ext.equals("index") || ext.equals("anchor")) {
                String stem = SegmentFiles.stemOf(name);
                if (logStems.contains(stem)) {
                    entries.add(new Entry(p, Kind.COMPANION, false, null));
                } else {
                    entries.add(new Entry(p, Kind.ORPHAN, !realDirectory, null));
                    if (!realDirectory) {
                        orphanDeletes.add(new PlannedOp.Delete(p, "orphan: no " + stem + ".log beside it"));
                    }
                }
            } else {
                entries.add(new Entry(p, Kind.IGNORED, false, null));
            }
        }
        starts.sort(Long::compareUnsigned);
        for (int i = 1; i < starts.size(); i++) {
            if (starts.get(i).equals(starts.get(i - 1))) {
                warnings.add("start offset " + U64.str(starts.get(i))
                        + " is named by more than one .log file; the server judges the canonical file twice");
            }
        }
        List<PlannedOp.Delete> deletions = new ArrayList<>(stagingDeletes);
        deletions.addAll(orphanDeletes);
        return new Sweep(entries, starts, deletions, warnings);
    }

    /** Every directory entry in name order, with its classification. */
    public List<Entry> entries() {
        return entries;
    }

    /** The start offsets read, ascending (unsigned); duplicates, from non-canonical names, are kept (RECOVERY 3). */
    public List<Long> startOffsets() {
        return startOffsets;
    }

    /** The deletions in the order the sweep performs them: scratch files, then orphans. */
    public List<PlannedOp.Delete> deletions() {
        return deletions;
    }

    /** Names the server reads differently from what they say, or ignores. */
    public List<String> warnings() {
        return warnings;
    }

    /** True when the sweep deletes {@code p}: later steps read it as missing. */
    public boolean deletes(Path p) {
        return deleted.contains(p);
    }
}
