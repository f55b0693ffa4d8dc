package segtool.formats.metadata;

import java.io.IOException;
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
        FixedFile f = FixedFile.read(partitionDir.resolve(FILE), 8);
        if (f.bytes() == null) {
            return new Value(f.present(), 0, f.length());
        }
        return new Value(true, LittleEndian.u64(f.bytes(), 0), 8);
    }
}
