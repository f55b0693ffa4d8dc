package segtool.analyzers.archive;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Making a directory's entries durable: the step after a rename that commits a file into it. */
public final class Directories {
    private Directories() {
    }

    /**
     * fsync of {@code dir}. A platform that cannot open a directory for reading is let be (the files themselves
     * were forced); a failing fsync is not: it means the entries may not be on disk, and is thrown.
     */
    public static void force(Path dir) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException cannotOpen) {
            return;
        }
        try (ch) {
            ch.force(true);
        }
    }
}
