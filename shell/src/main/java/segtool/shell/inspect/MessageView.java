package segtool.shell.inspect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import segtool.formats.log.FrameHeader;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

/**
 * One message prepared for display, with every read bounded: at most {@code maxBytes} of the payload are kept for
 * display, user headers are decoded only up to {@link #MAX_HEADER_BYTES}, and an LZ4 payload is decoded only when
 * its compressed form fits one window and its output stays under {@link #MAX_DECOMPRESSED}.
 */
public record MessageView(Frames.Frame frame, long offset, UserHeaders.Decoded headers, String headersProblem,
                          String compression, byte[] shown, long fullLength, boolean decompressed,
                          String decodeProblem) {
    public static final int MAX_HEADER_BYTES = 64 * 1024;
    /** Display cap for decompressed payloads; the example consumer's own cap is 64,000,000 bytes. */
    public static final int MAX_DECOMPRESSED = 16 << 20;

    public FrameHeader header() {
        return frame.header();
    }

    /** True when {@link #shown} holds less than the whole (decoded) payload. */
    public boolean truncated() {
        return shown.length < fullLength;
    }

    public static MessageView read(LogReader log, Frames.Frame f, long offset, int maxBytes) throws IOException {
        FrameHeader h = f.header();
        UserHeaders.Decoded headers = null;
        String headersProblem = null;
        if (h.userHeadersLength() > 0) {
            if (h.userHeadersLength() <= MAX_HEADER_BYTES) {
                headers = UserHeaders.decode(log.read(f.userHeadersPosition(), (int) h.userHeadersLength()));
                headersProblem = headers.problem();
            } else {
                headersProblem = h.userHeadersLength() + " bytes of user headers, too many to decode here";
            }
        }
        String compression = headers == null ? null : Payloads.compression(headers.headers());
        long length = h.payloadLength();
        if ("lz4".equals(compression)) {
            if (length > LogReader.WINDOW) {
                return new MessageView(f, offset, headers, headersProblem, compression,
                        log.read(f.payloadPosition(), (int) Math.min(maxBytes, length)), length, false,
                        "lz4 payload of " + length + " bytes is too large to decode here; shown compressed");
            }
            byte[] packed = log.read(f.payloadPosition(), (int) length);
            try {
                byte[] plain = Payloads.lz4Decompress(packed, MAX_DECOMPRESSED);
                byte[] shown = plain.length > maxBytes ? java.util.Arrays.copyOf(plain, maxBytes) : plain;
                return new MessageView(f, offset, headers, headersProblem, compression, shown, plain.length, true,
                        null);
            } catch (Payloads.DecodeException e) {
                return new MessageView(f, offset, headers, headersProblem, compression,
                        packed.length > maxBytes ? java.util.Arrays.copyOf(packed, maxBytes) : packed, length, false,
                        e.getMessage() + "; shown compressed");
            }
        }
        byte[] shown = log.read(f.payloadPosition(), (int) Math.min(maxBytes, length));
        return new MessageView(f, offset, headers, headersProblem, compression, shown, length, false, null);
    }

    /** {@code key (string) = value (uint32)} for each header. */
    public static String describe(List<UserHeaders.Header> headers) {
        StringBuilder b = new StringBuilder();
        for (UserHeaders.Header h : headers) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(item(h.key())).append(" = ").append(item(h.value()));
        }
        return b.toString();
    }

    private static String item(UserHeaders.Item i) {
        String v = i.display();
        if (i.kind() == segtool.formats.payload.HeaderKind.STRING) {
            v = "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return v + " (" + i.kindName() + ")";
    }

    public static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
