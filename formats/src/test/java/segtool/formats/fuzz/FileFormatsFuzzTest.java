package segtool.formats.fuzz;

import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.hash.Xxh3;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.offsets.ConsumerOffset;

/**
 * The small files: {@code .index} (F 3.1), {@code .anchor} (F 6) and consumer offsets (F 7). Each decodes every
 * byte string without throwing, and whatever decodes encodes back to the bytes it came from.
 */
class FileFormatsFuzzTest {
    /** Index inputs are read, through the window the CLI reads files with, as the content of this file. */
    private static final Path INDEX = Path.of("00000000000000000000.index");

    /** Index files: floor(length / 24) entries, the trailing bytes counted, every entry its 24 bytes. */
    @FuzzTest(maxDuration = "12h")
    void index(byte[] data) throws IOException {
        try (IndexFile index = IndexFile.of(INDEX, data)) {
            check(index.length() == data.length, "length");
            check(index.entries() == data.length / IndexEntry.LENGTH, "entries");
            check(index.trailingBytes() == data.length % IndexEntry.LENGTH, "trailing bytes");
            List<IndexEntry> entries = new ArrayList<>();
            for (long i = 0; i < index.entries(); i++) {
                IndexEntry e = index.entry(i);
                long n = i;
                int at = (int) i * IndexEntry.LENGTH;
                check(e.equals(IndexEntry.read(ByteBuffer.wrap(data), at)), () -> "entry " + n
                        + " read through the window");
                check(Arrays.equals(e.toBytes(), Arrays.copyOfRange(data, at, at + IndexEntry.LENGTH)),
                        () -> "entry " + n + " does not encode back");
                entries.add(e);
            }
            byte[] again = IndexFile.encode(entries);
            check(Arrays.equals(again, Arrays.copyOf(data, (int) index.entries() * IndexEntry.LENGTH)),
                    "entries do not encode back to the file");
            for (long i : new long[]{-1, index.entries(), Long.MAX_VALUE}) {
                try {
                    index.entry(i);
                    throw new AssertionError("entry " + i + " of " + index.entries() + " was read");
                } catch (IndexOutOfBoundsException expected) {
                    // documented
                }
            }
        }
    }

    /** Anchors: valid exactly when 40 bytes, the magic and the checksum hold; a valid one encodes back. */
    @FuzzTest(maxDuration = "12h")
    void anchor(byte[] data) {
        String problem = AnchorRecord.problem(data);
        AnchorRecord a = AnchorRecord.decode(data);
        check((problem == null) == (a != null), () -> "problem " + problem + " but decoded " + a);
        boolean valid = data.length == AnchorRecord.LENGTH && LittleEndian.u64(data, 0) == AnchorRecord.MAGIC
                && LittleEndian.u64(data, AnchorRecord.CHECKSUM_OFFSET) == Xxh3.hash(data, 0, 32);
        check(valid == (a != null), () -> "decoded " + a + " from bytes that are " + (valid ? "" : "not ")
                + "an anchor");
        if (a != null) {
            check(Arrays.equals(a.encode(), data), "anchor does not encode back");
        }
        if (data.length >= 24) {
            AnchorRecord made = new AnchorRecord(LittleEndian.u64(data, 0), LittleEndian.u64(data, 8),
                    LittleEndian.u64(data, 16));
            check(made.equals(AnchorRecord.decode(made.encode())), () -> "encode -> decode changes " + made);
        }
    }

    /** Consumer offsets: torn below 8 bytes, legacy below 16, else checksummed or corrupt by the XXH3. */
    @FuzzTest(maxDuration = "12h")
    void consumerOffset(byte[] data) {
        ConsumerOffset o = ConsumerOffset.decode(data);
        if (data.length < 8) {
            check(o.kind() == ConsumerOffset.Kind.TORN, () -> "kind " + o);
            return;
        }
        long offset = LittleEndian.u64(data, 0);
        check(o.offset() == offset, "offset");
        if (data.length < 16) {
            check(o.kind() == ConsumerOffset.Kind.LEGACY, () -> "kind " + o);
            return;
        }
        boolean sums = LittleEndian.u64(data, 8) == Xxh3.hash(data, 0, 8);
        check(o.kind() == (sums ? ConsumerOffset.Kind.CHECKSUMMED : ConsumerOffset.Kind.CORRUPT), () -> "kind " + o);
        if (sums) {
            check(Arrays.equals(ConsumerOffset.encode(offset), Arrays.copyOf(data, 16)), "does not encode back");
        }
        check(ConsumerOffset.decode(ConsumerOffset.encode(offset)).equals(
                new ConsumerOffset(ConsumerOffset.Kind.CHECKSUMMED, offset)), "encode -> decode");
    }
}
