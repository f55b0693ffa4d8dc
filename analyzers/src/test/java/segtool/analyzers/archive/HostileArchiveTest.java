package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Archives an attacker or a broken copy could hand over, each refused in one line and leaving nothing behind. */
class HostileArchiveTest {
    private static final String LOG = "part/00000000000000000000.log";
    private static final int MIB = 1 << 20;

    @TempDir Path tmp;
    private Path extractions;
    private byte[] payload;

    @BeforeEach
    void setUp() throws IOException {
        // Extract two levels below tmp, so a "../../evil" entry would land on tmp/evil.
        extractions = Files.createDirectories(tmp.resolve("extractions"));
        payload = new byte[1000];
        new Random(5).nextBytes(payload);
    }

    static Stream<Arguments> hostileEntries() {
        return Stream.of(
                hostile("absolute path", "/tmp/segtool-evil", "absolute path",
                        t -> t.file("/tmp/segtool-evil", "x")),
                hostile("dot-dot file", "part/../../evil", "'..' component", t -> t.file("part/../../evil", "x")),
                hostile("dot-dot directory", "../evil/", "'..' component", t -> t.dir("../evil/")),
                hostile("backslash", "part\\..\\..\\evil", "backslash", t -> t.file("part\\..\\..\\evil", "x")),
                hostile("symlink outside", "part/link", "symbolic link to '../../etc' resolves outside",
                        t -> t.entry(link("part/link", TarConstants.LF_SYMLINK, "../../etc"), new byte[0])),
                hostile("absolute symlink", "part/passwd", "symbolic link to '/etc/passwd' resolves outside",
                        t -> t.entry(link("part/passwd", TarConstants.LF_SYMLINK, "/etc/passwd"), new byte[0])),
                hostile("symlink inside", "part/current", "links are never extracted",
                        t -> t.entry(link("part/current", TarConstants.LF_SYMLINK, "00000000000000000000.log"),
                                new byte[0])),
                hostile("hard link outside", "part/hard", "hard link to '/etc/shadow' resolves outside",
                        t -> t.entry(link("part/hard", TarConstants.LF_LINK, "/etc/shadow"), new byte[0])),
                hostile("hard link to no earlier file", "part/hard", "hard link to 'part/later', which is not an "
                        + "earlier file entry of the archive",
                        t -> t.entry(link("part/hard", TarConstants.LF_LINK, "part/later"), new byte[0])),
                hostile("hard link to a directory", "part/hard", "which is not an earlier file entry",
                        t -> t.entry(link("part/hard", TarConstants.LF_LINK, "part"), new byte[0])),
                hostile("character device", "part/tty", "character device",
                        t -> t.entry(Fixtures.typed("part/tty", TarConstants.LF_CHR), new byte[0])),
                hostile("block device", "part/sda", "block device",
                        t -> t.entry(Fixtures.typed("part/sda", TarConstants.LF_BLK), new byte[0])),
                hostile("fifo", "part/pipe", "FIFO",
                        t -> t.entry(Fixtures.typed("part/pipe", TarConstants.LF_FIFO), new byte[0])),
                hostile("sparse", "part/holes", "sparse entry",
                        t -> t.entry(Fixtures.typed("part/holes", TarConstants.LF_GNUTYPE_SPARSE), new byte[0])),
                hostile("unknown type", "part/volume", "unsupported entry type 'V'",
                        t -> t.entry(Fixtures.typed("part/volume", (byte) 'V'), new byte[0])),
                hostile("duplicate file", LOG, "duplicate entry", t -> t.file(LOG, "second copy")),
                hostile("directory under a file", LOG + "/sub/", "conflicts with an earlier file entry",
                        t -> t.dir(LOG + "/sub/")));
    }

    private static Arguments hostile(String label, String entry, String reason, Consumer<Fixtures.TarBuilder> add) {
        return Arguments.of(label, entry, reason, add);
    }

    private static TarArchiveEntry link(String name, byte type, String target) {
        TarArchiveEntry e = Fixtures.typed(name, type);
        e.setLinkName(target);
        return e;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileEntries")
    void hostileEntry_refusedNamingArchiveEntryAndPosition(String label, String entry, String reason,
                                                             Consumer<Fixtures.TarBuilder> add) throws IOException {
        Fixtures.TarBuilder tar = new Fixtures.TarBuilder().dir("part/").file(LOG, payload);
        long at = tar.position();
        add.accept(tar);
        tar.file("part/after", "never reached");
        Path archive = Files.write(tmp.resolve("hostile.tar"), tar.bytes());

        DumpException e = assertRefused(archive, Limits.DEFAULT);

        String m = e.getMessage();
        assertTrue(m.startsWith(archive + ": entry '" + DumpException.printable(entry) + "' at byte " + at + ": "), m);
        assertTrue(m.contains(reason), m);
        assertEquals(entry, e.entry());
        assertEquals(at, e.tarPosition());
        assertFalse(Files.exists(tmp.resolve("evil"), LinkOption.NOFOLLOW_LINKS), "nothing written outside");
        assertFalse(Files.exists(Path.of("/tmp/segtool-evil"), LinkOption.NOFOLLOW_LINKS), "nothing absolute");
    }

    /** tar archives a WAL's retained segment link as a hard-link entry to the segment: opened, as the same inode. */
    @Test
    void hardLinkToAnEarlierFileOfTheArchive_isExtractedAsALinkToIt() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().dir("part/").file(LOG, payload).dir("part/prepares-1/")
                .entry(link("part/prepares-1/segment-0-0.log", TarConstants.LF_LINK, LOG), new byte[0]).bytes();
        Path archive = Files.write(tmp.resolve("wal-link.tar"), tar);
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            Path copy = dump.extractionDirectory().resolve("part/prepares-1/segment-0-0.log");
            assertArrayEquals(payload, Files.readAllBytes(copy));
            assertArrayEquals(payload, Files.readAllBytes(dump.extractionDirectory().resolve(LOG)));
            assertEquals(2, ((Number) Files.getAttribute(copy, "unix:nlink")).intValue(), "one inode, two names");
            assertTrue(Files.isSameFile(copy, dump.extractionDirectory().resolve(LOG)));
        }
    }

    /**
     * An absolute name carried in a GNU long-name record reaches segtool already relative: commons-compress strips
     * the leading '/' while applying the record. Documented rather than refused; what matters is where it lands.
     */
    @Test
    void absoluteLongName_normalisedByParser_landsInsideTheRoot() throws IOException {
        String longName = "/tmp/segtool-evil-" + "x".repeat(120);
        byte[] tar = new Fixtures.TarBuilder().file(longName, "x").bytes();
        Path archive = Files.write(tmp.resolve("long-absolute.tar"), tar);
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertTrue(Files.isRegularFile(dump.extractionDirectory().resolve(longName.substring(1))));
        }
        assertFalse(Files.exists(Path.of(longName)));
    }

    @Test
    void hostileEntryInLz4_messageGivesTarAndArchivePositions() throws IOException {
        Fixtures.TarBuilder tar = new Fixtures.TarBuilder().dir("part/").file(LOG, payload);
        long at = tar.position();
        tar.entry(link("part/link", TarConstants.LF_SYMLINK, "../../../root"), new byte[0]);
        Path archive = Files.write(tmp.resolve("hostile.tar.lz4"), Fixtures.lz4(tar.bytes()));

        DumpException e = assertRefused(archive, Limits.DEFAULT);

        assertTrue(e.getMessage().contains("entry 'part/link' at tar byte " + at + " (archive byte ~"), e.getMessage());
        assertTrue(e.archivePosition() > 0 && e.archivePosition() <= Files.size(archive), e::getMessage);
    }

    @Test
    void controlCharactersInName_escapedToKeepOneLine() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().file("part/\n../../evil", "x").bytes();
        Path archive = Files.write(tmp.resolve("newline.tar"), tar);
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("'part/\\u000a../../evil'"), e.getMessage());
    }

    @Test
    void truncatedInsideData_refused() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().dir("part/").file(LOG, payload).bytes();
        Path archive = Files.write(tmp.resolve("cut.tar"), Arrays.copyOf(tar, 512 + 512 + 600));
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("entry '" + LOG + "'") && e.getMessage().contains("truncated or corrupt tar"),
                e.getMessage());
    }

    @Test
    void truncatedAtEntryBoundary_refusedForMissingEndMarker() throws IOException {
        Fixtures.TarBuilder builder = new Fixtures.TarBuilder().dir("part/").file(LOG, payload);
        long end = builder.position();
        Path archive = Files.write(tmp.resolve("cut.tar"), Arrays.copyOf(builder.bytes(), (int) end));
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("at byte " + end + ": archive ends without the tar end-of-archive marker"),
                e.getMessage());
    }

    @Test
    void truncatedLz4Frame_refused() throws IOException {
        byte[] random = new byte[200_000];
        new Random(8).nextBytes(random);
        byte[] lz4 = Fixtures.lz4(new Fixtures.TarBuilder().dir("part/").file(LOG, random).bytes());
        Path archive = Files.write(tmp.resolve("cut.tar.lz4"), Arrays.copyOf(lz4, lz4.length / 2));
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("truncated or corrupt LZ4 frame: Stream ended prematurely"), e.getMessage());
    }

    @Test
    void corruptLz4Block_refused() throws IOException {
        byte[] text = new byte[300_000];
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + i % 7 + (i / 1000) % 3);
        }
        byte[] lz4 = Fixtures.lz4(new Fixtures.TarBuilder().dir("part/").file(LOG, text).bytes());
        for (int i = 40; i < 60; i++) {
            lz4[i] ^= (byte) 0xA5;
        }
        Path archive = Files.write(tmp.resolve("flipped.tar.lz4"), lz4);
        assertRefused(archive, Limits.DEFAULT);
    }

    @Test
    void truncatedGzip_refused() throws IOException {
        byte[] gz = Fixtures.gzip(new Fixtures.TarBuilder().dir("part/").file(LOG, payload).bytes());
        Path archive = Files.write(tmp.resolve("cut.tgz"), Arrays.copyOf(gz, gz.length - 10));
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("truncated or corrupt gzip stream"), e.getMessage());
    }

    @Test
    void bareLz4ThatIsNoFrame_refused() throws IOException {
        Path archive = Files.writeString(tmp.resolve("00000000000000000000.log.lz4"), "plain text, not lz4");
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertEquals(archive + ": not a valid LZ4 frame: starts 70 6c 61 69, expected 04 22 4d 18", e.getMessage());
    }

    @Test
    void lz4MagicWithBrokenDescriptor_refused() throws IOException {
        byte[] bytes = {0x04, 0x22, 0x4d, 0x18, 0x13, 0x37, 0x00, 0x00, 0x00, 0x00};
        Path archive = Files.write(tmp.resolve("broken.lz4"), bytes);
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("corrupt LZ4 frame: Reserved0 field must be 0"), e.getMessage());
    }

    @Test
    void compressedNamedTarHoldingNoTar_refused() throws IOException {
        Path archive = Files.write(tmp.resolve("dump.tar.lz4"), Fixtures.lz4(payload));
        DumpException e = assertRefused(archive, Limits.DEFAULT);
        assertTrue(e.getMessage().contains("does not start with a tar header"), e.getMessage());
    }

    @Test
    void emptyAndUnknownFiles_refused() throws IOException {
        assertRefused(Files.write(tmp.resolve("empty.tar"), new byte[0]), Limits.DEFAULT);
        DumpException e = assertRefused(Files.write(tmp.resolve("random.bin"), payload), Limits.DEFAULT);
        assertTrue(e.getMessage().contains("not a tar, LZ4 frame or gzip stream"), e.getMessage());
    }

    // ---- limits: decompression bombs and their relatives ----

    @Test
    void zeroFilledEntryOverTotalLimit_refusedBeforeWritingIt() throws IOException {
        Path archive = tmp.resolve("bomb.tar.lz4");
        try (OutputStream out = new LZ4FrameOutputStream(Files.newOutputStream(archive));
             TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            put(tar, LOG, payload);
            TarArchiveEntry bomb = new TarArchiveEntry("part/00000000000000001000.log");
            bomb.setSize(16L * MIB);
            tar.putArchiveEntry(bomb);
            byte[] zeros = new byte[64 * 1024];
            for (int i = 0; i < 16 * 16; i++) {
                tar.write(zeros);
            }
            tar.closeArchiveEntry();
        }
        assertTrue(Files.size(archive) < 256 * 1024, "highly compressible: " + Files.size(archive));
        AtomicLong most = new AtomicLong();

        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxTotalBytes(MIB), most);

        assertTrue(e.getMessage().contains("entry 'part/00000000000000001000.log'")
                && e.getMessage().contains("would pass the limit of 1048576 bytes in total"), e.getMessage());
        assertEquals(payload.length, most.get(), "only the entry before the bomb was written");
    }

    @Test
    void bareLz4ZeroFileOverTotalLimit_refusedWithoutWritingPastIt() throws IOException {
        Path archive = tmp.resolve("00000000000000000000.log.lz4");
        try (OutputStream out = new LZ4FrameOutputStream(Files.newOutputStream(archive))) {
            byte[] zeros = new byte[64 * 1024];
            for (int i = 0; i < 16 * 16; i++) {
                out.write(zeros);
            }
        }
        AtomicLong most = new AtomicLong();

        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxTotalBytes(MIB), most);

        assertTrue(e.getMessage().contains("would pass the limit of 1048576 bytes in total"), e.getMessage());
        assertTrue(most.get() <= MIB, "wrote " + most.get());
    }

    @Test
    void entryOverPerEntryLimit_refused() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().dir("part/").file(LOG, new byte[100_000]).bytes();
        Path archive = Files.write(tmp.resolve("big.tar"), tar);
        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxEntryBytes(64 * 1024));
        assertTrue(e.getMessage().contains("entry of 100000 bytes exceeds the per-entry limit of 65536 bytes"),
                e.getMessage());
    }

    @Test
    void expansionOverRatio_refused() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().dir("part/").file(LOG, new byte[4 * MIB]).bytes();
        Path archive = Files.write(tmp.resolve("zeros.tgz"), Fixtures.gzip(tar));
        DumpException e = assertRefused(archive, Limits.DEFAULT.withExpansion(10, 0));
        assertTrue(e.getMessage().contains("10x the archive's " + Files.size(archive) + " bytes (expansion limit)"),
                e.getMessage());
    }

    @Test
    void tooManyEntries_refused() throws IOException {
        Fixtures.TarBuilder tar = new Fixtures.TarBuilder().dir("part/");
        for (int i = 0; i < 5; i++) {
            tar.file("part/f" + i, "x");
        }
        Path archive = Files.write(tmp.resolve("many.tar"), tar.bytes());
        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxEntries(3));
        assertTrue(e.getMessage().contains("entry 'part/f2' at byte 2560: more than 3 entries"), e.getMessage());
    }

    @Test
    void hugeGnuLongName_refusedAtMetadataLimit() throws IOException {
        Fixtures.TarBuilder tar = new Fixtures.TarBuilder().dir("part/");
        long at = tar.position();
        // The GNU long-name record spelled out (commons-compress is slow to build one this long itself).
        byte[] name = ("part/" + "n".repeat(20_000) + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        tar.entry(Fixtures.typed("././@LongLink", TarConstants.LF_GNUTYPE_LONGNAME), name);
        tar.file("part/" + "n".repeat(90), "x");
        Path archive = Files.write(tmp.resolve("longname.tar"), tar.bytes());
        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxHeaderBytes(4096));
        assertTrue(e.getMessage().contains("at byte " + at + ": tar metadata"), e.getMessage());
    }

    @Test
    void oversizedManifest_refused() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().file(Manifest.NAME, "{" + " ".repeat(300) + "}").bytes();
        Path archive = Files.write(tmp.resolve("fat-manifest.tar"), tar);
        DumpException e = assertRefused(archive, Limits.DEFAULT.withMaxManifestBytes(256));
        assertTrue(e.getMessage().contains("manifest of 302 bytes exceeds the limit of 256 bytes"), e.getMessage());
    }

    private static void put(TarArchiveOutputStream tar, String name, byte[] data) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        e.setSize(data.length);
        tar.putArchiveEntry(e);
        tar.write(data);
        tar.closeArchiveEntry();
    }

    private DumpException assertRefused(Path archive, Limits limits) {
        return assertRefused(archive, limits, new AtomicLong());
    }

    /** Refused with a one-line message naming the archive, and the extraction directory already removed. */
    private DumpException assertRefused(Path archive, Limits limits, AtomicLong mostWritten) {
        DumpException e = assertThrows(DumpException.class,
                () -> DumpReader.open(archive, limits, extractions, total -> mostWritten.accumulateAndGet(total,
                        Math::max)).close());
        assertTrue(e.getMessage().startsWith(archive.toString()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        try {
            assertEquals(0, Fixtures.countEntries(extractions), "extraction directory removed after refusal");
        } catch (IOException io) {
            throw new AssertionError(io);
        }
        return e;
    }
}
