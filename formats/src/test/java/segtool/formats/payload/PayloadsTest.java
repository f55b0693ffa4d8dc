package segtool.formats.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PayloadsTest {
    /** Vector C's payload: the examples' encoder on "iggy " x 20 (FLG 0x60, BD 0x40: 64 KiB blocks). */
    private static final String VECTOR_C_PAYLOAD = "04224d186040820f0000005f696767792005004750696767792000000000";

    @Test
    void lz4Compress_producesTheExamplesFrameForVectorC() {
        byte[] plain = "iggy ".repeat(20).getBytes(StandardCharsets.US_ASCII);
        assertEquals(VECTOR_C_PAYLOAD, HexFormat.of().formatHex(Payloads.lz4Compress(plain)));
    }

    @Test
    void lz4_roundTripsAcrossBlockBoundaries() throws Payloads.DecodeException {
        Random random = new Random(3);
        for (int size : new int[]{0, 1, 65_535, 65_536, 65_537, 200_000}) {
            byte[] plain = new byte[size];
            for (int i = 0; i < size; i++) {
                plain[i] = (byte) ('a' + random.nextInt(4));
            }
            byte[] frame = Payloads.lz4Compress(plain);
            assertEquals(0x40, frame[5] & 0xFF, "64 KiB block descriptor, size " + size);
            assertArrayEquals(plain, Payloads.lz4Decompress(frame, size), "size " + size);
        }
    }

    @Test
    void lz4Decompress_refusesGarbageAndTruncation() {
        byte[] frame = HexFormat.of().parseHex(VECTOR_C_PAYLOAD);
        for (int n = 0; n < frame.length - 4; n++) {
            byte[] cut = Arrays.copyOf(frame, n);
            assertThrows(Payloads.DecodeException.class, () -> Payloads.lz4Decompress(cut, 1000), "cut " + n);
        }
        assertThrows(Payloads.DecodeException.class, () -> Payloads.lz4Decompress(new byte[]{1, 2, 3, 4, 5}, 10));
    }
}
