package segtool.formats.naming;

import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import segtool.formats.io.U64;

/** Segment file names (F 1.2): {@code <S>} is the start offset as 20 zero-padded decimal digits. */
public final class SegmentFiles {
    public static final String LOG = ".log";
    public static final String INDEX = ".index";
    public static final String ANCHOR = ".anchor";
    public static final String STAGING = ".staging";
    private static final String FENCED = ".fenced.";

    private SegmentFiles() {
    }

    /** {@code 00000000000000004096} for 4096; unsigned, so 2^64-1 is {@code 18446744073709551615}. */
    /**
     * Whether a directory entry's name reads as text: the bytes are valid in the JVM's file-name encoding (UTF-8,
     * which the launcher sets), so that the name as a string names this entry again. RECOVERY 3 step 1 skips entries
     * whose names are not valid UTF-8; a plan that names files as text could not name such an entry either.
     */
    public static boolean readsAsText(Path name) {
        Path last = name.getFileName();
        if (last == null) {
            return true;
        }
        try {
            return last.equals(last.getFileSystem().getPath(last.toString()));
        } catch (java.nio.file.InvalidPathException unmappable) {
            return false;   // under a non-UTF-8 locale the decoded name cannot even be encoded again
        }
    }

    public static String stem(long startOffset) {
        String digits = Long.toUnsignedString(startOffset);
        return "0".repeat(20 - digits.length()) + digits;
    }

    public static Path log(Path partition, long start) {
        return partition.resolve(stem(start) + LOG);
    }

    public static Path index(Path partition, long start) {
        return partition.resolve(stem(start) + INDEX);
    }

    public static Path anchor(Path partition, long start) {
        return partition.resolve(stem(start) + ANCHOR);
    }

    public static Path indexStaging(Path partition, long start) {
        return partition.resolve(stem(start) + INDEX + STAGING);
    }

    /** True iff {@code stem} is exactly 20 decimal digits, the only name the server reads. */
    public static boolean isCanonical(String stem) {
        return stem.length() == 20 && digits(stem, 0, 20);
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * The entries of a directory whose names end in one of {@code suffixes} (as the glob {@code *.{log,index}}
     * selects them, where a name may also start with a dot). Matched by hand, not through a glob: a glob is compiled
     * into a regular expression on every listing, and judging a data directory lists each partition several times.
     */
    public static DirectoryStream.Filter<Path> endingIn(String... suffixes) {
        return p -> {
            Path name = p.getFileName();
            if (name == null) {
                return false;
            }
            String n = name.toString();
            for (String suffix : suffixes) {
                if (n.endsWith(suffix)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** The entries of a directory whose names start with {@code prefix} (the glob {@code prefix*}). */
    public static DirectoryStream.Filter<Path> startingWith(String prefix) {
        return p -> {
            Path name = p.getFileName();
            return name != null && name.toString().startsWith(prefix);
        };
    }

    /**
     * The file name minus its final extension ({@code a.b.log} has stem {@code a.b}). As Rust's {@code file_stem}: a
     * leading dot does not start an extension, so {@code .log} is all stem.
     */
    public static String stemOf(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot <= 0 ? fileName : fileName.substring(0, dot);
    }

    /** The text after the last dot, or the empty string (also for a name whose only dot leads, like {@code .log}). */
    public static String extensionOf(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot <= 0 ? "" : fileName.substring(dot + 1);
    }

    /** The start offset a log stem contributes (Rust's u64 parser: leading zeros and a '+' accepted), or null. */
    public static Long startOffsetOf(String stem) {
        return U64.parse(stem);
    }

    /** The {@code n} of a fence directory name {@code <partition>.fenced.<n>}, or -1. */
    public static int fenceNumber(String directoryName) {
        // <partition>.fenced.<1 to 3 digits>, the partition's name at least one character long
        int at = directoryName.lastIndexOf(FENCED);
        int digitsFrom = at + FENCED.length();
        int n = directoryName.length() - digitsFrom;
        if (at < 1 || n < 1 || n > 3 || !digits(directoryName, digitsFrom, directoryName.length())) {
            return -1;
        }
        for (int i = 0; i < at; i++) {   // as a regular expression's '.', the partition's name holds no line break
            char c = directoryName.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return -1;
            }
        }
        return Integer.parseInt(directoryName, digitsFrom, directoryName.length(), 10);
    }

    /** The fence directory {@code <partition directory>.fenced.<n>}. */
    public static Path fence(Path partition, int n) {
        return partition.resolveSibling(partition.getFileName() + ".fenced." + n);
    }
}
