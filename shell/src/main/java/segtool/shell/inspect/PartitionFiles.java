package segtool.shell.inspect;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import segtool.formats.naming.SegmentFiles;

/** The segment start offsets of a partition directory, ascending (unsigned), as the sweep reads them (R 3). */
public final class PartitionFiles {
    private PartitionFiles() {
    }

    /** Start offsets of every {@code .log} whose stem is a u64 decimal, deduplicated, ascending. */
    public static List<Long> starts(Path dir) throws IOException {
        TreeSet<Long> out = new TreeSet<>(Long::compareUnsigned);
        for (Path p : list(dir)) {
            String name = p.getFileName().toString();
            if (SegmentFiles.extensionOf(name).equals("log")) {
                Long s = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(name));
                if (s != null) {
                    out.add(s);
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** The directory's entries sorted by name; a missing directory lists as empty. */
    public static List<Path> list(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                out.add(p);
            }
        } catch (NoSuchFileException missing) {
            return out;
        }
        out.sort(null);
        return out;
    }
}
