package segtool.formats.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One stored option entry (METADATA 2.3 {@code ResourceOptions}, 4.6 options TLV): key kind and bytes, value kind
 * and bytes (kinds as F 4.1 codes), and whether the client sent it ({@code explicit}; a TLV block carries no flag,
 * the caller knows which block it read).
 */
public record TopicOption(int keyKind, byte[] key, int valueKind, byte[] value, boolean explicit) {
    public TopicOption {
        key = key.clone();
        value = value.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    /** The key bytes as text, as the server reads option keys whatever their kind (METADATA 3.4 step 3). */
    public String keyText() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /** True when the value is of {@code kind} and its bytes equal {@code bytes}. */
    public boolean valueIs(int kind, byte[] bytes) {
        return valueKind == kind && Arrays.equals(value, bytes);
    }

    public TopicOption withExplicit(boolean e) {
        return new TopicOption(keyKind, key, valueKind, value, e);
    }

    /** {@code durability = string "persisted" (explicit)}, for messages. */
    public String describe() {
        String v;
        if (valueKind == HeaderKinds.STRING) {
            v = '"' + new String(value, StandardCharsets.UTF_8) + '"';
        } else if (valueKind == HeaderKinds.BOOL && value.length == 1) {
            v = value[0] == 0 ? "false" : value[0] == 1 ? "true" : "0x" + Integer.toHexString(value[0] & 0xff);
        } else {
            StringBuilder sb = new StringBuilder("0x");
            for (byte b : value) {
                sb.append(String.format("%02x", b & 0xff));
            }
            v = sb.toString();
        }
        return keyText() + " = " + HeaderKinds.name(valueKind) + " " + v + (explicit ? " (explicit)" : " (derived)");
    }
}
