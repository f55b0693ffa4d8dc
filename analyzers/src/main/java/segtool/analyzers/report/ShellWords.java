package segtool.analyzers.report;

import java.nio.file.Path;

/**
 * Words of the commands segtool prints for an operator to run next ({@code $ segtool repair ...}): a path that holds
 * a space, a quote or any other character a POSIX shell reads specially is single-quoted, so that the printed line
 * pasted into a shell names the same file. One home for every printed command (doctor, explain, repair, restore).
 */
public final class ShellWords {
    private ShellWords() {
    }

    /** {@code s} as one shell word: as it stands when that is already one, otherwise single-quoted. */
    public static String quote(String s) {
        boolean plain = !s.isEmpty();
        for (int i = 0; i < s.length() && plain; i++) {
            plain = plain(s.charAt(i));
        }
        return plain ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** A character a POSIX shell takes literally in a word (ASCII letters and digits, and {@code _./:=@%+,-}). */
    private static boolean plain(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "_./:=@%+,-".indexOf(c) >= 0;
    }

    /**
     * A file name as a line of text shows it: control characters (a line feed in a scratch file's name, say) as
     * {@code \n}, {@code \t} or {@code \xNN}, as {@code ls -b} does, so that one name stays on one line and cannot
     * pass for another line of the report.
     */
    public static String shown(String name) {
        StringBuilder b = null;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 0x20 && c != 0x7f) {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(name.length() + 8).append(name, 0, i);
            }
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append("\\x").append(Character.forDigit(c >> 4, 16))
                        .append(Character.forDigit(c & 15, 16));
            }
        }
        return b == null ? name : b.toString();
    }

    /** The path as one shell word. */
    public static String quote(Path p) {
        return quote(p.toString());
    }
}
