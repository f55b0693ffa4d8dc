package segtool.analyzers.layout;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import segtool.formats.io.U64;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * What a PATH argument names, classified from the whole layout: a data directory ({@code <system>/streams/...}), a
 * folder of data directories (a crash-dump folder, the sample gallery: every {@code streams/} a few levels down), a
 * partition directory, or one segment file.
 *
 * <p>A directory is a partition when it holds segment files ({@code <start offset>.log} or {@code .index}; a server
 * log such as {@code iggy-server.log} is not one) or sits where the server keeps partitions; a directory that holds
 * neither but has data directories below it is a folder of them, whatever else lies beside them.
 *
 * <p>Partitions of a data directory are found at {@code streams/<s>/topics/<t>/partitions/<p>}, where each of
 * {@code <s>}, {@code <t>}, {@code <p>} is a numeric id. Fence directories ({@code <p>.fenced.<n>}) and repair
 * quarantines ({@code <p>.segtool-quarantine.<time>}) are segtool's and the server's own and are passed over
 * silently; any other directory there ({@code 1.bak}, {@code backup}, {@code .snapshot}) is no stream, topic or
 * partition the server loads: it is skipped, and {@link #skipped()} holds one line naming it, so that a run over a
 * data directory never aborts for one stray entry.
 */
public record Targets(Kind kind, Path path, List<PartitionPath> partitions, Long segment, List<String> skipped) {
    public enum Kind { DATA_DIRECTORY, PARTITION, SEGMENT }

    /** In the names of repair quarantine directories, {@code <p>.segtool-quarantine.<time>}, beside partitions. */
    public static final String QUARANTINE_MARKER = ".segtool-quarantine.";

    /** Thrown when PATH is none of the above; the message is one line naming the path. */
    public static final class NotATarget extends IOException {
        public NotATarget(String message) {
            super(message);
        }
    }

    public Targets {
        partitions = List.copyOf(partitions);
        skipped = List.copyOf(skipped);
    }

    /**
     * "{@code <path>: no such file or directory}", and, when the name holds U+FFFD, why: a name whose bytes are not
     * valid in the locale's encoding reaches Java with each bad byte replaced, so the file asked for is not the one
     * on disk. A directory above it still works (names read from a listing keep their bytes).
     */
    public static String noSuchFile(Object path) {
        String p = String.valueOf(path);
        return p + ": no such file or directory" + (p.indexOf('\uFFFD') < 0 ? "" : " (the name as segtool received "
                + "it has U+FFFD where bytes not valid in the locale's encoding were: Java cannot open such a name "
                + "from the command line; name a directory above it, or rename it)");
    }

    /**
     * Why {@code path} names nothing to open, in one line with the operating system's reason: nothing there
     * ({@link #noSuchFile}), a symlink loop or a parent that is a file ({@link NotATarget}: PATH names nothing segtool
     * can open), or a directory on the way the user may not search (an I/O error, not a bad argument).
     */
    public static IOException unreachable(Path path) {
        IOException why = segtool.formats.io.OsReason.statFailure(path);
        if (why == null || why instanceof java.nio.file.NoSuchFileException) {
            return new NotATarget(noSuchFile(path));
        }
        String line = segtool.formats.io.OsReason.line(path, why);
        return why instanceof java.nio.file.AccessDeniedException ? new IOException(line, why) : new NotATarget(line);
    }

    public static Targets resolve(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw unreachable(path);
        }
        if (Files.isRegularFile(path)) {
            String name = path.getFileName().toString();
            String ext = SegmentFiles.extensionOf(name);
            Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(name));
            if (!(ext.equals("log") || ext.equals("index")) || start == null) {
                throw new NotATarget(path + ": not a segment file (expected <start offset>.log or .index)");
            }
            Path dir = path.toAbsolutePath().getParent();
            return new Targets(Kind.SEGMENT, path, List.of(PartitionPath.of(dir)), start, List.of());
        }
        if (!Files.isDirectory(path)) {
            throw new NotATarget(segtool.formats.io.RegularFile.refusal(path));
        }
        if (!Files.isReadable(path) || !Files.isExecutable(path)) {
            throw new java.nio.file.AccessDeniedException(path.toString());
        }
        List<String> skipped = new ArrayList<>();
        Path streams = path.resolve(PartitionPath.STREAMS);
        if (Files.isDirectory(streams)) {
            return new Targets(Kind.DATA_DIRECTORY, path, discover(streams, skipped), null, skipped);
        }
        if (path.getFileName() != null && path.getFileName().toString().equals(PartitionPath.STREAMS)) {
            return new Targets(Kind.DATA_DIRECTORY, path, discover(path, skipped), null, skipped);
        }
        if (holdsSegments(path) || PartitionPath.of(path).hasPartitionId()) {
            return new Targets(Kind.PARTITION, path, List.of(PartitionPath.of(path)), null, List.of());
        }
        List<PartitionPath> nested = new ArrayList<>();
        int found = findDataDirectories(path, 0, nested, skipped);
        if (found == 0) {
            throw new NotATarget(path + ": neither a partition (no <start offset>.log or .index files, name not a "
                    + "partition id) nor a data directory (no streams/ below it)");
        }
        return new Targets(Kind.DATA_DIRECTORY, path, nested, null, skipped);
    }

    /**
     * The partitions whose stream, topic and partition ids are in the given sets (an empty set: any); the same kind
     * and path. Throws {@link NotATarget} naming what there is when nothing matches.
     */
    public Targets select(Set<Long> streams, Set<Long> topics, Set<Long> partitionIds) throws NotATarget {
        if (streams.isEmpty() && topics.isEmpty() && partitionIds.isEmpty()) {
            return this;
        }
        List<PartitionPath> out = new ArrayList<>();
        for (PartitionPath p : partitions) {
            if ((streams.isEmpty() || streams.contains(p.streamId()))
                    && (topics.isEmpty() || topics.contains(p.topicId()))
                    && (partitionIds.isEmpty() || partitionIds.contains(p.partitionId()))) {
                out.add(p);
            }
        }
        if (out.isEmpty()) {
            StringJoiner have = new StringJoiner(", ");
            for (int i = 0; i < Math.min(8, partitions.size()); i++) {
                PartitionPath p = partitions.get(i);
                have.add("s" + id(p.streamId()) + "/t" + id(p.topicId()) + "/p" + id(p.partitionId()));
            }
            throw new NotATarget(path + ": no partition matches the selection (" + partitions.size()
                    + " partition(s): " + have + (partitions.size() > 8 ? ", ..." : "") + ")");
        }
        return new Targets(kind, path, out, segment, skipped);
    }

    private static String id(long v) {
        return v < 0 ? "?" : U64.str(v);
    }

    private static final int SEARCH_DEPTH = 4;

    /**
     * Collections of data directories (a crash-dump folder, the sample gallery): every streams/ a few levels down.
     * Returns how many were found.
     */
    private static int findDataDirectories(Path dir, int depth, List<PartitionPath> out, List<String> skipped)
            throws IOException {
        int found = 0;
        for (Path sub : sortedDirs(dir)) {
            if (sub.getFileName().toString().equals(PartitionPath.STREAMS)) {
                out.addAll(discover(sub, skipped));
                found++;
            } else if (depth < SEARCH_DEPTH) {
                found += findDataDirectories(sub, depth + 1, out, skipped);
            }
        }
        return found;
    }

    /** True when {@code dir} holds a segment file: {@code <start offset>.log} or {@code .index}. */
    private static boolean holdsSegments(Path dir) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir,
                SegmentFiles.endingIn(SegmentFiles.LOG, SegmentFiles.INDEX))) {
            for (Path p : s) {
                if (SegmentFiles.startOffsetOf(SegmentFiles.stemOf(p.getFileName().toString())) != null) {
                    return true;
                }
            }
            return false;
        }
    }

    private static List<PartitionPath> discover(Path streams, List<String> skipped) throws IOException {
        List<PartitionPath> out = new ArrayList<>();
        for (Path stream : ids(streams, "stream", skipped)) {
            Path topics = stream.resolve(PartitionPath.TOPICS);
            for (Path topic : ids(topics, "topic", skipped)) {
                Path partitions = topic.resolve(PartitionPath.PARTITIONS);
                for (Path partition : ids(partitions, "partition", skipped)) {
                    out.add(PartitionPath.of(partition));
                }
            }
        }
        return out;
    }

    /** The numerically named directories of {@code dir}, in order; the others are noted in {@code skipped}. */
    private static List<Path> ids(Path dir, String what, List<String> skipped) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : sortedDirs(dir)) {
            String name = p.getFileName().toString();
            if (U64.parse(name) != null && allDigits(name)) {
                out.add(p);
            } else if (what.equals("partition")
                    && (SegmentFiles.fenceNumber(name) >= 0 || name.contains(QUARANTINE_MARKER))) {
                continue;
            } else {
                skipped.add(p + ": not a " + what + " directory (the name is not a numeric " + what
                        + " id); skipped");
            }
        }
        return out;
    }

    private static List<Path> sortedDirs(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path p : s) {
                out.add(p);
            }
        }
        out.sort((a, b) -> compareNames(a.getFileName().toString(), b.getFileName().toString()));
        return out;
    }

    /** Numeric names in numeric order, then the rest by name. */
    static int compareNames(String a, String b) {
        boolean an = !a.isEmpty() && a.length() < 19 && allDigits(a);
        boolean bn = !b.isEmpty() && b.length() < 19 && allDigits(b);
        if (an && bn) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        if (an != bn) {
            return an ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** Whether every char of {@code s} is a digit ({@link Character#isDigit}); a loop, as sorting calls it often. */
    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
