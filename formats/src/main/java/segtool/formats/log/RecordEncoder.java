package segtool.formats.log;

import java.util.List;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/** Encodes a batch record as the server stores it: stamped header, frames, per-message and batch XXH3 (F 2.5). */
public final class RecordEncoder {
    private RecordEncoder() {
    }

    public static byte[] encode(long partitionId, long baseOffset, long baseTimestamp, long originTimestamp,
                                List<Message> messages) {
        long length = BatchHeader.LENGTH;
        for (Message m : messages) {
            length += m.frameLength();
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("batch of " + length + " bytes is too large to encode in memory");
        }
        byte[] out = new byte[(int) length];
        byte[] cover = new byte[BatchHeader.COVERED_META_LENGTH + 8 * messages.size()];
        int pos = BatchHeader.LENGTH;
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            LittleEndian.putU64(out, pos + FrameHeader.ID_OFFSET, m.idLow());
            LittleEndian.putU64(out, pos + FrameHeader.ID_OFFSET + 8, m.idHigh());
            LittleEndian.putU32(out, pos + FrameHeader.OFFSET_DELTA_OFFSET, i);
            LittleEndian.putU32(out, pos + FrameHeader.TIMESTAMP_DELTA_OFFSET, m.timestampDelta());
            LittleEndian.putU32(out, pos + FrameHeader.USER_HEADERS_LENGTH_OFFSET, m.userHeaders().length);
            LittleEndian.putU32(out, pos + FrameHeader.PAYLOAD_LENGTH_OFFSET, m.payload().length);
            System.arraycopy(m.payload(), 0, out, pos + FrameHeader.LENGTH, m.payload().length);
            System.arraycopy(m.userHeaders(), 0, out, pos + FrameHeader.LENGTH + m.payload().length,
                    m.userHeaders().length);
            long checksum = Xxh3.hash(out, pos + FrameHeader.ID_OFFSET, m.frameLength() - FrameHeader.ID_OFFSET);
            LittleEndian.putU64(out, pos + FrameHeader.CHECKSUM_OFFSET, checksum);
            LittleEndian.putU64(cover, BatchHeader.COVERED_META_LENGTH + 8 * i, checksum);
            pos += m.frameLength();
        }
        BatchHeader header = new BatchHeader(partitionId, baseOffset, baseTimestamp, originTimestamp, length, 0,
                messages.size());
        header.write(out, 0);
        System.arraycopy(out, 0, cover, 0, 40);
        LittleEndian.putU32(cover, 40, messages.size());
        LittleEndian.putU64(out, BatchHeader.CHECKSUM_OFFSET, Xxh3.hash(cover));
        return out;
    }

    /** Recomputes the batch checksum of an encoded record in place (after a header field was edited on purpose). */
    public static void restamp(byte[] record) {
        long count = LittleEndian.u32(record, BatchHeader.MESSAGE_COUNT_OFFSET);
        byte[] cover = new byte[BatchHeader.COVERED_META_LENGTH + 8 * (int) count];
        System.arraycopy(record, 0, cover, 0, 40);
        LittleEndian.putU32(cover, 40, count);
        int pos = BatchHeader.LENGTH;
        for (int i = 0; i < count; i++) {
            LittleEndian.putU64(cover, BatchHeader.COVERED_META_LENGTH + 8 * i, LittleEndian.u64(record, pos));
            pos += FrameHeader.LENGTH + (int) LittleEndian.u32(record, pos + FrameHeader.PAYLOAD_LENGTH_OFFSET)
                    + (int) LittleEndian.u32(record, pos + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
        }
        LittleEndian.putU64(record, BatchHeader.CHECKSUM_OFFSET, Xxh3.hash(cover));
    }
}
