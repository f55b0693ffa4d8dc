package segtool.samples;

import static segtool.samples.Expected.Mode.accepted;
import static segtool.samples.Expected.Segment.of;
import static segtool.samples.Expected.Status.CLEAN;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.Message;
import segtool.formats.offsets.ConsumerOffset;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.formats.payload.UserHeaders.Header;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Expected.Partition;

/**
 * A small, healthy data directory as a server leaves it: two streams, four partitions, LZ4-compressed JSON tagged
 * {@code iggy-compression}, user headers of many kinds, consumer and consumer-group offset files, and one partition
 * rolled over three segments. Segment caps are far below the server's 1 MiB minimum to keep the files small;
 * recovery does not depend on the cap.
 *
 * <p>Batch sizes are worked out by hand from FORMAT 2.1: {@code 256 + sum(48 + payload + user headers)}, with a
 * user-header pair taking {@code 10 + key + value} bytes (F 4.1). The LZ4 frame lengths of the payloads are the
 * project encoder's output for the fixed texts below, pinned in {@code DataDirTest}.
 */
final class DataDir {
    static final String ORDERS_LZ4 = "streams/1/topics/1/partitions/1";
    static final String ORDERS_PLAIN = "streams/1/topics/1/partitions/2";
    static final String TELEMETRY = "streams/1/topics/2/partitions/1";
    static final String AUDIT = "streams/2/topics/1/partitions/3";

    /** Order events; UTF-8 lengths 201, 158, 108, 203; LZ4 frames of 159, 140, 123, 171 bytes. */
    static final List<String> ORDERS = List.of(
            "{\"order\":10001,\"customer\":\"c-0042\",\"lines\":[{\"sku\":\"TEA-GREEN-250G\",\"qty\":2,\"price\":9.90},"
                    + "{\"sku\":\"TEA-GREEN-500G\",\"qty\":1,\"price\":17.50},{\"sku\":\"TEA-GREEN-1KG\",\"qty\":1,"
                    + "\"price\":31.00}],\"currency\":\"EUR\"}",
            "{\"order\":10002,\"customer\":\"c-0107\",\"lines\":[{\"sku\":\"MUG-STONE-300ML\",\"qty\":4,"
                    + "\"price\":12.00},{\"sku\":\"MUG-STONE-450ML\",\"qty\":4,\"price\":14.00}],"
                    + "\"currency\":\"EUR\"}",
            "{\"order\":10003,\"customer\":\"c-0042\",\"lines\":[{\"sku\":\"TEA-BLACK-250G\",\"qty\":1,"
                    + "\"price\":8.90}],\"currency\":\"EUR\"}",
            "{\"order\":10004,\"customer\":\"c-0311\",\"lines\":[{\"sku\":\"KETTLE-STEEL-1L\",\"qty\":1,"
                    + "\"price\":45.00},{\"sku\":\"TEA-BLACK-250G\",\"qty\":3,\"price\":8.90},"
                    + "{\"sku\":\"TEA-BLACK-500G\",\"qty\":1,\"price\":15.90}],\"currency\":\"EUR\"}");

    /** Sensor reports, 240 bytes each; LZ4 frames of 56 bytes. */
    static final List<String> READINGS = List.of(
            "sensor=7 temp=21.5C rh=40% ok\n".repeat(8),
            "sensor=8 temp=19.0C rh=55% ok\n".repeat(8));

    private DataDir() {
    }

    static Gallery.Sample sample() {
        List<Partition> expected = List.of(
                // 8 batches of 2 messages, frames 48 + lz4 + 87 (content-type 38, iggy-compression lz4 29,
                // tenant 20): orders 0+1 = 256 + 294 + 275 = 825, orders 2+3 = 256 + 258 + 306 = 820.
                // Cap 2,048: segment 0 = 825 + 820 + 825 = 2,470 (offsets 0-5), segment 6 = 820 + 825 + 820 = 2,465
                // (6-11), segment 12 = 825 + 820 = 1,645 (12-15). A flush every 4 messages (2 batches): entries
                // (0,0) (4,1645) | (6,0) (8,820) | (12,0) -> 48, 48, 24 bytes.
                Partition.bothModes(ORDERS_LZ4, accepted(of(0, CLEAN, 5, 2470, 48), of(6, CLEAN, 11, 2465, 48),
                        of(12, CLEAN, 15, 1645, 24))),
                // Frames 48 + text + 68 (content-type 38, iggy-compression none 30): 317, 274, 224, 319.
                // Batch of orders 0-3 = 256 + 1,134 = 1,390, flushed; batch of orders 2-3 = 256 + 543 = 799.
                // 2,189 bytes, offsets 0-5, entries (0,0) (4,1390) -> 48 bytes.
                Partition.bothModes(ORDERS_PLAIN, accepted(of(0, CLEAN, 5, 2189, 48))),
                // 4 batches of 1 message, frame 48 + 56 + 210 = 314, batch 570; 2,280 bytes, offsets 0-3, one
                // entry per batch -> 96 bytes.
                Partition.bothModes(TELEMETRY, accepted(of(0, CLEAN, 3, 2280, 96))),
                // 3 batches of 3 random 64-byte payloads, no headers: 256 + 3 x 112 = 592; 1,776 bytes, offsets
                // 1000-1008 (retention removed the prefix), one entry per batch -> 72 bytes.
                Partition.bothModes(AUDIT, accepted(of(1000, CLEAN, 1008, 1776, 72))));
        return new Gallery.Sample("data-dir",
                "A small healthy data directory (two streams, four partitions, LZ4 JSON payloads, user headers of "
                        + "many kinds, consumer and group offsets, three segments in one partition): every partition "
                        + "accepted clean in both modes.",
                DataDir::build, expected);
    }

    static void build(Path sample) throws IOException {
        ordersLz4(sample.resolve(ORDERS_LZ4));
        ordersPlain(sample.resolve(ORDERS_PLAIN));
        telemetry(sample.resolve(TELEMETRY));
        PartitionWriter.fill(sample.resolve(AUDIT), PartitionWriter.Config.of(3).startOffset(1000)
                .messagesRequiredToSave(3).firstTimestamp(1_717_300_000_000_000L).timestampStep(2_000_000), 9, 3, 64,
                7);
        consumerGroup(sample.resolve(AUDIT), 3, 1004);
    }

    private static void ordersLz4(Path dir) throws IOException {
        byte[] headers = UserHeaders.encode(List.of(
                new Header(UserHeaders.string("content-type"), UserHeaders.string("application/json")),
                new Header(UserHeaders.string(Payloads.COMPRESSION_KEY), UserHeaders.string("lz4")),
                new Header(UserHeaders.string("tenant"), UserHeaders.of(HeaderKind.UINT32, le32(42)))));
        PartitionWriter.Config config = PartitionWriter.Config.of(1).segmentSize(2048).messagesRequiredToSave(4)
                .firstTimestamp(1_717_200_000_000_000L).timestampStep(250_000);
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            for (int batch = 0; batch < 8; batch++) {
                List<Message> messages = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    String order = ORDERS.get((2 * batch + i) % ORDERS.size());
                    messages.add(new Message(w.nextOffset() + i + 1, 0x0190_0000_0000_0001L, 150L * i,
                            Payloads.lz4Compress(order.getBytes(StandardCharsets.UTF_8)), headers));
                }
                w.append(messages);
            }
        }
        consumer(dir, 1, 15);
        consumer(dir, 2, 7);
        consumerGroup(dir, 1, 11);
    }

    private static void ordersPlain(Path dir) throws IOException {
        byte[] headers = UserHeaders.encode(List.of(
                new Header(UserHeaders.string("content-type"), UserHeaders.string("application/json")),
                new Header(UserHeaders.string(Payloads.COMPRESSION_KEY), UserHeaders.string("none"))));
        PartitionWriter.Config config = PartitionWriter.Config.of(2).firstTimestamp(1_717_200_000_100_000L);
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            w.append(plainOrders(w, List.of(0, 1, 2, 3), headers));
            w.flush();
            w.append(plainOrders(w, List.of(2, 3), headers));
        }
        // An offset file from before checksums: 8 bytes, accepted unchecked (F 7).
        Path legacy = dir.resolve("offsets/consumers/1");
        Files.createDirectories(legacy.getParent());
        byte[] bare = new byte[Long.BYTES];
        LittleEndian.putU64(bare, 0, 3);
        Files.write(legacy, bare);
    }

    private static List<Message> plainOrders(PartitionWriter w, List<Integer> which, byte[] headers) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < which.size(); i++) {
            messages.add(new Message(w.nextOffset() + i + 1, 0x0190_0000_0000_0002L, 40L * i,
                    ORDERS.get(which.get(i)).getBytes(StandardCharsets.UTF_8), headers));
        }
        return messages;
    }

    private static void telemetry(Path dir) throws IOException {
        PartitionWriter.Config config = PartitionWriter.Config.of(1).messagesRequiredToSave(1)
                .firstTimestamp(1_717_200_000_200_000L).timestampStep(5_000_000);
        try (PartitionWriter w = new PartitionWriter(dir, config)) {
            for (int k = 0; k < 4; k++) {
                w.append(List.of(new Message(w.nextOffset() + 1, 0x0190_0000_0000_0003L, 0,
                        Payloads.lz4Compress(READINGS.get(k % 2).getBytes(StandardCharsets.UTF_8)),
                        telemetryHeaders(k))));
            }
        }
        consumer(dir, 4, 2);
    }

    /**
     * Ten kinds, sorted by key as the reference encoder writes them; 210 bytes whatever the values:
     * attempt 18, calibrated 21, device 22, iggy-compression 29, offset-c 20, reading-id 36, seq 21, temp 22,
     * x-vendor 21 (kind code 200, unknown but legal on the wire).
     */
    private static byte[] telemetryHeaders(int k) {
        ByteBuffer readingId = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(0x5EED_0000_0000_0000L + k).putLong(0x0000_0000_0000_0190L);
        return UserHeaders.encode(List.of(
                new Header(UserHeaders.string("attempt"),
                        UserHeaders.of(HeaderKind.UINT8, new byte[]{(byte) (1 + k % 2)})),
                new Header(UserHeaders.string("calibrated"),
                        UserHeaders.of(HeaderKind.BOOL, new byte[]{(byte) (k % 2)})),
                new Header(UserHeaders.string("device"), UserHeaders.of(HeaderKind.RAW,
                        new byte[]{0x02, 0x42, (byte) 0xAC, 0x11, 0x00, (byte) (7 + k % 2)})),
                new Header(UserHeaders.string(Payloads.COMPRESSION_KEY), UserHeaders.string("lz4")),
                new Header(UserHeaders.string("offset-c"), UserHeaders.of(HeaderKind.INT16, le16(-35 + k))),
                new Header(UserHeaders.string("reading-id"), UserHeaders.of(HeaderKind.UINT128, readingId.array())),
                new Header(UserHeaders.string("seq"), UserHeaders.of(HeaderKind.UINT64, le64(90_000L + k))),
                new Header(UserHeaders.string("temp"), UserHeaders.of(HeaderKind.FLOAT64,
                        le64(Double.doubleToLongBits(k % 2 == 0 ? 21.5 : 19.0)))),
                new Header(UserHeaders.string("x-vendor"), new UserHeaders.Item(200, new byte[]{1, 2, 3}))));
    }

    private static void consumer(Path partition, int id, long offset) throws IOException {
        writeOffset(partition.resolve("offsets/consumers/" + id), offset);
    }

    private static void consumerGroup(Path partition, int id, long offset) throws IOException {
        writeOffset(partition.resolve("offsets/groups/" + id), offset);
    }

    private static void writeOffset(Path file, long offset) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, ConsumerOffset.encode(offset));
    }

    private static byte[] le16(int v) {
        return new byte[]{(byte) v, (byte) (v >> 8)};
    }

    private static byte[] le32(int v) {
        byte[] out = new byte[4];
        LittleEndian.putU32(out, 0, v);
        return out;
    }

    private static byte[] le64(long v) {
        byte[] out = new byte[8];
        LittleEndian.putU64(out, 0, v);
        return out;
    }
}
