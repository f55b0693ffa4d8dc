package segtool.analyzers.archive;

import java.nio.file.Path;

/** Bytes {@code [offset, offset + length)} of {@code file}: one piece of a file assembled from others. */
public record FileRange(Path file, long offset, long length) {
    public FileRange {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException(file + ": range " + offset + "+" + length);
        }
    }
}
