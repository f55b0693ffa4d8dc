package segtool.samples.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import segtool.formats.hash.Xxh3;

/** The writers reproduce METADATA.md's worked examples byte for byte (2.8, 4.8, 5.3, 6.9). */
class MetadataWritersTest {
    private static long le64(byte[] b, int at) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
    }

    @Test
    void snapshot_example28_byteForByte() {
        byte[] file = SnapshotWriter.example28().file();
        assertEquals(663, file.length);
        assertEquals(HexFormat.of().formatHex(SpecBytes.SNAPSHOT_2_8), HexFormat.of().formatHex(file));
        assertEquals(0x928A02C8838E3E8BL, le64(file, 0x283 + 4));
    }

    @Test
    void snapshot_example28WithCreatedView_payloadChecksumAsStated() {
        SnapshotWriter w = SnapshotWriter.example28();
        SnapshotWriter.Stream s = w.streams.get(0);
        SnapshotWriter.Topic t = s.topics().get(0);
        w.streams.set(0, new SnapshotWriter.Stream(0, s.name(), s.createdAt(), java.util.List.of(
                new SnapshotWriter.Topic(0, t.name(), t.createdAt(), java.util.List.of(
                        new SnapshotWriter.Partition(0, 1, SnapshotWriter.T, 1, 0, 0, 0L)), t.options()))));
        byte[] payload = w.payload();
        assertEquals(644, payload.length);
        assertEquals(0x0AAD186A2302C8D3L, Xxh3.hash(payload));
    }

    @Test
    void journal_example48_byteForByte() {
        JournalWriter w = new JournalWriter();
        byte[] body = JournalWriter.createTopic(0, "events", 1, Opt.string("durability", "persisted", true));
        assertEquals(HexFormat.of().formatHex(SpecBytes.JOURNAL_4_8_BODY), HexFormat.of().formatHex(body));
        byte[] entry = w.entry(2, 2, 64, body);
        assertEquals(HexFormat.of().formatHex(SpecBytes.JOURNAL_4_8_HEADER),
                HexFormat.of().formatHex(Arrays.copyOf(entry, 256)));
        assertEquals(0x9547A27D98E9866AL, le64(entry, 0));
        assertEquals(0x41E3E62D196273B1L, le64(entry, 16));
    }

    @Test
    void superblock_example53_byteForByte() {
        byte[] file = SuperblockWriter.example53().file();
        assertArrayEquals(SpecBytes.SUPERBLOCK_5_3, file);
        assertEquals(0xCD1C54B82D24F437L, le64(file, 94));
    }

    @Test
    void frontier_example69_byteForByte() {
        byte[] file = FrontierWriter.example69().file(2, 1);
        assertEquals(8192, file.length);
        assertEquals(HexFormat.of().formatHex(SpecBytes.FRONTIER_6_9_SLOT0_HEAD),
                HexFormat.of().formatHex(Arrays.copyOf(file, 224)));
        byte[] zero = new byte[4096 - 224];
        assertArrayEquals(zero, Arrays.copyOfRange(file, 224, 4096));
        assertEquals(0x156A6039ECEEBDB5L, le64(file, 8));
        assertEquals(0x865CF3F4149E4A9CL, le64(file, 4096 + 8));
        assertEquals(1, le64(file, 4096 + 216));
    }
}
