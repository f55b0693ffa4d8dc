package segtool.shell.render;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import segtool.formats.io.Hex;

/** Byte counts and byte strings for people: sizes with units, printable UTF-8 or hex. */
public final class Bytes {
    private static final HexFormat HEX = HexFormat.of();

    private Bytes() {
    }

    /**
     * {@code 1048576 (1.0 MiB)}; below 1 KiB {@code 315 B}: for legends and table cells ({@link #count} in prose).
     */
    public static String size(long bytes) {
        if (bytes >= 0 && bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 0) {
            return Long.toUnsignedString(bytes) + " (" + unit(bytes) + ")";
        }
        return bytes + " (" + unit(bytes) + ")";
    }

    /**
     * An exact byte count for people, with a binary unit beside it from 1 KiB on: {@code 396 bytes},
     * {@code 8052 bytes (7.9 KiB)}, {@code 1073741824 bytes (1.0 GiB)}. The count stays exact (and greppable);
     * JSON never uses this.
     */
    public static String count(long bytes) {
        String exact = Long.toUnsignedString(bytes) + (bytes == 1 ? " byte" : " bytes");
        String unit = unit(bytes);
        return unit == null ? exact : exact + " (" + unit + ")";
    }

    /**
     * {@code 7.9 KiB}, up to EiB, for a count of at least 1 KiB (unsigned); null below. The tenths are rounded half
     * up from the exact quotient, in integers: {@code String.format("%.1f")} gave the same text through a double, but
     * set up the locale machinery (providers, resource bundles) on every command that prints a size.
     */
    public static String unit(long bytes) {
        if (bytes >= 0 && bytes < 1024) {
            return null;
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = 0;
        while (u < units.length - 1 && bytes >>> (10 * (u + 1)) >= 1024) {   // a shift of 10 or more is never negative
            u++;
        }
        int shift = 10 * (u + 1);
        long whole = bytes >>> shift;
        long rest = bytes & ((1L << shift) - 1);
        // rest < 2^60, so 10 * rest + 2^59 < 2^64: exact as an unsigned long
        long tenths = whole * 10 + ((rest * 10 + (1L << (shift - 1))) >>> shift);
        return (tenths / 10) + "." + (tenths % 10) + " " + units[u];
    }

    public static String hex(byte[] b) {
        return HEX.formatHex(b);
    }

    /** The bytes as UTF-8 text when they decode and are printable (tabs and newlines allowed), else null. */
    public static String printable(byte[] b) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\t' && c != '\r') {
                return null;
            }
        }
        return s;
    }

    /** A classic 16-bytes-per-line dump of {@code b}, addresses starting at {@code base}. */
    public static String dump(byte[] b, long base, String indent) {
        StringBuilder out = new StringBuilder();
        for (int row = 0; row < b.length; row += 16) {
            out.append(indent);
            row(out, b, row, Math.min(16, b.length - row), base + row, 8).append('\n');
        }
        return out.toString();
    }

    /**
     * Appends one dump line: {@code address} as at least {@code addressWidth} hex digits, the {@code n <= 16} bytes
     * at {@code off} in hex (a gap after the eighth, blanks for the missing), then {@code |ascii|}.
     */
    public static StringBuilder row(StringBuilder out, byte[] b, int off, int n, long address, int addressWidth) {
        out.append(Hex.padded(address, addressWidth)).append("  ");
        StringBuilder ascii = new StringBuilder(16);
        for (int i = 0; i < 16; i++) {
            if (i < n) {
                int v = b[off + i] & 0xFF;
                Hex.appendByte(out, v).append(' ');
                ascii.append(v >= 0x20 && v < 0x7f ? (char) v : '.');
            } else {
                out.append("   ");
            }
            if (i == 7) {
                out.append(' ');
            }
        }
        return out.append(" |").append(ascii).append('|');
    }
}
