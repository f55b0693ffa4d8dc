package segtool.formats.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.Unmapper;

/**
 * Record verification exactly as F 2.5: the header decodes, frames tile the blob with exactly
 * {@code message_count} frames, every per-message XXH3 matches as its frame is reached, and the batch XXH3 over
 * the header meta and the stored frame checksums matches. One verifier per thread; it reuses its buffers.
 */
public final class RecordVerifier implements Closeable {
    private final Cover cover = new Cover();

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

        long blobEnd = length;
        long pos = BatchHeader.LENGTH;
        long frames = 0;
        while (pos < blobEnd) {
            int f = (int) (at + pos);
            if (blobEnd - pos < FrameHeader.LENGTH) {
                return Defect.of(Defect.Code.FRAME_TRUNCATED, position + pos, frames, FrameHeader.LENGTH,
                        blobEnd - pos);
            }
            long reserved = LittleEndian.u64(buf, f + FrameHeader.RESERVED_OFFSET);
            if (reserved != 0) {
                return Defect.of(Defect.Code.FRAME_RESERVED_NOT_ZERO, position + pos, frames, 0, reserved);
            }
            long body = LittleEndian.u32(buf, f + FrameHeader.PAYLOAD_LENGTH_OFFSET)
                    + LittleEndian.u32(buf, f + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
            long end = pos + FrameHeader.LENGTH + body;
            if (end > blobEnd) {
                return Defect.of(Defect.Code.FRAME_OVERRUNS_BLOB, position + pos, frames, position + blobEnd,
                        position + end);
            }
            long stored = LittleEndian.u64(buf, f + FrameHeader.CHECKSUM_OFFSET);
            long computed = Xxh3.hash(buf, f + FrameHeader.ID_OFFSET, (int) (end - pos - FrameHeader.ID_OFFSET));
            if (stored != computed) {
                return Defect.of(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, position + pos, frames, stored, computed);
            }
            cover.putLong(stored);
            frames++;
            pos = end;
        }
        if (frames != messageCount) {
            return Defect.of(Defect.Code.FRAME_COUNT_MISMATCH, position, 0, messageCount, frames);
        }
        long stored = LittleEndian.u64(buf, at + BatchHeader.CHECKSUM_OFFSET);
        long computed = cover.hash();
        if (stored != computed) {
            return Defect.of(Defect.Code.BATCH_CHECKSUM_MISMATCH, position, 0, stored, computed);
        }
        return null;
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
        if (length <= log.capacity()) {
            int at = log.at(position, (int) length);
            return verify(log.buffer(), at, length, position);
        }
        MappedByteBuffer mapped = log.map(position, length);
        try {
            return verify(mapped, 0, length, position);
        } finally {
            Unmapper.unmap(mapped);
        }
    }

    @Override
    public void close() throws IOException {
        cover.close();
    }
}
