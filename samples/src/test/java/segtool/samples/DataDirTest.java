package segtool.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.FrameHeader;
import segtool.formats.offsets.ConsumerOffset;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

class DataDirTest {
    @TempDir
    static Path out;
    private static Path root;

    @BeforeAll
    static void generate() throws IOException {
        SampleGenerator.generate(out, Set.of("data-dir"));
        root = out.resolve("data-dir");
    }

    /** The hand-computed segment sizes in {@link DataDir} rest on these encoder outputs. */
    @Test
    void lz4FrameLengths_areThePinnedOnes() {
        List<Integer> plain = DataDir.ORDERS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8).length).toList();
        List<Integer> framed = DataDir.ORDERS.stream()
                .map(s -> Payloads.lz4Compress(s.getBytes(StandardCharsets.UTF_8)).length).toList();
        assertEquals(List.of(201, 158, 108, 203), plain);
        assertEquals(List.of(159, 140, 123, 171), framed);
        for (String r : DataDir.READINGS) {
            assertEquals(240, r.length());
            assertEquals(56, Payloads.lz4Compress(r.getBytes(StandardCharsets.UTF_8)).length);
        }
    }

    @Test
    void everyBatch_verifiesAndEverySegmentIsGapFree() throws IOException {
        int batches = 0;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path log : s.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                byte[] bytes = Files.readAllBytes(log);
                int pos = 0;
                while (pos < bytes.length) {
                    assertNull(Records.verifyAt(bytes, pos), log + " @ " + pos);
                    pos += (int) Records.header(bytes, pos).batchLength();
                    batches++;
                }
                assertEquals(bytes.length, pos, log.toString());
            }
        }
        assertEquals(8 + 2 + 4 + 3, batches);
    }

    @Test
    void lz4Payloads_areTaggedAndDecompressToTheirText() throws IOException {
        byte[][] sections = firstFrameSections(DataDir.ORDERS_LZ4);
        UserHeaders.Decoded decoded = UserHeaders.decode(sections[1]);
        assertNull(decoded.problem());
        assertEquals("lz4", Payloads.compression(decoded.headers()));
        assertArrayEquals(DataDir.ORDERS.get(0).getBytes(StandardCharsets.UTF_8),
                Payloads.lz4Decompress(sections[0], Payloads.MAX_DECOMPRESSED));
    }

    @Test
    void telemetryHeaders_spanManyKindsIncludingAnUnknownCode() throws IOException {
        byte[][] sections = firstFrameSections(DataDir.TELEMETRY);
        assertEquals(56, sections[0].length);
        assertEquals(210, sections[1].length);
        UserHeaders.Decoded decoded = UserHeaders.decode(sections[1]);
        assertNull(decoded.problem());
        List<Integer> kinds = decoded.headers().stream().map(h -> h.value().code()).toList();
        assertEquals(List.of(HeaderKind.UINT8.code(), HeaderKind.BOOL.code(), HeaderKind.RAW.code(),
                HeaderKind.STRING.code(), HeaderKind.INT16.code(), HeaderKind.UINT128.code(),
                HeaderKind.UINT64.code(), HeaderKind.FLOAT64.code(), 200), kinds);
    }

    @Test
    void consumerOffsets_decode() throws IOException {
        Path p1 = root.resolve(DataDir.ORDERS_LZ4);
        assertEquals(new ConsumerOffset(ConsumerOffset.Kind.CHECKSUMMED, 15), read(p1.resolve("offsets/consumers/1")));
        assertEquals(new ConsumerOffset(ConsumerOffset.Kind.CHECKSUMMED, 11), read(p1.resolve("offsets/groups/1")));
        assertEquals(new ConsumerOffset(ConsumerOffset.Kind.LEGACY, 3),
                read(root.resolve(DataDir.ORDERS_PLAIN).resolve("offsets/consumers/1")));
        assertEquals(new ConsumerOffset(ConsumerOffset.Kind.CHECKSUMMED, 1004),
                read(root.resolve(DataDir.AUDIT).resolve("offsets/groups/3")));
    }

    @Test
    void partitionsAreStampedWithTheirDirectoryIds() throws IOException {
        for (String p : List.of(DataDir.ORDERS_LZ4, DataDir.ORDERS_PLAIN, DataDir.TELEMETRY, DataDir.AUDIT)) {
            long id = Long.parseLong(Path.of(p).getFileName().toString());
            try (Stream<Path> s = Files.list(root.resolve(p))) {
                for (Path log : s.filter(f -> f.toString().endsWith(".log")).toList()) {
                    assertEquals(id, BatchHeader.read(ByteBuffer.wrap(Files.readAllBytes(log)), 0).partitionId(),
                            log.toString());
                }
            }
        }
        assertTrue(Files.exists(root.resolve(DataDir.AUDIT).resolve("00000000000000001000.log")));
    }

    /** The payload and the user-headers section of the first message in a partition's first segment. */
    private static byte[][] firstFrameSections(String partition) throws IOException {
        Path dir = root.resolve(partition);
        byte[] log;
        try (Stream<Path> s = Files.list(dir)) {
            log = Files.readAllBytes(s.filter(f -> f.toString().endsWith(".log")).sorted().findFirst().orElseThrow());
        }
        int payloadAt = BatchHeader.LENGTH + FrameHeader.LENGTH;
        int payloadLength = (int) LittleEndian.u32(log, BatchHeader.LENGTH + FrameHeader.PAYLOAD_LENGTH_OFFSET);
        int headersLength = (int) LittleEndian.u32(log, BatchHeader.LENGTH + FrameHeader.USER_HEADERS_LENGTH_OFFSET);
        return new byte[][]{Arrays.copyOfRange(log, payloadAt, payloadAt + payloadLength),
                Arrays.copyOfRange(log, payloadAt + payloadLength, payloadAt + payloadLength + headersLength)};
    }

    private static ConsumerOffset read(Path file) throws IOException {
        return ConsumerOffset.decode(Files.readAllBytes(file));
    }
}
