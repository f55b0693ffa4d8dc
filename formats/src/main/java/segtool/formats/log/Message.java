package segtool.formats.log;

/**
 * One message to encode: its 128-bit id (low and high halves), timestamp delta, payload and the encoded user-headers
 * section ({@link segtool.formats.payload.UserHeaders#encode}). The offset delta is its index in the batch.
 */
public record Message(long idLow, long idHigh, long timestampDelta, byte[] payload, byte[] userHeaders) {
    public Message {
        userHeaders = userHeaders == null ? new byte[0] : userHeaders;
    }

    public static Message of(long id, byte[] payload) {
        return new Message(id, 0, 0, payload, new byte[0]);
    }

    public int frameLength() {
        return FrameHeader.LENGTH + payload.length + userHeaders.length;
    }
}
