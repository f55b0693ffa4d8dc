package segtool.analyzers.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.hash.Xxh3;

class DumpReaderTest {
    private static final String LOG = "00000000000000000000.log";

    @TempDir Path tmp;
    private Path extractions;
    private byte[] log;
    private byte[] index;

    @BeforeEach
    void setUp() throws IOException {
        extractions = Files.createDirectories(tmp.resolve("extractions"));
        Random random = new Random(11);
        log = new byte[10_000];
        random.nextBytes(log);
        index = new byte[48];
        random.nextBytes(index);
    }

    private byte[] partitionTar() {
        return new Fixtures.TarBuilder().dir("7/").file("7/" + LOG, log)
                .file("7/00000000000000000000.index", index).dir("7/offsets/consumers/").bytes();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dump.tgz", "dump.tar.gz", "dump.gz"})
    void gzipTar_opensToItsTopDirectory(String name) throws IOException {
        Path archive = Files.write(tmp.resolve(name), Fixtures.gzip(partitionTar()));
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertEquals(Container.TAR_GZIP, dump.container());
            assertEquals(dump.extractionDirectory().resolve("7"), dump.root());
            assertArrayEquals(log, Files.readAllBytes(dump.root().resolve(LOG)));
            assertTrue(Files.isDirectory(dump.root().resolve("offsets/consumers")));
            assertEquals(ManifestStatus.State.ABSENT, dump.manifestStatus().state());
            assertEquals(2, dump.files());
            assertEquals(log.length + index.length, dump.bytes());
        }
    }

    @Test
    void bareLz4HoldingTar_opensAsTar() throws IOException {
        Path archive = Files.write(tmp.resolve("dump.lz4"), Fixtures.lz4(partitionTar()));
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertEquals(Container.TAR_LZ4, dump.container());
            assertArrayEquals(log, Files.readAllBytes(dump.root().resolve(LOG)));
        }
    }

    @Test
    void bareLz4HoldingOneFile_extractsItUnderItsOwnName() throws IOException {
        Path archive = Files.write(tmp.resolve(LOG + ".lz4"), Fixtures.lz4(log));
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertEquals(Container.LZ4_FILE, dump.container());
            assertEquals(dump.extractionDirectory(), dump.root());
            assertEquals(Map.of(LOG, Xxh3.hash(log)), Fixtures.hashes(dump.root()));
            assertEquals(ManifestStatus.State.ABSENT, dump.manifestStatus().state());
        }
    }

    @Test
    void bareGzipHoldingOneFile_extractsItUnderItsOwnName() throws IOException {
        Path archive = Files.write(tmp.resolve(LOG + ".gz"), Fixtures.gzip(log));
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertEquals(Container.GZIP_FILE, dump.container());
            assertArrayEquals(log, Files.readAllBytes(dump.root().resolve(LOG)));
        }
    }

    @Test
    void looseFilesWithDotPrefix_rootIsTheExtractionDirectory() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().dir("./").file("./" + LOG, log).file("./x.index", index).bytes();
        Path archive = Files.write(tmp.resolve("loose.tar"), tar);
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            assertEquals(dump.extractionDirectory(), dump.root());
            assertEquals(Map.of(LOG, Xxh3.hash(log), "x.index", Xxh3.hash(index)), Fixtures.hashes(dump.root()));
        }
    }

    @Test
    void tamperedArchive_manifestMismatchListsEachProblem() throws IOException {
        Path source = Files.createDirectories(tmp.resolve("src/9"));
        Files.write(source.resolve("a"), log);
        Files.write(source.resolve("b"), index);
        Files.writeString(source.resolve("c"), "gone soon");
        Path packed = tmp.resolve("packed.tar");
        DumpWriter.pack(source, packed);
        Path tampered = tmp.resolve("tampered.tar");
        rewrite(packed, tampered);

        try (OpenedDump dump = DumpReader.open(tampered, Limits.DEFAULT, extractions)) {
            var mismatch = assertInstanceOf(ManifestStatus.Mismatch.class, dump.manifestStatus());
            List<String> got = mismatch.problems().stream().map(p -> p.kind() + " " + p.path())
                    .collect(Collectors.toList());
            assertEquals(List.of("HASH 9/a", "SIZE 9/b", "MISSING 9/c", "EXTRA 9/extra"), got);
            ManifestProblem hash = mismatch.problems().get(0);
            assertEquals(Xxh3.hex(Xxh3.hash(log)), hash.expected());
            assertEquals("48", mismatch.problems().get(1).expected());
            assertEquals("47", mismatch.problems().get(1).actual());
        }
    }

    /** Copies a packed tar entry by entry: flips a byte of 9/a, drops one of 9/b, leaves 9/c out, adds 9/extra. */
    private static void rewrite(Path from, Path to) throws IOException {
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(from));
             OutputStream file = Files.newOutputStream(to);
             TarArchiveOutputStream out = new TarArchiveOutputStream(file)) {
            out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                byte[] data = in.readAllBytes();
                switch (e.getName()) {
                    case "9/a" -> data[1234] ^= 0x10;
                    case "9/b" -> data = java.util.Arrays.copyOf(data, data.length - 1);
                    case "9/c" -> {
                        continue;
                    }
                    default -> {
                    }
                }
                e.setSize(data.length);
                out.putArchiveEntry(e);
                out.write(data);
                out.closeArchiveEntry();
            }
            TarArchiveEntry extra = new TarArchiveEntry("9/extra");
            extra.setSize(1);
            out.putArchiveEntry(extra);
            out.write('x');
            out.closeArchiveEntry();
        }
    }

    @Test
    void unparsableManifest_reportedAsInvalidNotRefused() throws IOException {
        byte[] tar = new Fixtures.TarBuilder().file(Manifest.NAME, "{\"format\": [").dir("7/").file("7/" + LOG, log)
                .bytes();
        Path archive = Files.write(tmp.resolve("bad-manifest.tar"), tar);
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            var mismatch = assertInstanceOf(ManifestStatus.Mismatch.class, dump.manifestStatus());
            assertEquals(ManifestProblem.Kind.INVALID_MANIFEST, mismatch.problems().get(0).kind());
            assertArrayEquals(log, Files.readAllBytes(dump.root().resolve(LOG)));
            assertFalse(Files.exists(dump.extractionDirectory().resolve(Manifest.NAME)), "manifest not extracted");
        }
    }

    @Test
    void foreignFormatTag_reportedAsInvalid() throws IOException {
        String json = "{\"format\":\"segtool-dump/99\",\"files\":[]}";
        byte[] tar = new Fixtures.TarBuilder().file(Manifest.NAME, json).dir("7/").file("7/" + LOG, log).bytes();
        Path archive = Files.write(tmp.resolve("future.tar"), tar);
        try (OpenedDump dump = DumpReader.open(archive, Limits.DEFAULT, extractions)) {
            var mismatch = assertInstanceOf(ManifestStatus.Mismatch.class, dump.manifestStatus());
            assertTrue(mismatch.problems().get(0).toString().contains("segtool-dump/99"), mismatch::toString);
        }
    }

    @Test
    void manifest_writeThenRead_roundTrips() throws IOException {
        Manifest m = new Manifest(Manifest.FORMAT, "1", "/data/1", "2026-01-01T00:00:00Z",
                List.of(new Manifest.FileEntry("1/a", 3, -1L), new Manifest.FileEntry("1/\"b\"\n", 0, 42)),
                List.of(new Manifest.Skipped("1/l", "symbolic link to 'x'")));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        m.writeTo(out);
        String json = out.toString(StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"format\":\"segtool-dump/1\",\"root\":\"1\""), json);
        assertTrue(json.contains("\"xxh3\":\"0xFFFFFFFFFFFFFFFF\""), json);
        try (InputStream in = new java.io.ByteArrayInputStream(out.toByteArray())) {
            assertEquals(m, Manifest.readFrom(in));
        }
    }
}
