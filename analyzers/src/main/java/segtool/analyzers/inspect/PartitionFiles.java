package segtool.analyzers.inspect;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import segtool.analyzers.recovery.ChainGuard;
import segtool.analyzers.recovery.Sweep;
import segtool.formats.naming.SegmentFiles;

/**
 * A partition directory as the inspection commands list it: the segment start offsets and the classification of
 * every entry come from the engine's own sweep (RECOVERY 3), so a listing says what boot does to each file.
 */
public final class PartitionFiles {
    private PartitionFiles() {
    }

    /** Start offsets the sweep reads, deduplicated, ascending (unsigned); a missing directory has none. */
    public static List<Long> starts(Path dir) throws IOException {
        TreeSet<Long> out = new TreeSet<>(Long::compareUnsigned);
        out.addAll(Sweep.of(dir).startOffsets());
        return new ArrayList<>(out);
    }

    /** Every entry of the directory in name order, classified as the sweep classifies it. */
    public static List<Sweep.Entry> classified(Path dir) throws IOException {
        return Sweep.of(dir).entries();
    }

    /**
     * Whether the anchor of segment {@code planted} admits the gap after the sealed segment
     * {@code [sealedStart, sealedEnd]}: pass B's own admission (RECOVERY 5). An anchor that cannot be read admits
     * nothing here (the verdict commands report the I/O error).
     */
    public static boolean anchorAdmits(Path dir, long sealedStart, long sealedEnd, long planted) {
        try {
            return ChainGuard.admits(sealedStart, sealedEnd, planted,
                    ChainGuard.readAnchor(SegmentFiles.anchor(dir, planted)));
        } catch (IOException e) {
            return false;
        }
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
