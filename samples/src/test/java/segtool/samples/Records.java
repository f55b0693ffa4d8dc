package segtool.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/** Test helpers over a log's bytes: verify the record at a position, read its header. */
final class Records {
    private Records() {
    }

    /** Verifies the record at {@code pos} using its own claimed length; null when it verifies. */
    static Defect verifyAt(byte[] log, int pos) throws IOException {
        long length = LittleEndian.u64(log, pos + BatchHeader.BATCH_LENGTH_OFFSET);
        assertTrue(pos + length <= log.length, () -> "record at " + pos + " runs past the log");
        try (RecordVerifier verifier = new RecordVerifier()) {
            return verifier.verify(ByteBuffer.wrap(log), pos, length, pos);
        }
    }

    static BatchHeader header(byte[] log, int pos) {
        return BatchHeader.read(ByteBuffer.wrap(log), pos);
    }
}
