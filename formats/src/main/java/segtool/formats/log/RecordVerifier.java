package segtool.formats.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;

/**
 * Record verification exactly as F 2.5: the header decodes, frames tile the blob with exactly
 * {@code message_count} frames, every per-message XXH3 matches as its frame is reached, and the batch XXH3 over
 * the header meta and the stored frame checksums matches. One verifier per thread; it reuses its buffers.
 */
public final class RecordVerifier implements Closeable {
    private final Cover cover = new Cover();
    private final FrameCheck frameCheck = new FrameCheck(cover);

    /**
     * Verifies the {@code length} bytes at {@code at} in {@code buf}, which hold a whole record claimed to be
     * {@code length} bytes long. {@code position} is where the record sits in the log, for the report.
     *
     * @return null if the record verifies, otherwise the first defect met
     */
    public Defect verify(ByteBuffer buf, int at, long length, long position) throws IOException {
        if (length < BatchHeader.LENGTH) {
            return Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, length);
        }
        Defect header = BatchHeader.check(buf, at, position);
        if (header != null) {
            return header;
        }
        long claimed = LittleEndian.u64(buf, at + BatchHeader.BATCH_LENGTH_OFFSET);
        if (claimed != length) {
            return Defect.of(Defect.Code.RUNS_PAST_EOF, position, 0, length, claimed);
        }
        long messageCount = LittleEndian.u32(buf, at + BatchHeader.MESSAGE_COUNT_OFFSET);
        cover.reset();
        cover.putLong(LittleEndian.u64(buf, at + BatchHeader.PARTITION_ID_OFFSET));
        cover.putLong(LittleEndian.u64(buf, at + BatchHeader.BASE_OFFSET_OFFSET));
        cover.putLong(LittleEndian.u64(buf, at + BatchHeader.BASE_TIMESTAMP_OFFSET));
        cover.putLong(LittleEndian.u64(buf, at + BatchHeader.ORIGIN_TIMESTAMP_OFFSET));
        cover.putLong(claimed);
        cover.putInt((int) messageCount);

        Defect defect = frameCheck.walk(buf, at, length, position);
        if (defect != null) {
            return defect;
        }
        long stored = LittleEndian.u64(buf, at + BatchHeader.CHECKSUM_OFFSET);
        long computed = cover.hash();
        if (stored != computed) {
            return Defect.of(Defect.Code.BATCH_CHECKSUM_MISMATCH, position, 0, stored, computed);
        }
        return null;
    }

    /**
     * Step 2 of F 2.5: walks the frames ({@link FrameWalk}), compares each stored checksum with the frame's bytes as
     * the frame is reached, and adds it to the cover. One per verifier, so a verify allocates nothing.
     */
    private static final class FrameCheck implements FrameWalk.Visitor<IOException> {
        private final Cover cover;
        private ByteBuffer buf;
        private int at;
        private long position;
        private Defect mismatch;

        FrameCheck(Cover cover) {
            this.cover = cover;
        }

        /** The first frame defect or checksum mismatch of the record at {@code at}, or null. */
        Defect walk(ByteBuffer buf, int at, long length, long position) throws IOException {
            this.buf = buf;
            this.at = at;
            this.position = position;
            this.mismatch = null;
            try {
                Defect frames = FrameWalk.walk(buf, at, length, position, this);
                return mismatch != null ? mismatch : frames;
            } finally {
                this.buf = null;   // it may be a mapping the caller is about to unmap
            }
        }

        @Override
        public boolean frame(long index, int f, int length) throws IOException {
            long stored = LittleEndian.u64(buf, f + FrameHeader.CHECKSUM_OFFSET);
            long computed = Xxh3.hash(buf, f + FrameHeader.ID_OFFSET, length - FrameHeader.ID_OFFSET);
            if (stored != computed) {
                mismatch = Defect.of(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, position + (f - at), index, stored,
                        computed);
                return false;
            }
            cover.putLong(stored);
            return true;
        }
    }

    /**
     * Verify(p, n) of RECOVERY.md 2.3: true iff {@code p + n <= L} and the {@code n} bytes at {@code p} pass
     * record verification. Records up to the window's size are read into it; a larger one is mapped for the
     * duration of the check and unmapped at once. {@code n} is unsigned; past the end of the log it is
     * {@code RUNS_PAST_EOF}, and a present record longer than {@link Integer#MAX_VALUE} (which no buffer can
     * hold) is {@code LENGTH_OVER_MAX}.
     */
    public Defect verify(SegmentChannel log, long position, long length) throws IOException {
        long left = log.size() - position;
        if (position < 0 || position > log.size() || Long.compareUnsigned(length, left) > 0) {
            return Defect.of(Defect.Code.RUNS_PAST_EOF, position, 0, Math.max(0, left), length);
        }
        if (length > Integer.MAX_VALUE) {
            // Only a record recovery's MAXB filter would already have refused gets here; one buffer cannot
            // address it, so it cannot verify.
            return Defect.of(Defect.Code.LENGTH_OVER_MAX, position, 0, Integer.MAX_VALUE, length);
        }
        return log.withRange(position, length, (buf, at) -> verify(buf, at, length, position));
    }

    @Override
    public void close() throws IOException {
        cover.close();
    }
}
