package segtool.formats.naming;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import segtool.formats.io.U64;

/** Segment file names (F 1.2): {@code <S>} is the start offset as 20 zero-padded decimal digits. */
public final class SegmentFiles {
    public static final String LOG = ".log";
    public static final String INDEX = ".index";
    public static final String ANCHOR = ".anchor";
    public static final String STAGING = ".staging";
    private static final Pattern CANONICAL = Pattern.compile("[0-9]{20}");
    private static final Pattern FENCED = Pattern.compile("(.+)\\.fenced\\.([0-9]{1,3})");

    private SegmentFiles() {
    }

    /** {@code 00000000000000004096} for 4096; unsigned, so 2^64-1 is {@code 18446744073709551615}. */
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
        return CANONICAL.matcher(stem).matches();
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
        Matcher m = FENCED.matcher(directoryName);
        return m.matches() ? Integer.parseInt(m.group(2)) : -1;
    }

    /** The fence directory {@code <partition directory>.fenced.<n>}. */
    public static Path fence(Path partition, int n) {
        return partition.resolveSibling(partition.getFileName() + ".fenced." + n);
    }
}
