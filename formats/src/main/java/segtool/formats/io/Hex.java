package segtool.formats.io;

import java.util.HexFormat;

/**
 * Hexadecimal text for checksums, addresses and bytes, as {@code String.format}'s {@code %016x}, {@code %016X},
 * {@code %0Nx} and {@code %02x} write it. Not through {@code String.format}: its format string is parsed with a
 * regular expression on every call, and these run once per batch, message or byte (a salvage of a 1 GiB segment
 * spent more CPU compiling that expression than verifying the batches).
 */
public final class Hex {
    private static final HexFormat LOWER = HexFormat.of();
    private static final HexFormat UPPER = HexFormat.of().withUpperCase();

    private Hex() {
    }

    /** {@code 0x} and 16 lower-case digits: {@code String.format("0x%016x", v)}. */
    public static String u64(long v) {
        return "0x" + LOWER.toHexDigits(v);
    }

    /** {@code 0x} and 16 upper-case digits: {@code String.format("0x%016X", v)}. */
    public static String u64Upper(long v) {
        return "0x" + UPPER.toHexDigits(v);
    }

    /** 16 lower-case digits: {@code String.format("%016x", v)}. */
    public static String digits(long v) {
        return LOWER.toHexDigits(v);
    }

    /** At least {@code width} lower-case digits, zero-padded (unsigned): {@code String.format("%0<width>x", v)}. */
    public static String padded(long v, int width) {
        String d = Long.toHexString(v);
        return d.length() >= width ? d : "0".repeat(width - d.length()) + d;
    }

    /** Appends the byte {@code v} as two lower-case digits: {@code String.format("%02x", v & 0xff)}. */
    public static StringBuilder appendByte(StringBuilder b, int v) {
        return b.append(LOWER.toHighHexDigit(v)).append(LOWER.toLowHexDigit(v));
    }
}
