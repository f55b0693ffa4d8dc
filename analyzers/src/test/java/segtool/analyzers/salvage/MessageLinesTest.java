package segtool.analyzers.salvage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.log.Message;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.formats.payload.UserHeaders.Header;
import segtool.formats.payload.UserHeaders.Item;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/**
 * messages.ndjson round-trips: a decoder written from docs/salvage.md turns every line back into the id, offset,
 * user-header bytes and plain payload the writer was given, for every header kind, LZ4 and binary payloads, and
 * messages past damage.
 */
class MessageLinesTest {
    @TempDir
    Path tmp;

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Item item(HeaderKind k, byte[] b) {
        return UserHeaders.of(k, b);
    }

    /** One header of every kind, and the shapes that have no exact typed form. */
    static List<Header> everyKind(int seed) {
        Random r = new Random(seed);
        List<Header> h = new ArrayList<>();
        h.add(new Header(UserHeaders.string("s"), UserHeaders.string("text ü " + seed)));
        h.add(new Header(UserHeaders.string("b"), item(HeaderKind.BOOL, new byte[]{(byte) (seed & 1)})));
        h.add(new Header(UserHeaders.string("i8"), item(HeaderKind.INT8, new byte[]{(byte) -5})));
        h.add(new Header(UserHeaders.string("i16"), item(HeaderKind.INT16, le(2).putShort((short) -300).array())));
        h.add(new Header(UserHeaders.string("i32"), item(HeaderKind.INT32, le(4).putInt(-70000).array())));
        h.add(new Header(UserHeaders.string("i64"), item(HeaderKind.INT64, le(8).putLong(Long.MIN_VALUE + seed)
                .array())));
        h.add(new Header(UserHeaders.string("u8"), item(HeaderKind.UINT8, new byte[]{(byte) 250})));
        h.add(new Header(UserHeaders.string("u16"), item(HeaderKind.UINT16, le(2).putShort((short) 65000).array())));
        h.add(new Header(UserHeaders.string("u32"), item(HeaderKind.UINT32, le(4).putInt(-2).array())));
        h.add(new Header(UserHeaders.string("u64"), item(HeaderKind.UINT64, le(8).putLong(-1L - seed).array())));
        byte[] i128 = new byte[16];
        r.nextBytes(i128);
        h.add(new Header(UserHeaders.string("i128"), item(HeaderKind.INT128, i128)));
        h.add(new Header(UserHeaders.string("u128"), item(HeaderKind.UINT128, i128.clone())));
        h.add(new Header(UserHeaders.string("f32"), item(HeaderKind.FLOAT32, le(4).putFloat(3.14159f).array())));
        h.add(new Header(UserHeaders.string("f64"), item(HeaderKind.FLOAT64, le(8).putDouble(-2.5e-300).array())));
        h.add(new Header(UserHeaders.string("nan"), item(HeaderKind.FLOAT64, le(8).putLong(0x7ff8000000000123L)
                .array())));
        byte[] raw = new byte[7];
        r.nextBytes(raw);
        h.add(new Header(UserHeaders.string("raw"), item(HeaderKind.RAW, raw)));
        h.add(new Header(UserHeaders.string("odd"), new Item(200, new byte[]{1, 2, 3})));
        h.add(new Header(UserHeaders.string("short-u32"), item(HeaderKind.UINT32, new byte[]{1, 2})));
        h.add(new Header(item(HeaderKind.UINT8, new byte[]{9}), UserHeaders.of(HeaderKind.STRING,
                new byte[]{(byte) 0xff, (byte) 0xfe})));
        return h;
    }

    /** The decoder a replaying producer would write, from docs/salvage.md: one typed item back to its bytes. */
    static Item decodeItem(JsonNode j) {
        String kind = j.get("kind").asText();
        if (j.has("base64")) {
            int code = j.has("code") ? j.get("code").asInt() : HeaderKind.valueOf(kind.toUpperCase()).code();
            return new Item(code, Base64.getDecoder().decode(j.get("base64").asText()));
        }
        HeaderKind k = HeaderKind.valueOf(kind.toUpperCase());
        JsonNode v = j.get("value");
        byte[] b = switch (k) {
            case STRING -> v.asText().getBytes(StandardCharsets.UTF_8);
            case BOOL -> new byte[]{(byte) (v.asBoolean() ? 1 : 0)};
            case INT8, UINT8 -> new byte[]{(byte) v.asInt()};
            case INT16, UINT16 -> le(2).putShort((short) v.asInt()).array();
            case INT32, UINT32 -> le(4).putInt((int) v.asLong()).array();
            case INT64, UINT64 -> le(8).putLong(new BigInteger(v.asText()).longValue()).array();
            case INT128, UINT128 -> toLe128(new BigInteger(v.asText()));
            case FLOAT32 -> le(4).putFloat(Float.parseFloat(v.asText())).array();
            case FLOAT64 -> le(8).putDouble(Double.parseDouble(v.asText())).array();
            default -> throw new AssertionError(kind);
        };
        return new Item(k.code(), b);
    }

    private static byte[] toLe128(BigInteger v) {
        byte[] be = v.toByteArray();
        byte[] out = new byte[16];
        byte fill = (byte) (v.signum() < 0 ? 0xff : 0);
        for (int i = 0; i < 16; i++) {
            int src = be.length - 1 - i;
            out[i] = src >= 0 ? be[src] : fill;
        }
        return out;
    }

    @Test
    void everyMessage_roundTripsToWhatTheWriterWrote() throws IOException {
        Path p = tmp.resolve("d/streams/1/topics/1/partitions/1");
        List<Message> written = new ArrayList<>();
        List<byte[]> plain = new ArrayList<>();
        Random r = new Random(5);
        try (PartitionWriter w = new PartitionWriter(p, PartitionWriter.Config.of(1).messagesRequiredToSave(1))) {
            for (int batch = 0; batch < 6; batch++) {
                List<Message> ms = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    int n = batch * 3 + i;
                    List<Header> headers = everyKind(n);
                    byte[] payload;
                    byte[] stored;
                    if (n % 3 == 0) {
                        payload = ("replay me " + n + " ✓").repeat(20).getBytes(StandardCharsets.UTF_8);
                        headers.add(new Header(UserHeaders.string(Payloads.COMPRESSION_KEY),
                                UserHeaders.string("lz4")));
                        stored = Payloads.lz4Compress(payload);
                    } else if (n % 3 == 1) {
                        payload = new byte[100 + n];
                        r.nextBytes(payload);
                        stored = payload;
                    } else {
                        payload = ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
                        stored = payload;
                    }
                    Message m = new Message(r.nextLong(), r.nextLong(), n * 7L, stored, UserHeaders.encode(headers));
                    ms.add(m);
                    written.add(m);
                    plain.add(payload);
                }
                w.append(ms);
            }
        }
        // damage batch 2's header so batches 3..5 are found past damage
        long b2 = batchPosition(p, 2);
        Damage.flipByte(SegmentFiles.log(p, 0), b2 + 60);

        Path out = tmp.resolve("out");
        new Salvager(Salvager.Options.defaults("t").withMessages(true)).salvage(PartitionPath.of(p), out,
                new ArrayList<>());
        List<JsonNode> lines = SalvagerTest.lines(out.resolve(Salvager.MESSAGES_NDJSON));
        assertEquals(15, lines.size(), "batch 2's three messages are not exported");
        int k = 0;
        for (int n = 0; n < written.size(); n++) {
            if (n / 3 == 2) {
                continue;
            }
            JsonNode line = lines.get(k++);
            Message m = written.get(n);
            assertEquals(n, line.get("offset").asLong());
            assertEquals(new BigInteger(1, ByteBuffer.allocate(16).putLong(m.idHigh()).putLong(m.idLow()).array())
                    .toString(), line.get("id").asText());
            assertTrue(line.get("verified").asBoolean());
            List<Header> decoded = new ArrayList<>();
            for (JsonNode h : line.get("headers")) {
                decoded.add(new Header(decodeItem(h.get("key")), decodeItem(h.get("value"))));
            }
            assertArrayEquals(m.userHeaders(), UserHeaders.encode(decoded), "headers of message " + n);
            byte[] payload = line.get("payload_encoding").asText().equals("utf8")
                    ? line.get("payload").asText().getBytes(StandardCharsets.UTF_8)
                    : Base64.getDecoder().decode(line.get("payload").asText());
            assertArrayEquals(plain.get(n), payload, "payload of message " + n);
            assertEquals(n % 3 == 0 ? "lz4" : "none", line.get("compression").asText());
            assertEquals(n % 3 == 1 ? "base64" : "utf8", line.get("payload_encoding").asText());
        }
    }

    private static long batchPosition(Path p, int index) throws IOException {
        long pos = 0;
        byte[] log = java.nio.file.Files.readAllBytes(SegmentFiles.log(p, 0));
        for (int i = 0; i < index; i++) {
            pos += ByteBuffer.wrap(log, (int) pos + 32, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
        return pos;
    }
}
