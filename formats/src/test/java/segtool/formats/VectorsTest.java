package segtool.formats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.hash.Xxh3;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;
import segtool.formats.offsets.ConsumerOffset;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;

class VectorsTest {
    private final RecordVerifier verifier = new RecordVerifier();

    private Defect verify(byte[] record) throws IOException {
        return verifier.verify(ByteBuffer.wrap(record), 0, record.length, 0);
    }

    @Test
    void emptyString_hashesToSpecValue() {
        assertEquals(0x2D06800538D394C2L, Xxh3.hash(new byte[0]));
    }

    @Test
    void vectorA_encodesByteForByte() throws IOException {
        assertArrayEquals(Vectors.hex(Vectors.A_HEX), Vectors.a());
        assertEquals(315, Vectors.a().length);
        assertEquals(0x18EDB3CCC3CA538FL, LittleEndian.u64(Vectors.a(), 256));
        assertEquals(0x3879BF7FFB9EFF19L, LittleEndian.u64(Vectors.a(), 40));
        assertNull(verify(Vectors.a()));
    }

    @Test
    void vectorA_negativeChecks() throws IOException {
        byte[] offsetFlip = Vectors.a();
        offsetFlip[8] ^= 0x04;
        Defect d = verify(offsetFlip);
        assertEquals(Defect.Code.BATCH_CHECKSUM_MISMATCH, d.code());
        assertEquals(0x3879BF7FFB9EFF19L, d.expected());

        byte[] payloadFlip = Vectors.a();
        payloadFlip[314] ^= 0x01;
        d = verify(payloadFlip);
        assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, d.code());
        assertEquals(256, d.position());
        assertEquals(0, d.index());
        assertEquals(0x18EDB3CCC3CA538FL, d.expected());

        byte[] reserved = Vectors.a();
        reserved[60] = 1;
        d = verify(reserved);
        assertEquals(Defect.Code.RESERVED_NOT_ZERO, d.code());
        assertEquals(60, d.position());
        assertEquals(false, BatchHeader.decodes(ByteBuffer.wrap(reserved), 0));
    }

    @Test
    void vectorB_encodesByteForByte() throws IOException {
        byte[] b = Vectors.b();
        assertArrayEquals(Vectors.hex(Vectors.B_HEX), b);
        assertEquals(467, b.length);
        assertEquals(0xBBE9AAABF88E3949L, LittleEndian.u64(b, 256));
        assertEquals(0x081AC41C6F701FDDL, LittleEndian.u64(b, 309));
        assertEquals(0x6E8A2CEC937B6941L, LittleEndian.u64(b, 387));
        assertEquals(0x66EA730CD6D6F3D2L, LittleEndian.u64(b, 40));
        assertNull(verify(b));
        assertEquals("020800000074726163652d69640206000000616263313233",
                HexFormat.of().formatHex(b, 309 + 48 + 6, 309 + 48 + 6 + 24));
    }

    @Test
    void vectorB_userHeadersDecodeTyped() {
        byte[] section = HexFormat.of().parseHex("02010000006103010000000102010000007a0b0400000007000000");
        UserHeaders.Decoded d = UserHeaders.decode(section);
        assertNull(d.problem());
        assertEquals(2, d.headers().size());
        assertEquals("a", d.headers().get(0).key().display());
        assertEquals("true", d.headers().get(0).value().display());
        assertEquals("uint32", d.headers().get(1).value().kindName());
        assertEquals("7", d.headers().get(1).value().display());
    }

    @Test
    void vectorC_encodesAndDecompresses() throws IOException {
        byte[] c = Vectors.c();
        assertArrayEquals(Vectors.hex(Vectors.C_HEX), c);
        assertEquals(363, c.length);
        assertEquals(0xE949C314644C1118L, LittleEndian.u64(c, 256));
        assertEquals(0xD0C31C403A898EC2L, LittleEndian.u64(c, 40));
        assertNull(verify(c));
        byte[] frame = java.util.Arrays.copyOfRange(c, 304, 334);
        assertEquals("iggy ".repeat(20), new String(Payloads.lz4Decompress(frame, 1000)));
        UserHeaders.Decoded h = UserHeaders.decode(java.util.Arrays.copyOfRange(c, 334, 363));
        assertEquals("lz4", Payloads.compression(h.headers()));
    }

    @Test
    void vectorC_decompressionCapRefusesBomb() {
        byte[] bomb = Payloads.lz4Compress(new byte[1 << 20]);
        Payloads.DecodeException e = org.junit.jupiter.api.Assertions.assertThrows(
                Payloads.DecodeException.class, () -> Payloads.lz4Decompress(bomb, 1000));
        assertEquals("lz4 payload decompresses past 1000 bytes", e.getMessage());
    }

    @Test
    void vectorD_indexAnchorOffsetAndEmptyBatch() throws IOException {
        byte[] index = IndexFile.encode(List.of(new IndexEntry(0, Vectors.TA, 0), new IndexEntry(1, Vectors.TB, 315),
                new IndexEntry(4, Vectors.TC, 782)));
        assertArrayEquals(Vectors.hex("0000000000000000 00401e18240a0600 0000000000000000"
                + "0100000000000000 7b401e18240a0600 3b01000000000000"
                + "0400000000000000 c8411e18240a0600 0e03000000000000"), index);

        byte[] anchor = new AnchorRecord(10, 0, 2).encode();
        assertArrayEquals(Vectors.hex("49474759414e4348 0a00000000000000 0000000000000000 0200000000000000 "
                + "7705cbfbc11732c1"), anchor);
        assertEquals(new AnchorRecord(10, 0, 2), AnchorRecord.decode(anchor));
        anchor[39] ^= 1;
        assertNull(AnchorRecord.decode(anchor));

        assertArrayEquals(Vectors.hex("2a00000000000000 c827df38c8f8a6d5"), ConsumerOffset.encode(42));
        assertEquals(new ConsumerOffset(ConsumerOffset.Kind.CHECKSUMMED, 42),
                ConsumerOffset.decode(ConsumerOffset.encode(42)));

        byte[] empty = RecordEncoder.encode(1, 5, 1_700_000_000_000_789L, 0, List.of());
        assertEquals(256, empty.length);
        assertEquals(0xE03DCB8EB517A6CDL, LittleEndian.u64(empty, 40));
        assertNull(verify(empty));
        assertEquals(0xE03DCB8EB517A6CDL, Xxh3.hash(Vectors.hex(
                "0100000000000000 0500000000000000 15431e18240a0600 0000000000000000 0001000000000000 00000000")));
    }
}
