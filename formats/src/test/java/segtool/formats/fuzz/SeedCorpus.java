package segtool.formats.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import segtool.formats.SpecVectors;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.io.LittleEndian;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.offsets.ConsumerOffset;
import segtool.formats.payload.HeaderKind;
import segtool.formats.payload.Payloads;
import segtool.formats.payload.UserHeaders;
import segtool.formats.writer.PartitionWriter;

/**
 * Writes the seed inputs of the formats fuzz targets with the byte-exact writer and encoders, into
 * {@code src/test/resources/segtool/formats/fuzz/<Target>Inputs/<method>/seed-*}, where the fuzz tests replay them
 * in every build and the fuzzer starts from them. Run from the module directory:
 * {@code mvn -q -pl formats exec:java -Dexec.classpathScope=test -Dexec.mainClass=segtool.formats.fuzz.SeedCorpus}.
 * Findings are kept beside the seeds under their own names ({@code crash-*}) and are never regenerated.
 */
public final class SeedCorpus {
    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "formats/src/test/resources/segtool/formats/fuzz");
        List<byte[]> records = records();
        write(root.resolve("RecordFuzzTestInputs/verify"), records);
        write(root.resolve("RecordFuzzTestInputs/verifyStamped"), records);
        write(root.resolve("CursorFuzzTestInputs/walk"), logs());
        Path tmp = Files.createTempDirectory("segtool-seeds-");
        List<PartitionWriter.SegmentLayout> segments = PartitionWriter.fill(tmp,
                PartitionWriter.Config.of(1).segmentSize(4096).messagesRequiredToSave(3), 40, 2, 20, 7);
        List<byte[]> indexes = new ArrayList<>();
        for (PartitionWriter.SegmentLayout s : segments.subList(0, 2)) {
            indexes.add(Files.readAllBytes(s.index()));
        }
        byte[] torn = Arrays.copyOf(indexes.get(0), indexes.get(0).length + 7);
        indexes.add(torn);
        write(root.resolve("FileFormatsFuzzTestInputs/index"), indexes);
        write(root.resolve("FileFormatsFuzzTestInputs/anchor"), List.of(new AnchorRecord(0, 0, 99).encode(),
                new AnchorRecord(1000, 100, 999).encode()));
        write(root.resolve("FileFormatsFuzzTestInputs/consumerOffset"), List.of(ConsumerOffset.encode(41),
                Arrays.copyOf(ConsumerOffset.encode(7), 8), Arrays.copyOf(ConsumerOffset.encode(-1), 20)));
        write(root.resolve("PayloadFuzzTestInputs/userHeaders"), List.of(SpecVectors.messagesB().get(2).userHeaders(),
                SpecVectors.messagesC().get(0).userHeaders(), everyKind()));
        write(root.resolve("PayloadFuzzTestInputs/lz4"), List.of(SpecVectors.messagesC().get(0).payload(),
                Payloads.lz4Compress("a payload that compresses, compresses, compresses".repeat(40).getBytes())));
    }

    /** Whole records: the spec vectors, an empty batch, headers of every kind, LZ4, several frames, one damaged. */
    static List<byte[]> records() {
        List<byte[]> out = new ArrayList<>();
        out.add(SpecVectors.a());
        out.add(SpecVectors.b());
        out.add(SpecVectors.c());
        out.add(RecordEncoder.encode(3, 100, 5, 4, List.of()));
        Random random = new Random(16);
        List<Message> mixed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] payload = new byte[random.nextInt(40)];
            random.nextBytes(payload);
            mixed.add(new Message(random.nextLong(), random.nextLong(), i * 10, payload, i % 2 == 0 ? everyKind()
                    : null));
        }
        out.add(RecordEncoder.encode(1, 1L << 40, 7, 6, mixed));
        byte[] damaged = SpecVectors.b();
        damaged[BatchHeader.LENGTH + 60] ^= 0x20;
        out.add(damaged);
        return out;
    }

    /** Logs: the spec's segment, a writer's segment with a record wider than the cursor's window, a torn tail. */
    static List<byte[]> logs() throws IOException {
        List<byte[]> out = new ArrayList<>();
        byte[] abc = concat(SpecVectors.a(), SpecVectors.b(), SpecVectors.c());
        out.add(abc);
        out.add(Arrays.copyOf(abc, abc.length - 100));
        byte[] wide = new byte[6000];
        new Random(3).nextBytes(wide);
        out.add(concat(SpecVectors.a(), RecordEncoder.encode(1, 1, 9, 8, List.of(Message.of(5, wide))),
                RecordEncoder.encode(1, 2, 10, 9, List.of(Message.of(6, "x".getBytes())))));
        byte[] overMax = SpecVectors.a();
        LittleEndian.putU64(overMax, BatchHeader.BATCH_LENGTH_OFFSET, 1L << 40);
        out.add(concat(SpecVectors.a(), overMax));
        return out;
    }

    /** One pair per known kind, with a value of the kind's size, and one unknown kind. */
    static byte[] everyKind() {
        List<UserHeaders.Header> headers = new ArrayList<>();
        for (HeaderKind k : HeaderKind.values()) {
            int size = k.size() > 0 ? k.size() : 3;
            byte[] value = new byte[size];
            value[0] = 1;
            headers.add(new UserHeaders.Header(UserHeaders.string("k" + k.code()),
                    k == HeaderKind.UNKNOWN ? new UserHeaders.Item(200, value) : UserHeaders.of(k, value)));
        }
        return UserHeaders.encode(headers);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static void write(Path dir, List<byte[]> seeds) throws IOException {
        Files.createDirectories(dir);
        for (int i = 0; i < seeds.size(); i++) {
            Files.write(dir.resolve(String.format("seed-%02d", i)), seeds.get(i));
        }
    }
}
