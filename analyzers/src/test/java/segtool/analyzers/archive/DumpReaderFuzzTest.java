package segtool.analyzers.archive;

import static segtool.formats.fuzz.Fuzz.allocated;
import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import segtool.formats.fuzz.Fuzz;
import segtool.formats.io.TempDirectory;

/**
 * The crash-dump reader (tar, tar.lz4, tar.gz, a bare lz4) and the manifest parser, on any bytes.
 *
 * <p>Invariants: an archive either opens or is refused with a {@link DumpException} of one line, never another
 * exception; nothing is written past a limit (the observer sees every write); what opened holds only directories and
 * regular files, inside the extraction directory, as many and as large as the dump says; the extraction directory
 * is gone after close and after a refusal; heap use is the copy buffer, the capped tar metadata and the
 * decompressor's block buffers, never a size read from the archive. A manifest parses or fails with Jackson's
 * {@link JsonProcessingException}; one that parses writes back to a manifest equal to it.
 */
class DumpReaderFuzzTest {
    static final Limits LIMITS = new Limits(4L << 20, 1L << 20, 64, 1100, 1L << 20, 4096, 65536);
    /** Copy buffer (1 MiB), two LZ4 blocks of the largest size (4 MiB each), metadata, the manifest and slack. */
    private static final long HEAP_BUDGET = 24L << 20;
    private static Path scratch;
    private static boolean warm;

    @FuzzTest(maxDuration = "12h")
    void tar(byte[] data) throws IOException {
        open(data, "dump.tar");
    }

    @FuzzTest(maxDuration = "12h")
    void tarLz4(byte[] data) throws IOException {
        open(data, "dump.tar.lz4");
    }

    @FuzzTest(maxDuration = "12h")
    void tarGz(byte[] data) throws IOException {
        open(data, "dump.tar.gz");
    }

    /** A bare .lz4: a tar inside is found by its magic, anything else is one file. */
    @FuzzTest(maxDuration = "12h")
    void lz4(byte[] data) throws IOException {
        open(data, "00000000000000000000.log.lz4");
    }

    @FuzzTest(maxDuration = "12h")
    void manifest(byte[] data) throws IOException {
        Manifest m;
        try {
            m = Manifest.readFrom(new ByteArrayInputStream(data));
        } catch (JsonProcessingException expected) {
            check(expected.getOriginalMessage() != null, "no message");
            return;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.writeTo(out);
        Manifest again = Manifest.readFrom(new ByteArrayInputStream(out.toByteArray()));
        check(m.equals(again), () -> "write -> read changes the manifest: " + m + " vs " + again);
    }

    /**
     * {@code data} opened as the archive {@code name}: read from memory by the reader the CLI uses for the file (no
     * archive is written per input), extracted for real into the one scratch directory of the run.
     */
    static void open(byte[] data, String name) throws IOException {
        Path dir = scratch();
        Path archive = dir.resolve(name);
        Path parent = dir.resolve("extract");
        if (!warm) {
            warm = true;
            Files.createDirectories(parent);
            warmUp(dir, parent);
        }
        long[] most = {0};
        long before = allocated();
        long spent;
        try (OpenedDump dump = DumpReader.open(archive, data, LIMITS, parent,
                total -> most[0] = Math.max(most[0], total))) {
            spent = allocated() - before;
            long[] found = tree(dump.extractionDirectory());
            check(found[0] == dump.files() && found[1] == dump.bytes(), () -> "the dump says " + dump.files()
                    + " files, " + dump.bytes() + " bytes; the tree holds " + found[0] + ", " + found[1]);
            check(dump.root().startsWith(dump.extractionDirectory()), "root outside the extraction");
            check(dump.manifestStatus() != null && dump.container() != null, "status");
        } catch (DumpException refused) {
            spent = allocated() - before;
            String line = refused.getMessage();
            check(line != null && !line.isEmpty() && line.indexOf('\n') < 0, () -> "refusal is not one line: " + line);
        }
        long heap = spent;
        check(heap <= HEAP_BUDGET + 64L * data.length, () -> "open allocated " + heap + " bytes");
        long budget = Math.min(LIMITS.maxTotalBytes(), LIMITS.ratioBudget(data.length));
        check(most[0] <= budget, () -> "wrote " + most[0] + " bytes, budget " + budget);
        try (Stream<Path> left = Files.list(parent)) {
            check(left.findAny().isEmpty(), "the extraction directory was left behind");
        }
    }

    /** Every container once, so class loading and the LZ4 library's start are not counted against an input. */
    private static void warmUp(Path dir, Path parent) throws IOException {
        Path source = Files.createDirectories(dir.resolve("warm/1"));
        Files.write(source.resolve("a"), new byte[100]);
        DumpWriter.pack(source, dir.resolve("packed.tar.lz4"));
        byte[] tar = new Fixtures.TarBuilder().dir("1").file("1/a", "bytes").bytes();
        byte[][] kinds = {tar, Files.readAllBytes(dir.resolve("packed.tar.lz4")), Fixtures.gzip(tar),
            Fixtures.lz4("one file".getBytes())};
        String[] names = {"w.tar", "w.tar.lz4", "w.tar.gz", "w.lz4"};
        for (int i = 0; i < kinds.length; i++) {
            Path archive = dir.resolve(names[i]);
            byte[] bytes = kinds[i];
            Fuzz.warmUp(() -> DumpReader.open(archive, bytes, LIMITS, parent, DumpReader.Observer.NONE).close());
        }
    }

    /** Regular files and their bytes under {@code dir}; anything but a file or directory fails. */
    private static long[] tree(Path dir) throws IOException {
        long[] out = new long[2];
        try (Stream<Path> all = Files.walk(dir)) {
            all.forEach(p -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    check(a.isDirectory() || a.isRegularFile(), () -> "extracted a " + (a.isSymbolicLink() ? "link"
                            : "special file") + ": " + p);
                    check(p.normalize().startsWith(dir), () -> "outside the extraction: " + p);
                    if (a.isRegularFile()) {
                        out[0]++;
                        out[1] += a.size();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return out;
    }

    /**
     * One directory per run under {@code $TMPDIR} (else {@code java.io.tmpdir}), where the reader's own temp files
     * go too; bench/fuzz.sh points {@code TMPDIR} at {@code /dev/shm}, so extractions stay in memory.
     */
    private static synchronized Path scratch() throws IOException {
        if (scratch == null) {
            scratch = Files.createTempDirectory(TempDirectory.get(), "segtool-fuzz-dump-");
            Path made = scratch;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    TempTree.delete(made);
                } catch (IOException e) {
                    // best effort: a run that cannot remove its scratch leaves it to the next clean-up of TMPDIR
                }
            }));
        }
        return scratch;
    }
}
