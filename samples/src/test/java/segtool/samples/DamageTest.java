package segtool.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;

class DamageTest {
    @TempDir
    Path dir;

    private Path file(byte[] content) throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, content);
        return f;
    }

    @Test
    void truncate_shortensAndRefusesToExtend() throws IOException {
        Path f = file(new byte[]{1, 2, 3, 4});
        Damage.truncate(f, 2);
        assertArrayEquals(new byte[]{1, 2}, Files.readAllBytes(f));
        assertThrows(IllegalArgumentException.class, () -> Damage.truncate(f, 3));
    }

    @Test
    void appendZerosAndGarbage_growTheFileDeterministically() throws IOException {
        Path f = file(new byte[]{9});
        Damage.appendZeros(f, 3);
        assertArrayEquals(new byte[]{9, 0, 0, 0}, Files.readAllBytes(f));
        Path g = file(new byte[0]);
        Damage.appendGarbage(g, 16, 42);
        byte[] first = Files.readAllBytes(g);
        Damage.truncate(g, 0);
        Damage.appendGarbage(g, 16, 42);
        assertArrayEquals(first, Files.readAllBytes(g));
    }

    @Test
    void flipByteAndOverwrite_changeOnlyTheirBytes() throws IOException {
        Path f = file(new byte[]{0x0F, 0x00, 0x00, 0x00});
        Damage.flipByte(f, 0);
        Damage.overwrite(f, 2, new byte[]{7, 8});
        assertArrayEquals(new byte[]{(byte) 0xF0, 0, 7, 8}, Files.readAllBytes(f));
        assertThrows(IllegalArgumentException.class, () -> Damage.overwrite(f, 3, new byte[]{1, 2}));
    }

    @Test
    void restampBatch_makesAnEditedHeaderVerifyAgain() throws IOException {
        byte[] record = RecordEncoder.encode(1, 4, 10, 9, List.of(Message.of(1, "x".getBytes())));
        Path log = file(record);
        Damage.overwriteU64(log, BatchHeader.BASE_OFFSET_OFFSET, 9);
        Defect broken = Records.verifyAt(Files.readAllBytes(log), 0);
        assertNotNull(broken);
        assertEquals(Defect.Code.BATCH_CHECKSUM_MISMATCH, broken.code());
        Damage.restampBatch(log, 0);
        byte[] fixed = Files.readAllBytes(log);
        assertNull(Records.verifyAt(fixed, 0));
        assertEquals(9, Records.header(fixed, 0).baseOffset());
    }

    @Test
    void indexOperations_appendAndReplaceWholeEntries() throws IOException {
        Path index = file(new byte[0]);
        IndexEntry a = new IndexEntry(0, 1, 0);
        IndexEntry b = new IndexEntry(5, 2, 300);
        Damage.appendIndexEntries(index, a, b);
        assertArrayEquals(IndexFile.encode(List.of(a, b)), Files.readAllBytes(index));
        Damage.replaceIndex(index, List.of(b));
        assertArrayEquals(b.toBytes(), Files.readAllBytes(index));
    }

    @Test
    void writeAnchor_namesTheFileAfterThePlantedStart() throws IOException {
        Path f = Damage.writeAnchor(dir, new AnchorRecord(10, 0, 2));
        assertEquals("00000000000000000010.anchor", f.getFileName().toString());
        // FORMAT 8 vector D: the anchor planted at 10 after a sealed segment 0..=2.
        assertEquals(0xC13217C1FBCB0577L, LittleEndian.u64(Files.readAllBytes(f), 32));
    }
}
