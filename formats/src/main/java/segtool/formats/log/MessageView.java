package segtool.formats.log;

import java.nio.ByteBuffer;
import java.util.function.Predicate;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.U64;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

/**
 * One message frame of a batch record, decoded for display (F 2.3, F 2.4).
 *
 * <p>{@code offset} is {@code base_offset + offset_delta} and {@code timestamp} is
 * {@code origin_timestamp + timestamp_delta}, both unsigned and saturating. {@code payload} and
 * {@code userHeaders} are copies of the stored sections cut to the {@code maxCopy} given to {@link #decode}; the
 * full lengths stay in {@link #frame()}. {@code checksumMatches} says whether the stored per-message XXH3 matches
 * the frame's bytes (F 2.5), so a display can mark a damaged message without failing the whole record. Being a
 * record with array components, equality compares the arrays by identity.
 */
public record MessageView(long index, long position, long offset, long timestamp, FrameHeader frame,
                          boolean checksumMatches, byte[] payload, byte[] userHeaders) {

    /** The 128-bit id in unsigned decimal. */
    public String id() {
        return frame.id();
    }

    /** True when {@link #payload()} holds the whole stored payload, not a prefix cut at the copy cap. */
    public boolean payloadComplete() {
        return payload.length == frame.payloadLength();
    }

    /** True when {@link #userHeaders()} holds the whole stored section. */
    public boolean userHeadersComplete() {
        return userHeaders.length == frame.userHeadersLength();
    }

    /**
     * The user headers (F 4.1), decoded leniently. When the section was cut at the copy cap, the pairs of the
     * copied prefix are kept and {@code problem} says so.
     */
    public UserHeaders.Decoded headers() {
        UserHeaders.Decoded decoded = UserHeaders.decode(userHeaders);
        if (userHeadersComplete()) {
            return decoded;
        }
        return new UserHeaders.Decoded(decoded.headers(), "user headers cut at " + userHeaders.length + " of "
                + frame.userHeadersLength() + " bytes for display");
    }

    /**
     * The payload as the producer meant it (F 4.2): LZ4-decompressed, refusing more than {@code cap} bytes, when
     * the user headers name {@code lz4}; the stored bytes when they name {@code none} or nothing.
     *
     * @throws Payloads.DecodeException when either section was cut at the copy cap (the compression, or the
     *                                  payload, is then unknown), the headers name another algorithm, or the
     *                                  payload is not a valid LZ4 frame within {@code cap}
     */
    public byte[] plainPayload(int cap) throws Payloads.DecodeException {
        if (!payloadComplete() || !userHeadersComplete()) {
            throw new Payloads.DecodeException("message cut at " + payload.length + " of " + frame.payloadLength()
                    + " payload and " + userHeaders.length + " of " + frame.userHeadersLength()
                    + " user-header bytes for display");
        }
        String compression = Payloads.compression(headers().headers());
        if (compression == null || compression.equals("none")) {
            return payload;
        }
        if (!compression.equals("lz4")) {
            throw new Payloads.DecodeException("unsupported compression '" + compression + "'");
        }
        return Payloads.lz4Decompress(payload, cap);
    }

    /**
     * Walks the frames of the record held in {@code [at, at + length)} of {@code buf} (header included) and hands
     * each frame to {@code sink}, in order, until the blob is used up, a frame cannot be framed, or the sink
     * returns false. The walk is F 2.4 over a blob of {@code length - 256} bytes, the same walk {@link RecordVerifier}
     * makes: {@code length} is what the caller holds, whatever the header's {@code batch_length} says, and neither
     * the header nor the batch checksum is checked here. {@code position} is where the record sits in the log.
     *
     * <p>Allocation is bounded by what is present, never by a length read from disk: each frame costs one
     * {@link FrameHeader}, one view and at most {@code maxCopy} bytes for each of its two sections.
     *
     * @return null when the blob holds exactly {@code message_count} well-formed frames or the sink stopped the
     *         walk; otherwise the reason the walk failed: {@link Defect.Code#HEADER_TRUNCATED} (fewer than 256
     *         bytes), {@code FRAME_TRUNCATED}, {@code FRAME_RESERVED_NOT_ZERO}, {@code FRAME_OVERRUNS_BLOB} (the
     *         frames before it were delivered), or {@code FRAME_COUNT_MISMATCH} (all frames were delivered)
     */
    public static Defect decode(ByteBuffer buf, int at, int length, long position, int maxCopy,
                                Predicate<MessageView> sink) {
        if (maxCopy < 0) {
            throw new IllegalArgumentException("maxCopy " + maxCopy + " is negative");
        }
        if (length < BatchHeader.LENGTH) {
            return Defect.of(Defect.Code.HEADER_TRUNCATED, position, 0, BatchHeader.LENGTH, Math.max(0, length));
        }
        long baseOffset = LittleEndian.u64(buf, at + BatchHeader.BASE_OFFSET_OFFSET);
        long originTimestamp = LittleEndian.u64(buf, at + BatchHeader.ORIGIN_TIMESTAMP_OFFSET);
        return FrameWalk.walk(buf, at, length, position, (index, f, frameLength) -> {
            FrameHeader header = FrameHeader.read(buf, f);
            int payloadAt = f + FrameHeader.LENGTH;
            int payloadLength = (int) header.payloadLength();
            long computed = Xxh3.hash(buf, f + FrameHeader.ID_OFFSET, frameLength - FrameHeader.ID_OFFSET);
            return sink.test(new MessageView(index, position + (f - at),
                    U64.addSat(baseOffset, header.offsetDelta()), U64.addSat(originTimestamp, header.timestampDelta()),
                    header, computed == header.checksum(),
                    copy(buf, payloadAt, Math.min(payloadLength, maxCopy)),
                    copy(buf, payloadAt + payloadLength, (int) Math.min(header.userHeadersLength(), maxCopy))));
        });
    }

    private static byte[] copy(ByteBuffer buf, int at, int length) {
        byte[] out = new byte[length];
        buf.get(at, out, 0, length);
        return out;
    }
}
