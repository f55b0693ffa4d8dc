package segtool.analyzers.layout;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import segtool.formats.naming.SegmentFiles;

/** Byte counts for progress reporting; errors count as zero (the engine reports them properly). */
final class Sizes {
    private Sizes() {
    }

    static long logBytes(Path partition) {
        long total = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(partition, SegmentFiles.endingIn(SegmentFiles.LOG))) {
            for (Path p : s) {
                try {
                    total += Files.size(p);
                } catch (IOException ignored) {
                    // counted as 0
                }
            }
        } catch (IOException ignored) {
            // counted as 0
        }
        return total;
    }
}
