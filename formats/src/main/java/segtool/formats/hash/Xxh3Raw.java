package segtool.formats.hash;

/**
 * XXH3-64, seed 0 and the default 192-byte secret, over raw memory: {@code base} and {@code address} as
 * {@code sun.misc.Unsafe} takes them ({@code null} and an absolute address for native memory, an array and its
 * base offset plus index for the heap). Written from the XXH3 specification (xxhash's doc/xxhash_spec.md); its
 * output is checked against zero-allocation-hashing and the C reference ({@code xxhsum -H3}) in the tests.
 *
 * <p>Why segtool carries its own: verifying a segment from byte 0 hashes every message once, and the library's
 * XXH3 is one large method generic over its {@code Access} interface. The JIT compiles that method slowly (a few
 * tenths of a CPU-second per run, measured with {@code -XX:+CITime}) and its compiled long-input loop ran at
 * 6 GB/s per core here, against 9 for the flat loop below (16 KiB messages, thread CPU time). Each input size
 * class here is its own small method, and the long-input loop keeps its eight accumulators in locals.
 *
 * <p>The caller guarantees that {@code [address, address + length)} is readable: nothing here checks bounds.
 * Every read stays inside that range (the short paths read the first and last bytes, never past the end).
 */
final class Xxh3Raw {
    private static final sun.misc.Unsafe U = segtool.formats.io.UnsafeAccess.get();

    private static final long PRIME32_1 = 0x9E3779B1L;
    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final long PRIME_MX1 = 0x165667919E3779F9L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

    /** The default secret (kSecret), 192 bytes. */
    private static final byte[] SECRET = java.util.HexFormat.of().parseHex(
            "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
            + "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
            + "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
            + "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
            + "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
            + "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");

    /** {@code WORD[i]}: the secret's little-endian u64 at byte {@code i}. */
    private static final long[] WORD = new long[SECRET.length - 7];

    static {
        java.nio.ByteBuffer secret = java.nio.ByteBuffer.wrap(SECRET).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < WORD.length; i++) {
            WORD[i] = secret.getLong(i);
        }
    }

    // Inputs of 1-16 bytes fold two secret words into one constant.
    private static final long FLIP_1TO3 = (WORD[0] & 0xFFFFFFFFL) ^ (WORD[4] & 0xFFFFFFFFL);
    private static final long FLIP_4TO8 = WORD[8] ^ WORD[16];
    private static final long FLIP_9TO16_LO = WORD[24] ^ WORD[32];
    private static final long FLIP_9TO16_HI = WORD[40] ^ WORD[48];
    private static final long EMPTY = avalanche64(WORD[56] ^ WORD[64]);

    // Long inputs: 64-byte stripes, 16 per 1024-byte block, the key of stripe s lane j the secret word at 8(s + j).
    private static final int STRIPE = 64;
    private static final int STRIPES_PER_BLOCK = (192 - STRIPE) / 8;
    private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK;
    private static final long[] STRIPE_KEY = new long[STRIPES_PER_BLOCK + 8];
    private static final long SCRAMBLE0 = WORD[128], SCRAMBLE1 = WORD[136], SCRAMBLE2 = WORD[144],
            SCRAMBLE3 = WORD[152], SCRAMBLE4 = WORD[160], SCRAMBLE5 = WORD[168], SCRAMBLE6 = WORD[176],
            SCRAMBLE7 = WORD[184];
    // the last stripe is keyed from byte 192 - 64 - 7 = 121, the merge from byte 11
    private static final long LAST0 = WORD[121], LAST1 = WORD[129], LAST2 = WORD[137], LAST3 = WORD[145],
            LAST4 = WORD[153], LAST5 = WORD[161], LAST6 = WORD[169], LAST7 = WORD[177];
    private static final long MERGE0 = WORD[11], MERGE1 = WORD[19], MERGE2 = WORD[27], MERGE3 = WORD[35],
            MERGE4 = WORD[43], MERGE5 = WORD[51], MERGE6 = WORD[59], MERGE7 = WORD[67];

    static {
        for (int i = 0; i < STRIPE_KEY.length; i++) {
            STRIPE_KEY[i] = WORD[8 * i];
        }
    }

    private Xxh3Raw() {
    }

    /**
     * True where this JVM hands out {@code sun.misc.Unsafe}, reads memory little-endian (the raw reads here are in
     * native order) and gives the known answer for a 1,025-byte input (every size class's code reaches through the
     * long-input path's partial block and last stripe); otherwise nothing here may be called.
     */
    static boolean available() {
        return USABLE;
    }

    private static final boolean USABLE = selfTest();

    private static boolean selfTest() {
        if (U == null || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
            return false;
        }
        try {
            byte[] in = new byte[1025];
            for (int i = 0; i < in.length; i++) {
                in[i] = (byte) ((i * 131 + 7) * (i >> 8 | 1));
            }
            long base = U.arrayBaseOffset(byte[].class);
            // xxhsum -H3 0.8.1 of these bytes and of their first 57 (a message frame's size class)
            return hash(in, base, 1025) == 0xf85404f5ef29d073L && hash(in, base, 57) == 0xe35d62dc30fc4942L;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static long arrayBase() {
        return U.arrayBaseOffset(byte[].class);
    }

    static long hash(Object base, long address, long length) {
        if (length <= 16) {
            return upTo16(base, address, length);
        }
        if (length <= 128) {
            return upTo128(base, address, length);
        }
        if (length <= 240) {
            return upTo240(base, address, length);
        }
        return longInput(base, address, length);
    }

    private static long upTo16(Object base, long p, long length) {
        if (length > 8) {
            long lo = U.getLong(base, p) ^ FLIP_9TO16_LO;
            long hi = U.getLong(base, p + length - 8) ^ FLIP_9TO16_HI;
            return avalanche(length + Long.reverseBytes(lo) + hi + fold(lo, hi));
        }
        if (length >= 4) {
            long first = U.getInt(base, p) & 0xFFFFFFFFL;
            long last = U.getInt(base, p + length - 4) & 0xFFFFFFFFL;
            long h = (last + (first << 32)) ^ FLIP_4TO8;
            h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
            h *= PRIME_MX2;
            h ^= (h >>> 35) + length;
            h *= PRIME_MX2;
            return h ^ (h >>> 28);
        }
        if (length > 0) {
            int c1 = U.getByte(base, p) & 0xFF;
            int c2 = U.getByte(base, p + (length >> 1)) & 0xFF;
            int c3 = U.getByte(base, p + length - 1) & 0xFF;
            long combined = ((c1 << 16) | (c2 << 24) | c3 | ((int) length << 8)) & 0xFFFFFFFFL;
            return avalanche64(combined ^ FLIP_1TO3);
        }
        return EMPTY;
    }

    private static long upTo128(Object base, long p, long length) {
        long acc = length * PRIME64_1;
        if (length > 32) {
            if (length > 64) {
                if (length > 96) {
                    acc += mix16(base, p + 48, 96);
                    acc += mix16(base, p + length - 64, 112);
                }
                acc += mix16(base, p + 32, 64);
                acc += mix16(base, p + length - 48, 80);
            }
            acc += mix16(base, p + 16, 32);
            acc += mix16(base, p + length - 32, 48);
        }
        acc += mix16(base, p, 0);
        acc += mix16(base, p + length - 16, 16);
        return avalanche(acc);
    }

    private static long upTo240(Object base, long p, long length) {
        long acc = length * PRIME64_1;
        for (int i = 0; i < 8; i++) {
            acc += mix16(base, p + 16 * i, 16 * i);
        }
        acc = avalanche(acc);
        int rounds = (int) (length >>> 4);
        for (int i = 8; i < rounds; i++) {
            acc += mix16(base, p + 16 * i, 16 * (i - 8) + 3);
        }
        acc += mix16(base, p + length - 16, 136 - 17);
        return avalanche(acc);
    }

    private static long longInput(Object base, long p, long length) {
        long a0 = PRIME32_3, a1 = PRIME64_1, a2 = PRIME64_2, a3 = PRIME64_3;
        long a4 = PRIME64_4, a5 = PRIME32_2, a6 = PRIME64_5, a7 = PRIME32_1;
        final long[] key = STRIPE_KEY;
        long blocks = (length - 1) / BLOCK;
        long q = p;
        for (long n = 0; n < blocks; n++, q += BLOCK) {
            for (int s = 0; s < STRIPES_PER_BLOCK; s++) {
                long at = q + (long) s * STRIPE;
                long d0 = U.getLong(base, at), d1 = U.getLong(base, at + 8);
                long d2 = U.getLong(base, at + 16), d3 = U.getLong(base, at + 24);
                long d4 = U.getLong(base, at + 32), d5 = U.getLong(base, at + 40);
                long d6 = U.getLong(base, at + 48), d7 = U.getLong(base, at + 56);
                long x0 = d0 ^ key[s], x1 = d1 ^ key[s + 1], x2 = d2 ^ key[s + 2], x3 = d3 ^ key[s + 3];
                long x4 = d4 ^ key[s + 4], x5 = d5 ^ key[s + 5], x6 = d6 ^ key[s + 6], x7 = d7 ^ key[s + 7];
                // each lane adds its neighbour's input and the product of its keyed halves
                a0 += d1 + (x0 & 0xFFFFFFFFL) * (x0 >>> 32);
                a1 += d0 + (x1 & 0xFFFFFFFFL) * (x1 >>> 32);
                a2 += d3 + (x2 & 0xFFFFFFFFL) * (x2 >>> 32);
                a3 += d2 + (x3 & 0xFFFFFFFFL) * (x3 >>> 32);
                a4 += d5 + (x4 & 0xFFFFFFFFL) * (x4 >>> 32);
                a5 += d4 + (x5 & 0xFFFFFFFFL) * (x5 >>> 32);
                a6 += d7 + (x6 & 0xFFFFFFFFL) * (x6 >>> 32);
                a7 += d6 + (x7 & 0xFFFFFFFFL) * (x7 >>> 32);
            }
            a0 = (a0 ^ (a0 >>> 47) ^ SCRAMBLE0) * PRIME32_1;
            a1 = (a1 ^ (a1 >>> 47) ^ SCRAMBLE1) * PRIME32_1;
            a2 = (a2 ^ (a2 >>> 47) ^ SCRAMBLE2) * PRIME32_1;
            a3 = (a3 ^ (a3 >>> 47) ^ SCRAMBLE3) * PRIME32_1;
            a4 = (a4 ^ (a4 >>> 47) ^ SCRAMBLE4) * PRIME32_1;
            a5 = (a5 ^ (a5 >>> 47) ^ SCRAMBLE5) * PRIME32_1;
            a6 = (a6 ^ (a6 >>> 47) ^ SCRAMBLE6) * PRIME32_1;
            a7 = (a7 ^ (a7 >>> 47) ^ SCRAMBLE7) * PRIME32_1;
        }
        // the stripes of the last, partial block, then (s == stripes) the input's last 64 bytes under their own keys.
        // The stripe body is written twice on purpose: one loop over every stripe, choosing keys and the scramble
        // per stripe, ran at 7.2 GB/s per core against 11.1 for these two (16 KiB and 1 MiB inputs, thread CPU time)
        int stripes = (int) (((length - 1) - blocks * BLOCK) / STRIPE);
        for (int s = 0; s <= stripes; s++) {
            boolean last = s == stripes;
            long at = last ? p + length - STRIPE : q + (long) s * STRIPE;
            long d0 = U.getLong(base, at), d1 = U.getLong(base, at + 8);
            long d2 = U.getLong(base, at + 16), d3 = U.getLong(base, at + 24);
            long d4 = U.getLong(base, at + 32), d5 = U.getLong(base, at + 40);
            long d6 = U.getLong(base, at + 48), d7 = U.getLong(base, at + 56);
            long x0 = d0 ^ (last ? LAST0 : key[s]), x1 = d1 ^ (last ? LAST1 : key[s + 1]);
            long x2 = d2 ^ (last ? LAST2 : key[s + 2]), x3 = d3 ^ (last ? LAST3 : key[s + 3]);
            long x4 = d4 ^ (last ? LAST4 : key[s + 4]), x5 = d5 ^ (last ? LAST5 : key[s + 5]);
            long x6 = d6 ^ (last ? LAST6 : key[s + 6]), x7 = d7 ^ (last ? LAST7 : key[s + 7]);
            a0 += d1 + (x0 & 0xFFFFFFFFL) * (x0 >>> 32);
            a1 += d0 + (x1 & 0xFFFFFFFFL) * (x1 >>> 32);
            a2 += d3 + (x2 & 0xFFFFFFFFL) * (x2 >>> 32);
            a3 += d2 + (x3 & 0xFFFFFFFFL) * (x3 >>> 32);
            a4 += d5 + (x4 & 0xFFFFFFFFL) * (x4 >>> 32);
            a5 += d4 + (x5 & 0xFFFFFFFFL) * (x5 >>> 32);
            a6 += d7 + (x6 & 0xFFFFFFFFL) * (x6 >>> 32);
            a7 += d6 + (x7 & 0xFFFFFFFFL) * (x7 >>> 32);
        }
        long r = length * PRIME64_1;
        r += fold(a0 ^ MERGE0, a1 ^ MERGE1);
        r += fold(a2 ^ MERGE2, a3 ^ MERGE3);
        r += fold(a4 ^ MERGE4, a5 ^ MERGE5);
        r += fold(a6 ^ MERGE6, a7 ^ MERGE7);
        return avalanche(r);
    }

    private static long mix16(Object base, long p, int secretAt) {
        return fold(U.getLong(base, p) ^ WORD[secretAt], U.getLong(base, p + 8) ^ WORD[secretAt + 8]);
    }

    /** The 128-bit product of two u64, its high half xor its low half. */
    private static long fold(long a, long b) {
        long high = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return (a * b) ^ high;
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= PRIME_MX1;
        return h ^ (h >>> 32);
    }

    private static long avalanche64(long h) {
        h ^= h >>> 33;
        h *= PRIME64_2;
        h ^= h >>> 29;
        h *= PRIME64_3;
        return h ^ (h >>> 32);
    }
}
