package segtool.samples.metadata;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import segtool.formats.hash.Xxh3;

/**
 * Writes {@code metadata/journal.wal} entries from METADATA 4.1, 4.2 and 4.6: the 256-byte {@code PrepareHeader}
 * (newest layout: {@code retry_capacity} at 228, {@code session} at 248), the body, the body checksum and the
 * identity checksum over the header with {@code checksum} and {@code view} zeroed. Entries chain through
 * {@link #parent}: each written entry becomes the next one's parent.
 */
public final class JournalWriter {
    public static final long METADATA_GROUP = 1L << 63;

    private final ByteArrayOutputStream file = new ByteArrayOutputStream();
    public long clusterLow = 0x0011223344556677L;
    public long clusterHigh = 0x0123456789ABCDEFL;
    public long client = 0x42;
    public long session = 1;
    public long timestamp = SnapshotWriter.T;
    /** Identity checksum of the last entry written (the next parent). */
    public long parent;
    public int view;
    /** Client request number of the next entry (then incremented). */
    public long request = 1;

    /** One sealed entry for {@code op}, appended to the file and returned. */
    public byte[] entry(long op, long commit, int operation, byte[] body) {
        ByteBuffer h = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(16, Xxh3.hash(body));
        h.putLong(32, clusterLow).putLong(40, clusterHigh);
        h.putInt(48, 256 + body.length);
        h.putInt(52, view);
        h.put(60, (byte) 6);
        h.putLong(128, client);
        h.putLong(144, parent);
        h.putLong(176, op).putLong(184, commit).putLong(192, timestamp);
        h.putLong(200, request++);
        h.put(208, (byte) operation);
        h.putLong(216, METADATA_GROUP);
        h.putLong(248, session);
        byte[] header = h.array();
        byte[] zeroed = header.clone();
        for (int i = 52; i < 56; i++) {
            zeroed[i] = 0;
        }
        long identity = Xxh3.hash(zeroed);
        ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putLong(0, identity);
        parent = identity;
        byte[] entry = new byte[header.length + body.length];
        System.arraycopy(header, 0, entry, 0, header.length);
        System.arraycopy(body, 0, entry, header.length, body.length);
        file.writeBytes(entry);
        return entry;
    }

    /** Raw bytes appended as they are (torn tails, garbage). */
    public JournalWriter raw(byte[] b) {
        file.writeBytes(b);
        return this;
    }

    public byte[] file() {
        return file.toByteArray();
    }

    /** {@code [kind 1][len 4][u32]}. */
    public static byte[] id(long numeric) {
        return new Le().u8(1).u8(4).u32(numeric).build();
    }

    public static byte[] name(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new Le().u8(b.length).bytes(b).build();
    }

    /** An options TLV block of string keys, in the order given. */
    public static byte[] options(List<Opt> opts) {
        Le le = new Le();
        for (Opt o : opts) {
            byte[] k = o.key().getBytes(StandardCharsets.UTF_8);
            le.u8(2).u32(k.length).bytes(k).u8(o.kind()).u32(o.value().length).bytes(o.value());
        }
        return le.build();
    }

    /**
     * {@code CreateTopicWithAssignments}: {@code [u32 request_len][stream_id][u32 partitions][name][explicit TLV]}
     * {@code [u32 derived_len][derived TLV][u32 count][count x (u32 partition_id, u64 group)][u32 created_view]};
     * partition {@code i} gets consensus group {@code i + 1}. {@code createdView} null leaves the last field out.
     */
    public static byte[] createTopic(long stream, String name, int partitions, List<Opt> explicit, List<Opt> derived,
                                     Long createdView) {
        byte[] request = new Le().bytes(id(stream)).u32(partitions).bytes(name(name)).bytes(options(explicit))
                .build();
        byte[] d = options(derived);
        Le le = new Le().u32(request.length).bytes(request).u32(d.length).bytes(d).u32(partitions);
        for (int i = 0; i < partitions; i++) {
            le.u32(i).u64(i + 1);
        }
        if (createdView != null) {
            le.u32(createdView);
        }
        return le.build();
    }

    /** The admission of a post-#4092 create: explicit as given, derived = every other catalog key at its default. */
    public static byte[] createTopic(long stream, String name, int partitions, Opt... explicit) {
        List<Opt> all = Opt.post4092();
        java.util.List<Opt> derived = new java.util.ArrayList<>();
        for (Opt o : all) {
            boolean given = false;
            for (Opt e : explicit) {
                given |= e.key().equals(o.key());
            }
            if (!given) {
                derived.add(o);
            }
        }
        return createTopic(stream, name, partitions, Opt.sorted(List.of(explicit)), derived, 0L);
    }

    /** {@code UpdateTopic}: {@code [stream_id][topic_id][name][options TLV]}. */
    public static byte[] updateTopic(long stream, long topic, String name, List<Opt> options) {
        return new Le().bytes(id(stream)).bytes(id(topic)).bytes(name(name)).bytes(options(options)).build();
    }

    /** {@code CreateStream}: {@code [name][options TLV]}. */
    public static byte[] createStream(String name) {
        return name(name);
    }

    /** {@code DeleteTopic} / {@code PurgeTopic}: {@code [stream_id][topic_id]}. */
    public static byte[] topicRef(long stream, long topic) {
        return new Le().bytes(id(stream)).bytes(id(topic)).build();
    }
}
