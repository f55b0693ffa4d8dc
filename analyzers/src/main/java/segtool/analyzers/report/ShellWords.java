package segtool.analyzers.report;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Words of the commands segtool prints for an operator to run next ({@code $ segtool repair ...}): a path that holds
 * a space, a quote or any other character a POSIX shell reads specially is single-quoted, so that the printed line
 * pasted into a shell names the same file. One home for every printed command (doctor, explain, repair, restore).
 */
public final class ShellWords {
    /** Characters a POSIX shell takes literally in a word (no quoting needed). */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    private ShellWords() {
    }

    /** {@code s} as one shell word: as it stands when that is already one, otherwise single-quoted. */
    public static String quote(String s) {
        if (!s.isEmpty() && PLAIN.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** The path as one shell word. */
    public static String quote(Path p) {
        return quote(p.toString());
    }
}
