package segtool.analyzers.layout;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;

/**
 * What a PATH argument names: a data directory ({@code <system>/streams/...}), a partition directory, or one segment
 * file. Partitions of a data directory are found at {@code streams/<s>/topics/<t>/partitions/<p>}; fence
 * directories ({@code <p>.fenced.<n>}) and repair quarantines ({@code <p>.segtool-quarantine.<time>}) are not
 * partitions and are skipped.
 */
public record Targets(Kind kind, Path path, List<PartitionPath> partitions, Long segment) {
    public enum Kind { DATA_DIRECTORY, PARTITION, SEGMENT }

    /** In the names of repair quarantine directories, {@code <p>.segtool-quarantine.<time>}, beside partitions. */
    public static final String QUARANTINE_MARKER = ".segtool-quarantine.";

    /** Thrown when PATH is none of the above; the message is one line naming the path. */
    public static final class NotATarget extends IOException {
        public NotATarget(String message) {
            super(message);
        }
    }

    public static Targets resolve(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new NotATarget(path + ": no such file or directory");
        }
        if (Files.isRegularFile(path)) {
            String name = path.getFileName().toString();
            String ext = SegmentFiles.extensionOf(name);
            Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(name));
            if (!(ext.equals("log") || ext.equals("index")) || start == null) {
                throw new NotATarget(path + ": not a segment file (expected <start offset>.log or .index)");
            }
            Path dir = path.toAbsolutePath().getParent();
            return new Targets(Kind.SEGMENT, path, List.of(PartitionPath.of(dir)), start);
        }
        if (!Files.isDirectory(path)) {
            throw new NotATarget(segtool.formats.io.RegularFile.refusal(path));
        }
        Path streams = path.resolve(PartitionPath.STREAMS);
        if (Files.isDirectory(streams)) {
            return new Targets(Kind.DATA_DIRECTORY, path, discover(streams), null);
        }
        if (path.getFileName() != null && path.getFileName().toString().equals(PartitionPath.STREAMS)) {
            return new Targets(Kind.DATA_DIRECTORY, path, discover(path), null);
        }
        if (holdsSegments(path) || PartitionPath.of(path).partitionId() >= 0) {
            return new Targets(Kind.PARTITION, path, List.of(PartitionPath.of(path)), null);
        }
        List<PartitionPath> nested = new ArrayList<>();
        findDataDirectories(path, 0, nested);
        if (nested.isEmpty()) {
            throw new NotATarget(path + ": neither a partition (no .log files, name not a partition id) nor a data "
                    + "directory (no streams/ below it)");
        }
        return new Targets(Kind.DATA_DIRECTORY, path, nested, null);
    }

    private static final int SEARCH_DEPTH = 4;

    /** Collections of data directories (a crash-dump folder, the sample gallery): every streams/ a few levels down. */
    private static void findDataDirectories(Path dir, int depth, List<PartitionPath> out) throws IOException {
        for (Path sub : sortedDirs(dir)) {
            if (sub.getFileName().toString().equals(PartitionPath.STREAMS)) {
                out.addAll(discover(sub));
            } else if (depth < SEARCH_DEPTH) {
                findDataDirectories(sub, depth + 1, out);
            }
        }
    }

    private static boolean holdsSegments(Path dir) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.{log,index}")) {
            return s.iterator().hasNext();
        }
    }

    private static List<PartitionPath> discover(Path streams) throws IOException {
        List<PartitionPath> out = new ArrayList<>();
        for (Path stream : sortedDirs(streams)) {
            Path topics = stream.resolve(PartitionPath.TOPICS);
            for (Path topic : sortedDirs(topics)) {
                Path partitions = topic.resolve(PartitionPath.PARTITIONS);
                for (Path partition : sortedDirs(partitions)) {
                    String name = partition.getFileName().toString();
                    if (SegmentFiles.fenceNumber(name) >= 0 || name.contains(QUARANTINE_MARKER)) {
                        continue;
                    }
                    out.add(PartitionPath.of(partition));
                }
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
        boolean an = !a.isEmpty() && a.chars().allMatch(Character::isDigit) && a.length() < 19;
        boolean bn = !b.isEmpty() && b.chars().allMatch(Character::isDigit) && b.length() < 19;
        if (an && bn) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        if (an != bn) {
            return an ? -1 : 1;
        }
        return a.compareTo(b);
    }
}
