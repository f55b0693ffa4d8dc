package segtool.samples.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import segtool.formats.hash.Xxh3;

/**
 * Writes {@code metadata/snapshot.bin} from METADATA 2.1-2.3: the {@code MetadataSnapshot} of format version 3 as
 * rmp-serde lays it out (positional arrays, options map with {@code [kind, base64]} keys), then the 20-byte trailer.
 * Users are {@code [[], [], [6 empty arrays]]}, the client table {@code [[]]}, stats zero, as in the 2.8 example.
 */
public final class SnapshotWriter {
    public record Partition(long id, long group, long createdAt, long createdRevision, long deletedUpTo,
                            long purgeGeneration, Long createdView) {
        public static Partition of(long id, long createdRevision) {
            return new Partition(id, 1, T, createdRevision, 0, 0, null);
        }
    }

    public record Topic(long key, String name, long createdAt, List<Partition> partitions, List<Opt> options) {
    }

    public record Stream(long key, String name, long createdAt, List<Topic> topics) {
    }

    /** The 2.8 example's timestamp, 1,700,000,000,000,000 us. */
    public static final long T = 1_700_000_000_000_000L;

    public long version = 3;
    public long createdAt = T;
    public long sequenceNumber;
    public long revision;
    public long writerRelease = 11 << 10;
    public final List<Stream> streams = new ArrayList<>();

    public SnapshotWriter sequence(long s) {
        this.sequenceNumber = s;
        return this;
    }

    public SnapshotWriter revision(long r) {
        this.revision = r;
        return this;
    }

    public SnapshotWriter stream(Stream s) {
        streams.add(s);
        return this;
    }

    /** The MessagePack payload. */
    public byte[] payload() {
        MsgPack m = new MsgPack().array(7).uint(version).uint(createdAt).uint(sequenceNumber);
        m.array(3).array(0).array(0).array(6);
        for (int i = 0; i < 6; i++) {
            m.array(0);
        }
        m.array(2).array(streams.size());
        for (Stream s : streams) {
            m.array(2).uint(s.key()).array(6).uint(s.key()).str(s.name()).uint(s.createdAt());
            m.array(3).uint(0).uint(0).uint(0);
            m.array(s.topics().size());
            for (Topic t : s.topics()) {
                m.array(2).uint(t.key()).array(11).uint(t.key()).str(t.name()).uint(t.createdAt());
                m.uint(-1L).str("none").uint(-1L);
                m.array(3).uint(0).uint(0).uint(0);
                m.array(t.partitions().size());
                for (Partition p : t.partitions()) {
                    m.array(p.createdView() == null ? 6 : 7).uint(p.id()).uint(p.group()).uint(p.createdAt())
                            .uint(p.createdRevision()).uint(p.deletedUpTo()).uint(p.purgeGeneration());
                    if (p.createdView() != null) {
                        m.uint(p.createdView());
                    }
                }
                m.array(0).uint(0);
                options(m, t.options());
            }
            m.map(0);
        }
        m.uint(revision);
        m.array(1).array(0);
        m.uint(writerRelease);
        return m.bytes();
    }

    static void options(MsgPack m, List<Opt> opts) {
        m.map(opts.size());
        for (Opt o : Opt.sorted(opts)) {
            m.array(2).str("string").str(b64(o.key().getBytes(StandardCharsets.UTF_8)));
            m.array(2).array(2).str(Opt.KIND_NAMES[o.kind() - 1]).str(b64(o.value())).bool(o.explicit());
        }
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    /** Payload and trailer. */
    public byte[] file() {
        return withTrailer(payload());
    }

    public static byte[] withTrailer(byte[] payload) {
        long h = Xxh3.hash(payload);
        return ByteBuffer.allocate(payload.length + 20).order(ByteOrder.LITTLE_ENDIAN).put(payload)
                .putInt(0x49534E50).putLong(h).putLong(0).array();
    }

    /** The 2.8 example: stream "orders", topic "events" created with durability=persisted, one partition. */
    public static SnapshotWriter example28() {
        SnapshotWriter w = new SnapshotWriter().sequence(7).revision(1);
        w.stream(new Stream(0, "orders", T, List.of(new Topic(0, "events", T,
                List.of(Partition.of(0, 1)), Opt.post4092(Opt.string("durability", "persisted", true))))));
        return w;
    }
}
