package segtool.analyzers.inputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;
import segtool.formats.log.Message;
import segtool.formats.writer.PartitionWriter;

/**
 * Issue 11 item 7: a partition of the generation before the batch format (bare messages with 64-byte headers, a
 * 16-byte index) is refused with an explanation by the inputs every verdict command resolves, never judged as damage;
 * a batch-format partition, damaged or not, is never taken for one.
 */
class OlderGenerationTest {
    @TempDir
    Path dir;

    /** One older-generation message: the 64-byte header of {@code LegacyMessage}'s layout, then the payload. */
    static byte[] message(long offset, byte[] payload, int headersLength) {
        ByteBuffer b = ByteBuffer.allocate(64 + payload.length + headersLength).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0x1234_5678_9abc_def0L ^ offset); // checksum (not checked by the recogniser)
        b.putLong(offset * 31 + 7).putLong(0); // id
        b.putLong(offset);
        b.putLong(1_700_000_000_000_000L + offset).putLong(1_700_000_000_000_000L);
        b.putInt(headersLength).putInt(payload.length).putLong(0);
        b.put(payload);
        return b.array();
    }

    static byte[] log(long start, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(message(start + i, ("message " + i).getBytes(), i % 2 == 0 ? 0 : 5));
        }
        return out.toByteArray();
    }

    static byte[] index(int entries) {
        ByteBuffer b = ByteBuffer.allocate(16 * entries).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < entries; i++) {
            b.putInt(i).putInt(i * 80).putLong(1_700_000_000_000_000L + i);
        }
        return b.array();
    }

    @Test
    void aChainOfOlderMessagesIsRecognisedWithItsIndex() throws Exception {
        Files.write(dir.resolve("00000000000000000100.log"), log(100, 5));
        Files.write(dir.resolve("00000000000000000100.index"), index(5)); // 80 bytes: 16-byte entries, not 24
        String line = OlderGeneration.sniff(dir);
        assertNotNull(line);
        assertTrue(line.startsWith(dir.resolve("00000000000000000100.log") + ": an older generation"), line);
        assertTrue(line.contains("offsets 100..103, ...)"), line);
        assertTrue(line.contains("its .index is 80 bytes"), line);
    }

    @Test
    void aSingleMessageIsNeverEnough() throws Exception {
        Files.write(dir.resolve("00000000000000000000.log"), log(0, 1));
        assertNull(OlderGeneration.sniff(dir));
    }

    @Test
    void aLargeFirstMessageDoesNotHideTheNext() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(message(0, new byte[70_000], 0));
        out.writeBytes(message(1, new byte[100], 0));
        out.writeBytes(message(2, new byte[100], 0));
        Files.write(dir.resolve("00000000000000000000.log"), out.toByteArray());
        Files.write(dir.resolve("00000000000000000000.index"), index(1));
        String line = OlderGeneration.sniff(dir);
        assertNotNull(line);
        assertTrue(line.contains("offsets 0..2)"), line);
    }

    @Test
    void timestampsThatAreNotMicrosecondsOrGoBackAreNotEvidence() throws Exception {
        byte[] a = message(0, "a".getBytes(), 0);
        byte[] b = message(1, "b".getBytes(), 0);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 1_600_000_000_000_000L); // before a's
        Files.write(dir.resolve("00000000000000000000.log"), concat(a, b));
        assertNull(OlderGeneration.sniff(dir));
        ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 19_500); // a batch_length, not a time
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 1_700_000_000_000_001L);
        Files.write(dir.resolve("00000000000000000000.log"), concat(a, b));
        assertNull(OlderGeneration.sniff(dir));
    }

    @Test
    void aBatchFormatLaterSegmentOrAnIndexOfAnotherStrideRulesItOut() throws Exception {
        Files.write(dir.resolve("00000000000000000000.log"), log(0, 3));
        Files.write(dir.resolve("00000000000000000000.index"), new byte[24]); // a torn current entry would be 24
        assertNull(OlderGeneration.sniff(dir));
        Files.write(dir.resolve("00000000000000000000.index"), index(2));
        assertNotNull(OlderGeneration.sniff(dir));
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).startOffset(3))) {
            w.append(java.util.List.of(Message.of(9, "batch".getBytes())));
        }
        assertNull(OlderGeneration.sniff(dir), "segment 3 is batch format: segment 0 is damage, not history");
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void theFirstSegmentDecides() throws Exception {
        Files.write(dir.resolve("00000000000000000007.log"), log(7, 3));
        Files.write(dir.resolve("00000000000000000050.log"), new byte[300]);
        assertTrue(OlderGeneration.sniff(dir).contains("offsets 7..9)"));
    }

    @Test
    void aSingleMessageWithBytesAfterItIsNotEvidence() throws Exception {
        byte[] one = log(0, 1);
        byte[] torn = new byte[one.length + 40];
        System.arraycopy(one, 0, torn, 0, one.length);
        Files.write(dir.resolve("00000000000000000000.log"), torn);
        assertNull(OlderGeneration.sniff(dir));
    }

    @Test
    void offsetsThatDoNotChainAreNotEvidence() throws Exception {
        byte[] a = message(0, "a".getBytes(), 0);
        byte[] b = message(5, "b".getBytes(), 0); // 5, not 1
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        Files.write(dir.resolve("00000000000000000000.log"), both);
        assertNull(OlderGeneration.sniff(dir));
    }

    @Test
    void aBatchFormatPartitionIsNotTakenForOne() throws Exception {
        // origin_timestamp 0 at segment 0 puts the older header's offset word (bytes 24-32) at the start offset:
        // the batch header that decodes, and the zero reserved bytes after it, keep it apart
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1))) {
            long t = 1_700_000_000_000_000L;
            for (int i = 0; i < 4; i++) {
                w.append(java.util.List.of(Message.of(i + 1, ("m" + i).getBytes())), t + i, 0);
            }
        }
        assertNull(OlderGeneration.sniff(dir));
    }

    @Test
    void aBatchLogWithItsHeaderZeroedIsDamageNotAnOlderGeneration() throws Exception {
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1))) {
            for (int i = 0; i < 3; i++) {
                w.append(java.util.List.of(Message.of(i + 1, ("m" + i).getBytes())));
            }
        }
        Path log = dir.resolve("00000000000000000000.log");
        byte[] whole = Files.readAllBytes(log);
        for (int torn : new int[] {64, 67, 100, 300}) { // a first batch torn short (origin_timestamp 0 at S = 0)
            Files.write(log, java.util.Arrays.copyOf(whole, torn));
            assertNull(OlderGeneration.sniff(dir), "torn at " + torn);
        }
        Files.write(log, new byte[64]);
        assertNull(OlderGeneration.sniff(dir), "64 zero bytes");
        Files.write(log, whole);
        for (int zeroed : new int[] {64, 128, 256}) {
            byte[] b = Files.readAllBytes(log);
            java.util.Arrays.fill(b, 0, zeroed, (byte) 0);
            Files.write(log, b);
            assertNull(OlderGeneration.sniff(dir), zeroed + " bytes zeroed");
        }
    }

    @Test
    void aLargeBatchWithADamagedHeaderIsNotTakenForOne() throws Exception {
        // 300 frames: with message_count >= 192 the second older header would fall in the blob, where a frame's
        // offset_delta (u32 at +24, timestamp_delta 0 above it) reads as the offset 1, 2, 3...
        java.util.List<Message> ms = new java.util.ArrayList<>();
        ms.add(Message.of(1, new byte[60]));
        for (int i = 1; i < 300; i++) {
            ms.add(Message.of(i + 1, new byte[16]));
        }
        try (PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(0))) {
            w.append(ms, 1_700_000_000_000_000L, 0);
        }
        Path log = dir.resolve("00000000000000000000.log");
        byte[] b = Files.readAllBytes(log);
        for (int at : new int[] {52, 100, 255}) {
            byte[] d = b.clone();
            d[at] ^= 1; // a reserved byte: the header no longer decodes
            Files.write(log, d);
            assertNull(OlderGeneration.sniff(dir), "bit flipped at " + at);
        }
    }

    @Test
    void damageIsNotTakenForAnOlderGeneration() throws Exception {
        Random r = new Random(11);
        for (int trial = 0; trial < 2000; trial++) {
            byte[] junk = new byte[64 + r.nextInt(4000)];
            r.nextBytes(junk);
            if (trial % 3 == 0) {
                java.util.Arrays.fill(junk, 56, 64, (byte) 0); // a zero reserved word, as the older header has
            }
            Files.write(dir.resolve("00000000000000000000.log"), junk);
            assertNull(OlderGeneration.sniff(dir), "trial " + trial);
        }
    }

    @Test
    void theInputsRefuseItSoNoVerdictCommandJudgesIt() throws Exception {
        Path p = dir.resolve("streams/1/topics/1/partitions/1");
        Files.createDirectories(p);
        Files.write(p.resolve("00000000000000000000.log"), log(0, 3));
        PartitionInputs in = new InputsResolver(InputsResolver.CommandLine.none()).resolve(PartitionPath.of(p));
        assertEquals(PartitionInputs.Refusal.UNDECIDED, in.refusal());
        assertTrue(in.refusalLine().contains("an older generation of the segment format"), in.refusalLine());
    }

    @Test
    void noSegmentsOrNoDirectoryIsNothing() throws Exception {
        assertNull(OlderGeneration.sniff(dir));
        assertNull(OlderGeneration.sniff(dir.resolve("missing")));
    }
}
