package segtool.formats.payload;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The user-headers section of a frame (F 4.1): pairs of TLV items
 * {@code [kind u8][len u32 LE][bytes]}, key then value. Decoding is lenient about order and reports structural
 * problems instead of throwing, since recovery never parses this section and damaged data must still display.
 */
public final class UserHeaders {
    private UserHeaders() {
    }

    /** One typed item: its kind code (unknown codes kept) and raw bytes. */
    public record Item(int code, byte[] bytes) {
        public HeaderKind kind() {
            return HeaderKind.of(code);
        }

        /** A display form: strings as text, numbers in decimal, raw and unknown as hex. */
        public String display() {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            HeaderKind k = kind();
            if (k.size() > 0 && bytes.length != k.size()) {
                return "0x" + HexFormat.of().formatHex(bytes);
            }
            switch (k) {
                case STRING:
                    return new String(bytes, StandardCharsets.UTF_8);
                case BOOL:
                    return bytes[0] == 0 ? "false" : bytes[0] == 1 ? "true" : "0x" + HexFormat.of().formatHex(bytes);
                case INT8:
                    return Byte.toString(b.get());
                case INT16:
                    return Short.toString(b.getShort());
                case INT32:
                    return Integer.toString(b.getInt());
                case INT64:
                    return Long.toString(b.getLong());
                case UINT8:
                    return Integer.toString(b.get() & 0xFF);
                case UINT16:
                    return Integer.toString(b.getShort() & 0xFFFF);
                case UINT32:
                    return Integer.toUnsignedString(b.getInt());
                case UINT64:
                    return Long.toUnsignedString(b.getLong());
                case INT128:
                    return new BigInteger(reverse(bytes)).toString();
                case UINT128:
                    return new BigInteger(1, reverse(bytes)).toString();
                case FLOAT32:
                    return Float.toString(b.getFloat());
                case FLOAT64:
                    return Double.toString(b.getDouble());
                default:
                    return "0x" + HexFormat.of().formatHex(bytes);
            }
        }

        public String kindName() {
            return kind() == HeaderKind.UNKNOWN ? "kind" + code : kind().name().toLowerCase();
        }
    }

    public record Header(Item key, Item value) {
    }

    /** The decoded pairs and, if the section is malformed, why (the pairs read before the problem are kept). */
    public record Decoded(List<Header> headers, String problem) {
    }

    public static Decoded decode(byte[] section) {
        List<Header> out = new ArrayList<>();
        int pos = 0;
        Item pendingKey = null;
        while (pos < section.length) {
            if (section.length - pos < 5) {
                return new Decoded(out, "item at " + pos + " truncated");
            }
            int code = section[pos] & 0xFF;
            long len = ByteBuffer.wrap(section, pos + 1, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
            if (code == 0) {
                return new Decoded(out, "item at " + pos + " has kind 0");
            }
            if (len > section.length - pos - 5) {
                return new Decoded(out, "item at " + pos + " runs past the section (" + len + " bytes)");
            }
            byte[] bytes = new byte[(int) len];
            System.arraycopy(section, pos + 5, bytes, 0, (int) len);
            Item item = new Item(code, bytes);
            pos += 5 + (int) len;
            if (pendingKey == null) {
                pendingKey = item;
            } else {
                out.add(new Header(pendingKey, item));
                pendingKey = null;
            }
        }
        return new Decoded(out, pendingKey == null ? null : "odd number of items (a key without a value)");
    }

    /** Encodes pairs in the order given. */
    public static byte[] encode(List<Header> headers) {
        int size = 0;
        for (Header h : headers) {
            size += 10 + h.key().bytes().length + h.value().bytes().length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (Header h : headers) {
            for (Item i : List.of(h.key(), h.value())) {
                b.put((byte) i.code()).putInt(i.bytes().length).put(i.bytes());
            }
        }
        return b.array();
    }

    public static Item string(String s) {
        return new Item(HeaderKind.STRING.code(), s.getBytes(StandardCharsets.UTF_8));
    }

    public static Item of(HeaderKind kind, byte[] bytes) {
        return new Item(kind.code(), bytes);
    }

    /** The String value for a String key, or null. */
    public static String stringValue(List<Header> headers, String key) {
        for (Header h : headers) {
            if (h.key().code() == HeaderKind.STRING.code()
                    && new String(h.key().bytes(), StandardCharsets.UTF_8).equals(key)
                    && h.value().code() == HeaderKind.STRING.code()) {
                return new String(h.value().bytes(), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static byte[] reverse(byte[] le) {
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return be;
    }
}
