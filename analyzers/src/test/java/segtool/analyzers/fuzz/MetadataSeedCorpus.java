package segtool.analyzers.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import segtool.samples.metadata.FrontierWriter;
import segtool.samples.metadata.JournalWriter;
import segtool.samples.metadata.Opt;
import segtool.samples.metadata.SnapshotWriter;
import segtool.samples.metadata.SpecBytes;
import segtool.samples.metadata.SuperblockWriter;

/**
 * Writes the seeds of {@link MetadataFuzzTest} with the samples' metadata writers and METADATA.md's own examples,
 * into {@code analyzers/src/test/resources/segtool/analyzers/fuzz/MetadataFuzzTestInputs/<method>/seed-*}
 * ({@code bench/fuzz.sh seeds} runs it).
 */
public final class MetadataSeedCorpus {
    private MetadataSeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0]
                : "analyzers/src/test/resources/segtool/analyzers/fuzz/MetadataFuzzTestInputs");
        for (Map.Entry<String, byte[][]> e : seeds().entrySet()) {
            write(root.resolve(e.getKey()), e.getValue());
        }
    }

    /** The seeds by target method. */
    static Map<String, byte[][]> seeds() {
        Map<String, byte[][]> out = new LinkedHashMap<>();
        byte[] snapshot = SnapshotWriter.example28().file();
        out.put("snapshot", of(snapshot, SpecBytes.SNAPSHOT_2_8, Arrays.copyOf(snapshot, snapshot.length - 3)));

        JournalWriter j = new JournalWriter();
        byte[] stream = JournalWriter.createStream("orders");
        byte[] topic = JournalWriter.createTopic(1, "events", 2, Opt.u64("message_expiry", 60, true));
        j.entry(1, 0, 0, stream);
        j.entry(2, 1, 0, topic);
        j.entry(3, 2, 0, JournalWriter.topicRef(1, 1));
        byte[] journal = j.file();
        byte[] spec = concat(SpecBytes.JOURNAL_4_8_HEADER, SpecBytes.JOURNAL_4_8_BODY);
        out.put("journal", of(journal, spec, Arrays.copyOf(journal, journal.length - 40)));
        out.put("journalBodies", of(stream, topic, JournalWriter.topicRef(1, 1),
                JournalWriter.updateTopic(1, 1, "renamed", List.of(Opt.bool("flag", true, true))),
                SpecBytes.JOURNAL_4_8_BODY));

        byte[] superblock = SuperblockWriter.example53().file();
        out.put("superblock", of(superblock, SpecBytes.SUPERBLOCK_5_3));
        byte[] frontier = FrontierWriter.example69().file(1, 2);
        out.put("frontier", of(frontier, Arrays.copyOf(frontier, segtool.formats.metadata.Frontier.SLOT)));
        return out;
    }

    private static byte[][] of(byte[]... seeds) {
        return seeds;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void write(Path dir, byte[]... seeds) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < seeds.length; i++) {
            Files.write(dir.resolve(String.format("seed-%02d", i)), seeds[i]);
        }
    }
}
