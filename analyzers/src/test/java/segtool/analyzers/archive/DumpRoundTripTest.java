package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.hash.Xxh3;
import segtool.formats.writer.PartitionWriter;

class DumpRoundTripTest {
    @TempDir Path tmp;
    private Path source;
    private Path extractions;

    /** A partition with three segments, consumer offsets, an empty directory, odd modes and sub-second times. */
    @BeforeEach
    void partition() throws IOException {
        source = tmp.resolve("local_data/streams/1/topics/2/partitions/3");
        Files.createDirectories(source);
        PartitionWriter.fill(source, PartitionWriter.Config.of(3).segmentSize(16 * 1024), 150, 10, 100, 7);
        Path consumers = Files.createDirectories(source.resolve("offsets/consumers"));
        Files.write(consumers.resolve("42"), new byte[] {42, 0, 0, 0, 0, 0, 0, 0});
        Files.createDirectories(source.resolve("offsets/groups"));
        byte[] big = new byte[(1 << 20) + 17];     // crosses the copy buffer and the hash window
        new Random(3).nextBytes(big);
        Files.write(source.resolve("superblock.a"), big);
        Files.setPosixFilePermissions(source.resolve("superblock.a"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(consumers, PosixFilePermissions.fromString("rwxr-x---"));
        Files.setLastModifiedTime(source.resolve("superblock.a"),
                FileTime.from(Instant.ofEpochSecond(1_600_000_000L, 123_456_000)));
        Files.setLastModifiedTime(consumers, FileTime.from(Instant.ofEpochSecond(1_500_000_000L, 987_654_000)));
        extractions = Files.createDirectories(tmp.resolve("extractions"));
    }

    /**
     * METADATA 1.2: the frontier is rewritten in place, so a dump must copy it, never link it; the WAL's retained
     * segment link is a second name of a segment's inode. Both are packed as plain file entries holding their bytes,
     * and a later write to the live frontier does not reach the dump.
     */
    @Test
    void theWalsFrontierAndRetainedLink_arePackedAsCopies() throws IOException {
        Path wal = Files.createDirectories(source.resolve("prepares-1"));
        byte[] frontier = new byte[8192];
        new Random(11).nextBytes(frontier);
        Files.write(wal.resolve("frontier"), frontier);
        Path segment = source.resolve("00000000000000000000.log");
        Files.createLink(wal.resolve("segment-0-0.log"), segment);
        Path out = tmp.resolve("wal.tar");
        DumpWriter.pack(source, out);
        try (var tar = new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(Files.newInputStream(out))) {
            for (var e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                assertFalse(e.isLink() || e.isSymbolicLink(), e.getName() + " is packed as a link");
            }
        }
        Files.write(wal.resolve("frontier"), new byte[8192]); // the live file changes after the pack
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, extractions)) {
            assertArrayEquals(frontier, Files.readAllBytes(dump.root().resolve("prepares-1/frontier")));
            assertArrayEquals(Files.readAllBytes(segment),
                    Files.readAllBytes(dump.root().resolve("prepares-1/segment-0-0.log")));
        }
    }

    @Test
    void packLz4_open_filesModesAndTimesIdentical() throws IOException {
        Path out = tmp.resolve("dump.tar.lz4");
        DumpWriter.PackResult packed = DumpWriter.pack(source, out);
        assertEquals(Files.size(out), packed.archiveBytes());
        try (InputStream in = Files.newInputStream(out)) {
            assertTrue(DumpReader.isLz4(in.readNBytes(4)), "LZ4 frame magic");
        }

        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, extractions)) {
            assertEquals(Container.TAR_LZ4, dump.container());
            assertEquals("3", dump.root().getFileName().toString());
            assertEquals(Fixtures.hashes(source), Fixtures.hashes(dump.root()));
            assertTreeAttributesEqual(source, dump.root());
            var verified = assertInstanceOf(ManifestStatus.Verified.class, dump.manifestStatus());
            assertEquals(Fixtures.hashes(source).size(), verified.files());
            assertEquals(source.toString(), dump.manifest().orElseThrow().source());
            assertEquals("rwx------", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(dump.extractionDirectory())));
        }
    }

    @Test
    void packTar_plainTarByName_opensAndVerifies() throws IOException {
        Path out = tmp.resolve("dump.tar");
        DumpWriter.pack(source, out);
        byte[] head;
        try (InputStream in = Files.newInputStream(out)) {
            head = in.readNBytes(512);
        }
        assertEquals("ustar", new String(head, 257, 5, java.nio.charset.StandardCharsets.US_ASCII));
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, extractions)) {
            assertEquals(Container.TAR, dump.container());
            assertEquals(ManifestStatus.State.VERIFIED, dump.manifestStatus().state());
            assertEquals(Fixtures.hashes(source), Fixtures.hashes(dump.root()));
        }
    }

    @Test
    void pack_manifestIsFirstEntryAndListsEveryFileWithSizeAndHash() throws IOException {
        Path out = tmp.resolve("dump.tar.lz4");
        DumpWriter.pack(source, out);
        List<String> names = new ArrayList<>();
        Manifest manifest;
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new LZ4FrameInputStream(Files.newInputStream(out)))) {
            TarArchiveEntry first = tar.getNextEntry();
            assertEquals(Manifest.NAME, first.getName());
            manifest = Manifest.readFrom(tar);
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                names.add(e.getName());
            }
        }
        assertEquals(Manifest.FORMAT, manifest.format());
        assertEquals("3", manifest.root());
        assertTrue(names.contains("3/") && names.contains("3/offsets/groups/"), names::toString);
        Map<String, Long> expected = Fixtures.hashes(source);
        assertEquals(expected.size(), manifest.files().size());
        for (Manifest.FileEntry f : manifest.files()) {
            Path file = source.resolve(f.path().substring("3/".length()));
            assertEquals(Files.size(file), f.size(), f.path());
            assertEquals(Xxh3.hash(Files.readAllBytes(file)), f.xxh3(), f.path());
            assertTrue(names.contains(f.path()), f.path());
        }
    }

    @Test
    void pack_symlinksNotFollowedButListedAsSkipped() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "not part of the dump");
        Files.createSymbolicLink(source.resolve("escape"), outside);
        Files.createSymbolicLink(source.resolve("secret-link"), outside.resolve("secret"));
        Files.createSymbolicLink(source.resolve("inner-link"), source.resolve("superblock.a"));
        Path out = tmp.resolve("dump.tar.lz4");

        Manifest manifest = DumpWriter.pack(source, out).manifest();

        assertEquals(List.of("3/escape", "3/inner-link", "3/secret-link"),
                manifest.skipped().stream().map(Manifest.Skipped::path).collect(Collectors.toList()));
        assertTrue(manifest.skipped().get(0).reason().contains(outside.toString()), manifest.skipped()::toString);
        try (OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, extractions)) {
            assertFalse(Files.exists(dump.root().resolve("escape"), LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(dump.root().resolve("secret-link"), LinkOption.NOFOLLOW_LINKS));
            assertEquals(ManifestStatus.State.VERIFIED, dump.manifestStatus().state());
        }
    }

    @Test
    void open_detectsByMagicNotName() throws IOException {
        Path lz4 = tmp.resolve("dump.tar.lz4");
        DumpWriter.pack(source, lz4);
        Path renamed = Files.copy(lz4, tmp.resolve("dump.bin"));
        Path plain = tmp.resolve("plain.tar");
        DumpWriter.pack(source, plain);
        Path misnamed = Files.copy(plain, tmp.resolve("misnamed.tar.lz4"));

        try (OpenedDump a = DumpReader.open(renamed, Limits.DEFAULT, extractions);
             OpenedDump b = DumpReader.open(misnamed, Limits.DEFAULT, extractions)) {
            assertEquals(Container.TAR_LZ4, a.container());
            assertEquals(Container.TAR, b.container());
            assertEquals(ManifestStatus.State.VERIFIED, a.manifestStatus().state());
            assertEquals(ManifestStatus.State.VERIFIED, b.manifestStatus().state());
        }
    }

    @Test
    void close_removesExtraction() throws IOException {
        Path out = tmp.resolve("dump.tar.lz4");
        DumpWriter.pack(source, out);
        OpenedDump dump = DumpReader.open(out, Limits.DEFAULT, extractions);
        Path dir = dump.extractionDirectory();
        assertTrue(Files.isDirectory(dump.root()));
        dump.close();
        dump.close();
        assertFalse(Files.exists(dir));
        assertEquals(0, Fixtures.countEntries(extractions));
    }

    @Test
    void pack_outputInsideSource_refused() {
        var e = assertThrows(DumpException.class, () -> DumpWriter.pack(source, source.resolve("self.tar.lz4")));
        assertTrue(e.getMessage().contains("inside the source"), e.getMessage());
        assertFalse(Files.exists(source.resolve("self.tar.lz4")));
    }

    @Test
    void pack_otherCodecName_refused() {
        var e = assertThrows(DumpException.class, () -> DumpWriter.pack(source, tmp.resolve("dump.tar.gz")));
        assertTrue(e.getMessage().contains(".gz"), e.getMessage());
    }

    @Test
    void pack_fileChangesBetweenHashAndCopy_failsAndLeavesNoPartialOutput() throws IOException {
        Path out = tmp.resolve("dump.tar.lz4");
        Files.writeString(out, "an earlier dump");
        DumpWriter.Observer truncateOne = (tarPath, file) -> {
            if (tarPath.endsWith("superblock.a")) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(1000);
                }
            }
        };

        var e = assertThrows(DumpException.class, () -> DumpWriter.pack(source, out, truncateOne));

        assertTrue(e.getMessage().contains("3/superblock.a") && e.getMessage().contains("changed while packing"),
                e.getMessage());
        assertEquals("an earlier dump", Files.readString(out));
        try (Stream<Path> list = Files.list(tmp)) {
            assertEquals(List.of(), list.filter(p -> p.getFileName().toString().endsWith(".partial"))
                    .collect(Collectors.toList()));
        }
    }

    private static void assertTreeAttributesEqual(Path expected, Path actual) throws IOException {
        try (Stream<Path> walk = Files.walk(expected)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path q = actual.resolve(expected.relativize(p).toString());
                String what = expected.relativize(p).toString();
                assertEquals(Files.isDirectory(p), Files.isDirectory(q), what);
                assertEquals(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)),
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(q)), what);
                // PAX records carry 100 ns ticks; compare at microseconds, which every case here sets or has.
                assertEquals(Files.getLastModifiedTime(p).to(TimeUnit.MICROSECONDS),
                        Files.getLastModifiedTime(q).to(TimeUnit.MICROSECONDS), what);
                if (Files.isRegularFile(p)) {
                    assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(q), what);
                }
            }
        }
    }
}
