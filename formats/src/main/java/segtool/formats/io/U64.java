package segtool.formats.io;

/**
 * Unsigned 64-bit arithmetic as RECOVERY.md section 2.2 prescribes: additions saturate at 2^64-1,
 * comparisons are unsigned. Values live in signed longs; -1L is 2^64-1.
 */
public final class U64 {
    public static final long MAX = -1L;

    private U64() {
    }

    public static long addSat(long a, long b) {
        long sum = a + b;
        return Long.compareUnsigned(sum, a) < 0 ? MAX : sum;
    }

    /** {@code a - b}, or 0 when {@code b > a}. */
    public static long subSat(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? 0 : a - b;
    }

    /** {@code a * k} saturating, for small non-negative k. */
    public static long mulSat(long a, int k) {
        long hi = Math.multiplyHigh(a, k) + ((a >> 63) & k);
        return hi != 0 ? MAX : a * k;
    }

    public static boolean lt(long a, long b) {
        return Long.compareUnsigned(a, b) < 0;
    }

    public static boolean le(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0;
    }

    public static boolean gt(long a, long b) {
        return Long.compareUnsigned(a, b) > 0;
    }

    public static boolean ge(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0;
    }

    public static String str(long a) {
        return Long.toUnsignedString(a);
    }

    public static long min(long a, long b) {
        return lt(a, b) ? a : b;
    }

    /** Parses an unsigned decimal the way Rust's {@code u64::from_str} does: digits, an optional leading '+'. */
    public static boolean isDecimal(String s) {
        int i = s.startsWith("+") ? 1 : 0;
        if (i == s.length()) {
            return false;
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The value of {@code s}, or null when it is not a decimal that fits in 64 unsigned bits. */
    public static Long parse(String s) {
        if (!isDecimal(s)) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(s.startsWith("+") ? s.substring(1) : s);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }
}
