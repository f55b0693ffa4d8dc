package segtool.analyzers.salvage;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import segtool.formats.log.MessageView;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

/**
 * One NDJSON line per message of {@code messages.ndjson} (schema in docs/salvage.md), written for replay through a
 * producer: id, offset ({@code base_offset + offset_delta}), timestamp ({@code origin_timestamp + timestamp_delta}),
 * the user headers typed, and the payload as the producer meant it (LZ4 decoded when the headers say
 * {@code iggy-compression: lz4}), as UTF-8 text when it is valid UTF-8, else base64.
 *
 * <p>A typed header value is exact: integers up to 32 bits and {@code bool} as JSON numbers and booleans, 64- and
 * 128-bit integers as decimal strings, floats as JSON numbers (non-finite ones as strings), strings as text. Where
 * the stored bytes have no exact typed form (a value of the wrong size, a string that is not UTF-8, a NaN, raw and
 * unknown kinds) the item carries {@code base64} with the stored bytes instead of {@code value}.
 */
public final class MessageLines {
    /** The largest payload or decompressed payload written into a line; larger ones are named, not copied. */
    public static final int MAX_PAYLOAD = Payloads.MAX_DECOMPRESSED;

    private MessageLines() {
    }

    /** Writes one message as a JSON object (the caller ends the line). */
    static void write(JsonGenerator g, long batchId, boolean verified, MessageView m) throws IOException {
        g.writeStartObject();
        g.writeNumberField("batch", batchId);
        g.writeNumberField("index", m.index());
        g.writeStringField("id", m.id());
        u64(g, "offset", m.offset());
        u64(g, "timestamp", m.timestamp());
        g.writeBooleanField("verified", verified);
        g.writeBooleanField("checksum_matches", m.checksumMatches());
        UserHeaders.Decoded headers = m.headers();
        g.writeArrayFieldStart("headers");
        for (UserHeaders.Header h : headers.headers()) {
            g.writeStartObject();
            g.writeFieldName("key");
            item(g, h.key());
            g.writeFieldName("value");
            item(g, h.value());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (headers.problem() != null) {
            g.writeStringField("headers_problem", headers.problem());
            g.writeStringField("headers_base64", Base64.getEncoder().encodeToString(m.userHeaders()));
        }
        String compression = Payloads.compression(headers.headers());
        g.writeStringField("compression", compression == null ? "none" : compression);
        byte[] plain = null;
        String problem = null;
        try {
            plain = m.plainPayload(MAX_PAYLOAD);
        } catch (Payloads.DecodeException e) {
            problem = e.getMessage();
        }
        if (plain == null) {
            g.writeNullField("payload");
            g.writeStringField("payload_problem", problem);
            if (m.payloadComplete()) {
                g.writeStringField("stored_payload_base64", Base64.getEncoder().encodeToString(m.payload()));
            }
        } else {
            String text = utf8(plain);
            g.writeStringField("payload_encoding", text != null ? "utf8" : "base64");
            g.writeFieldName("payload");
            if (text != null) {
                g.writeString(text);
            } else {
                // straight into the generator's buffer: the same text as Base64.getEncoder() (RFC 4648, padded, one
                // line), without a String of it to be scanned for escapes
                g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, plain, 0, plain.length);
            }
        }
        g.writeEndObject();
    }

    private static void u64(JsonGenerator g, String name, long v) throws IOException {
        g.writeFieldName(name);
        if (v >= 0) {
            g.writeNumber(v);
        } else {
            g.writeNumber(new BigInteger(Long.toUnsignedString(v)));
        }
    }

    /** {@code {"kind": "uint32", "value": 7}}, or {@code {"kind": ..., "base64": ...}} where no typed form is exact. */
    static void item(JsonGenerator g, UserHeaders.Item item) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", item.kindName());
        byte[] b = item.bytes();
        HeaderKind k = item.kind();
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        boolean sized = k.size() < 0 || b.length == k.size();
        boolean written = sized;
        if (sized) {
            switch (k) {
                case STRING: {
                    String s = utf8(b);
                    if (s == null) {
                        written = false;
                    } else {
                        g.writeStringField("value", s);
                    }
                    break;
                }
                case BOOL:
                    if (b[0] == 0 || b[0] == 1) {
                        g.writeBooleanField("value", b[0] == 1);
                    } else {
                        written = false;
                    }
                    break;
                case INT8:
                    g.writeNumberField("value", le.get());
                    break;
                case INT16:
                    g.writeNumberField("value", le.getShort());
                    break;
                case INT32:
                    g.writeNumberField("value", le.getInt());
                    break;
                case UINT8:
                    g.writeNumberField("value", le.get() & 0xFF);
                    break;
                case UINT16:
                    g.writeNumberField("value", le.getShort() & 0xFFFF);
                    break;
                case UINT32:
                    g.writeNumberField("value", le.getInt() & 0xFFFFFFFFL);
                    break;
                case INT64:
                case UINT64:
                case INT128:
                case UINT128:
                    g.writeStringField("value", item.display());
                    break;
                case FLOAT32: {
                    float f = le.getFloat();
                    if (Float.isNaN(f)) {
                        written = false;
                    } else if (Float.isInfinite(f)) {
                        g.writeStringField("value", Float.toString(f));
                    } else {
                        g.writeNumberField("value", f);
                    }
                    break;
                }
                case FLOAT64: {
                    double d = le.getDouble();
                    if (Double.isNaN(d)) {
                        written = false;
                    } else if (Double.isInfinite(d)) {
                        g.writeStringField("value", Double.toString(d));
                    } else {
                        g.writeNumberField("value", d);
                    }
                    break;
                }
                default:
                    written = false;
                    break;
            }
        }
        if (!written) {
            if (k == HeaderKind.UNKNOWN) {
                g.writeNumberField("code", item.code());
            }
            g.writeStringField("base64", Base64.getEncoder().encodeToString(b));
        }
        g.writeEndObject();
    }

    /**
     * The bytes as text when they are valid UTF-8, else null. Decoded into a buffer as long as the input (UTF-8 never
     * yields more chars than bytes), so that invalid input, the common case of binary payloads, costs no exception.
     */
    static String utf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(ByteBuffer.wrap(bytes), out, true);
        if (!r.isUnderflow()) {
            return null;
        }
        return decoder.flush(out).isUnderflow() ? out.flip().toString() : null;
    }
}
