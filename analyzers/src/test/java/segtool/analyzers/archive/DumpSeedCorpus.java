package segtool.analyzers.archive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.payload.Payloads;
import segtool.formats.writer.PartitionWriter;

/**
 * Writes the seed inputs of {@link DumpReaderFuzzTest}: dumps packed by {@link DumpWriter} from a partition the
 * byte-exact writer made, their gzip and bare-lz4 forms, a hand-built tar with a directory, a file and a link, and the
 * packed manifest. The LZ4 seeds declare 64 KiB blocks (DumpWriter's 4 MiB ones are read back by DumpReaderTest).
 * Run from the repository root after {@code mvn -pl analyzers -am test-compile}, with the test class path
 * (bench/fuzz.sh seeds does it).
 */
public final class DumpSeedCorpus {
    private DumpSeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0]
                : "analyzers/src/test/resources/segtool/analyzers/archive/DumpReaderFuzzTestInputs");
        Path work = Files.createTempDirectory("segtool-dump-seeds-");
        Path partition = Files.createDirectories(work.resolve("src/1"));
        List<PartitionWriter.SegmentLayout> segments = PartitionWriter.fill(partition,
                PartitionWriter.Config.of(1).segmentSize(1024), 12, 2, 8, 16);
        byte[] tar = pack(partition, work.resolve("p.tar"));
        byte[] small = new Fixtures.TarBuilder().dir("1").file("1/00000000000000000000.log", "not a log")
                .entry(Fixtures.typed("1/current", org.apache.commons.compress.archivers.tar.TarConstants.LF_SYMLINK),
                        new byte[0]).bytes();
        byte[] log = Files.readAllBytes(segments.get(0).log());

        write(root.resolve("tar"), tar, small);
        // DumpWriter and lz4-java's default declare 4 MiB blocks, whose two buffers lz4-java's frame reader allocates
        // for every input: 8 MiB zeroed, about 0.5 ms, which held these targets to 500-1,000 inputs/s when two of
        // three seeds had them. With 64 KiB blocks (Payloads.lz4Compress) an input costs about 80 us; the fuzzer
        // still reaches the other block sizes by mutating the frame descriptor.
        write(root.resolve("tarLz4"), Payloads.lz4Compress(tar), Payloads.lz4Compress(small));
        write(root.resolve("tarGz"), Fixtures.gzip(tar), Fixtures.gzip(small));
        write(root.resolve("lz4"), Payloads.lz4Compress(log), Payloads.lz4Compress(tar));
        ByteArrayOutputStream manifest = new ByteArrayOutputStream();
        new Manifest(Manifest.FORMAT, "1", "/var/lib/iggy/partitions/1", "2026-12-01T00:00:00Z",
                List.of(new Manifest.FileEntry("1/00000000000000000000.log", log.length, 0x5A1FL)),
                List.of(new Manifest.Skipped("1/current", "symbolic link to 'x'"))).writeTo(manifest);
        write(root.resolve("manifest"), manifest.toByteArray(),
                "{\"format\":\"segtool-dump/1\",\"files\":[]}".getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] pack(Path source, Path out) throws IOException {
        DumpWriter.pack(source, out);
        return Files.readAllBytes(out);
    }

    private static void write(Path dir, byte[]... seeds) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < seeds.length; i++) {
            Files.write(dir.resolve(String.format("seed-%02d", i)), seeds[i]);
        }
    }
}
