package segtool.formats.fuzz;

import static segtool.formats.fuzz.Fuzz.allocated;
import static segtool.formats.fuzz.Fuzz.assertAllocatedAtMost;
import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.Objects;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

/**
 * A frame's sections: the user-headers TLV (F 4.1) and the LZ4 payload convention (F 4.2).
 */
class PayloadFuzzTest {
    private static final int CAP = 1 << 20;
    private static boolean warm;
    private static boolean warmHeaders;

    /**
     * Any section decodes without throwing, to the pairs before the first problem; those pairs encode to a prefix of
     * the section, the whole section when there was no problem; every value displays; an item's claimed length sizes
     * nothing.
     */
    @FuzzTest(maxDuration = "12h")
    void userHeaders(byte[] data) {
        if (!warmHeaders) {
            // The fuzzer instruments on first execution, which allocates megabytes: not the input's.
            warmHeaders = true;
            Fuzz.warmUp(() -> {
                UserHeaders.decode(SeedCorpus.everyKind());
                UserHeaders.decode(new byte[]{2, 9, 0, 0, 0});
                UserHeaders.encode(UserHeaders.decode(SeedCorpus.everyKind()).headers());
            });
        }
        long before = allocated();
        UserHeaders.Decoded d = UserHeaders.decode(data);
        assertAllocatedAtMost(before, 16384 + 64L * data.length, "decode");
        byte[] again = UserHeaders.encode(d.headers());
        if (d.problem() == null) {
            check(Arrays.equals(again, data), "decode -> encode changes the section");
        } else {
            check(again.length < data.length || data.length == 0 && again.length == 0,
                    "a section with a problem re-encodes whole: " + d.problem());
            check(Arrays.equals(again, Arrays.copyOf(data, again.length)), "the pairs read are not a prefix");
        }
        for (UserHeaders.Header h : d.headers()) {
            Objects.requireNonNull(h.key().display());
            Objects.requireNonNull(h.value().display());
            Objects.requireNonNull(h.key().kindName());
        }
        Payloads.compression(d.headers());
        UserHeaders.Decoded twice = UserHeaders.decode(again);
        check(twice.problem() == null && twice.headers().size() == d.headers().size()
                && Arrays.equals(UserHeaders.encode(twice.headers()), again), "encode -> decode -> encode");
    }

    /**
     * Any payload named lz4 decompresses to at most the cap or fails with the documented exception, allocating no
     * more than the cap and the frame format's own block buffers; what the compressor makes decompresses back.
     */
    @FuzzTest(maxDuration = "12h")
    void lz4(byte[] data) {
        if (!warm) {
            warm = true;
            Fuzz.warmUp(() -> Payloads.lz4Decompress(Payloads.lz4Compress(new byte[100]), CAP));
        }
        long before = allocated();
        try {
            byte[] plain = Payloads.lz4Decompress(data, CAP);
            check(plain.length <= CAP, "decompressed past the cap");
        } catch (Payloads.DecodeException expected) {
            check(expected.getMessage() != null, "no message");
        }
        // 4 MiB blocks are the largest the frame format has (two buffers), the output grows to the cap by doubling.
        assertAllocatedAtMost(before, 3L * CAP + (9L << 20) + 16L * data.length, "lz4");
        try {
            check(Arrays.equals(Payloads.lz4Decompress(Payloads.lz4Compress(data), CAP), data), "round trip");
        } catch (Payloads.DecodeException e) {
            check(data.length > CAP, "own frame refused: " + e.getMessage());
        }
    }

}
