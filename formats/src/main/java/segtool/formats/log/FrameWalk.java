package segtool.formats.log;

import java.nio.ByteBuffer;
import segtool.formats.io.LittleEndian;

/**
 * The frame walk of F 2.4 ("frames tile the blob") over one record held in a buffer. It is the only such loop:
 * {@link RecordVerifier} checks each frame's checksum through it, {@link MessageView#decode} copies each frame's
 * sections, {@link LogCursor#frames} reports each frame's position. The walk checks what F 2.4 checks and nothing
 * else: room for a frame header, the frame's reserved bytes zero, the frame inside the blob, and at the end the
 * number of frames. Allocates nothing; what a frame means is the visitor's business.
 */
final class FrameWalk {
    private FrameWalk() {
    }

    /** Sees each well-formed frame as the walk reaches it, in order. */
    @FunctionalInterface
    interface Visitor<E extends Exception> {
        /**
         * @param index  the frame's index in the batch (0, 1, ...)
         * @param at     where the frame starts in the buffer
         * @param length the frame's length, {@code 48 + payload_length + user_headers_length}; it lies inside the
         *               record
         * @return false to end the walk here
         */
        boolean frame(long index, int at, int length) throws E;
    }

    /**
     * Walks the blob of the record in {@code [at, at + length)} of {@code buf}. {@code length} is what the caller
     * holds, at least the 256 header bytes, whatever the header's {@code batch_length} says; {@code message_count}
     * is read from the header. {@code position} is where the record sits in the log, for the defects.
     *
     * @return null when the blob holds exactly {@code message_count} frames or the visitor ended the walk;
     *         otherwise {@code FRAME_TRUNCATED}, {@code FRAME_RESERVED_NOT_ZERO} or {@code FRAME_OVERRUNS_BLOB} (the
     *         frames before the broken one were visited), or {@code FRAME_COUNT_MISMATCH} (every frame was visited)
     */
    static <E extends Exception> Defect walk(ByteBuffer buf, int at, long length, long position, Visitor<E> visitor)
            throws E {
        long messageCount = LittleEndian.u32(buf, at + BatchHeader.MESSAGE_COUNT_OFFSET);
        long pos = BatchHeader.LENGTH;
        long frames = 0;
        while (pos < length) {
            int f = (int) (at + pos);
            long left = length - pos;
            if (left < FrameHeader.LENGTH) {
                return Defect.of(Defect.Code.FRAME_TRUNCATED, position + pos, frames, FrameHeader.LENGTH, left);
            }
            long reserved = LittleEndian.u64(buf, f + FrameHeader.RESERVED_OFFSET);
            if (reserved != 0) {
                return Defect.of(Defect.Code.FRAME_RESERVED_NOT_ZERO, position + pos, frames, 0, reserved);
            }
            // Both lengths are u32 in longs: the sum cannot wrap, so a frame claiming 2 x 2^31 bytes overruns.
            long frameLength = FrameHeader.LENGTH + LittleEndian.u32(buf, f + FrameHeader.PAYLOAD_LENGTH_OFFSET)
                    + LittleEndian.u32(buf, f + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
            if (frameLength > left) {
                return Defect.of(Defect.Code.FRAME_OVERRUNS_BLOB, position + pos, frames, position + length,
                        position + pos + frameLength);
            }
            if (!visitor.frame(frames, f, (int) frameLength)) {
                return null;
            }
            frames++;
            pos += frameLength;
        }
        if (frames != messageCount) {
            return Defect.of(Defect.Code.FRAME_COUNT_MISMATCH, position, 0, messageCount, frames);
        }
        return null;
    }
}
