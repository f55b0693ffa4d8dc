package segtool.formats.metadata;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import segtool.formats.io.LittleEndian;

/** A partition's {@code created.revision}: exactly 8 bytes, u64 LE, the incarnation (METADATA 1.1, 2.6.2). */
public final class CreatedRevision {
    public static final String FILE = "created.revision";

    /** What the file holds: absent, the value, or a length other than 8. */
    public record Value(boolean present, long revision, long length) {
        public boolean valid() {
            return present && length == 8;
        }
    }

    private CreatedRevision() {
    }

    public static Value read(Path partitionDir) throws IOException {
        Path f = partitionDir.resolve(FILE);
        try {
            long size = Files.size(f);
            if (size != 8) {
                return new Value(true, 0, size);
            }
            return new Value(true, LittleEndian.u64(Files.readAllBytes(f), 0), 8);
        } catch (NoSuchFileException e) {
            return new Value(false, 0, 0);
        }
    }
}
