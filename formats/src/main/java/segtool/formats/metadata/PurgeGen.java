package segtool.formats.metadata;

import java.io.IOException;
import java.nio.file.Path;
import segtool.formats.io.LittleEndian;

/**
 * A partition's {@code purge.gen} (FORMAT 7): two u64 LE values, the purge generation the partition has applied and
 * the partition's {@code created_revision}, without a checksum. Any length other than 16 bytes is reported, not read.
 */
public final class PurgeGen {
    public static final String FILE = "purge.gen";

    /** What the file holds: absent, the two values, or a length other than 16 (values then 0). */
    public record Value(boolean present, long applied, long createdRevision, long length) {
        public boolean valid() {
            return present && length == 16;
        }
    }

    private PurgeGen() {
    }

    public static Value read(Path partitionDir) throws IOException {
        FixedFile f = FixedFile.read(partitionDir.resolve(FILE), 16);
        if (f.bytes() == null) {
            return new Value(f.present(), 0, 0, f.length());
        }
        return new Value(true, LittleEndian.u64(f.bytes(), 0), LittleEndian.u64(f.bytes(), 8), 16);
    }
}
