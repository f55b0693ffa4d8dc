package segtool.formats.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;
import segtool.formats.hash.Xxh3;
import segtool.formats.io.LittleEndian;

/**
 * Reads {@code metadata/snapshot.bin} (METADATA 2): payload (one MessagePack value, rmp-serde's positional
 * structs) followed by the 20-byte trailer {@code magic u32 LE 0x49534E50 | checksum u128 LE = XXH3-64(payload)}.
 * MessagePack tokens come from msgpack-core; users and the client table are skipped one value at a time. Only format
 * version 3 is decoded: the version is read first and any other is refused before the rest is looked at.
 */
public final class SnapshotReader {
    public static final int TRAILER_LENGTH = 20;
    public static final int MAGIC = 0x49534E50;
    /** The one format version METADATA.md specifies fully (2.5). */
    public static final long KNOWN_VERSION = 3;
    /** Larger files are refused unread: the whole payload is held to check its checksum. */
    public static final long MAX_FILE_BYTES = 256L << 20;

    private final Path file;
    private MessageUnpacker in;
    private long payloadLength;
    private long version;

    private SnapshotReader(Path file) {
        this.file = file;
    }

    public static Snapshot read(Path file) throws IOException {
        return new SnapshotReader(file).run();
    }

    /** Decodes {@code bytes} as the content of {@code file} (for tests and archives). */
    public static Snapshot decode(Path file, byte[] bytes) throws IOException {
        return new SnapshotReader(file).decode(bytes);
    }

    private Snapshot run() throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > MAX_FILE_BYTES) {
                throw fail(0, size + " bytes is more than the " + MAX_FILE_BYTES + " segtool reads");
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining()) {
                if (ch.read(buf, buf.position()) < 0) {
                    throw fail(buf.position(), "file shrank while read");
                }
            }
            return decode(buf.array());
        }
    }

    private Snapshot decode(byte[] bytes) throws IOException {
        Snapshot.Trailer trailer;
        int payload;
        long checksum;
        if (bytes.length < TRAILER_LENGTH) {
            trailer = Snapshot.Trailer.ABSENT_SHORT;
            payload = bytes.length;
            checksum = Xxh3.hash(bytes, 0, payload);
        } else if ((int) LittleEndian.u32(bytes, bytes.length - TRAILER_LENGTH) != MAGIC) {
            trailer = Snapshot.Trailer.ABSENT_NO_MAGIC;
            payload = bytes.length;
            checksum = Xxh3.hash(bytes, 0, payload);
        } else {
            trailer = Snapshot.Trailer.VERIFIED;
            payload = bytes.length - TRAILER_LENGTH;
            checksum = Xxh3.hash(bytes, 0, payload);
            long low = LittleEndian.u64(bytes, bytes.length - 16);
            long high = LittleEndian.u64(bytes, bytes.length - 8);
            if (low != checksum || high != 0) {
                throw fail(bytes.length - 16, String.format("trailer checksum 0x%016x%016x, XXH3-64 of the %d-byte "
                        + "payload is 0x%016x (the server refuses it: ChecksumMismatch)", high, low, payload, checksum));
            }
        }
        payloadLength = payload;
        in = MessagePack.newDefaultUnpacker(bytes, 0, payload);
        try {
            return root(trailer, checksum);
        } catch (MessagePackException e) {
            throw fail(in.getTotalReadBytes(), "not the MessagePack METADATA 2.3 describes ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }

    private Snapshot root(Snapshot.Trailer trailer, long checksum) throws IOException {
        long at = in.getTotalReadBytes();
        int n = array("MetadataSnapshot");
        if (n < 1) {
            throw fail(at, "MetadataSnapshot is an empty array: no format version");
        }
        at = in.getTotalReadBytes();
        version = uint("version");
        if (version != KNOWN_VERSION) {
            throw fail(at, versionRefusal(version), version > KNOWN_VERSION);
        }
        if (n != 7) {
            throw fail(at, "MetadataSnapshot of version 3 has 7 elements, this one " + n);
        }
        long createdAt = uint("created_at");
        long sequence = uint("sequence_number");
        at = in.getTotalReadBytes();
        if (in.tryUnpackNil()) {
            throw fail(at, "users is nil: the server cannot restore this snapshot");
        }
        in.skipValue();
        at = in.getTotalReadBytes();
        if (in.tryUnpackNil()) {
            throw fail(at, "streams is nil: the server cannot restore this snapshot");
        }
        int sn = array("StreamsSnapshot");
        if (sn < 1 || sn > 2) {
            throw fail(at, "StreamsSnapshot has 1 or 2 elements, this one " + sn);
        }
        List<Snapshot.Stream> streams = new ArrayList<>();
        int items = array("streams.items");
        for (int i = 0; i < items; i++) {
            streams.add(stream());
        }
        long revision = sn == 2 ? uint("revision") : 0;
        in.skipValue(); // client_table
        long release = uint("writer_release");
        return new Snapshot(version, createdAt, sequence, streams, revision, release, trailer, checksum);
    }

    /** The one-line refusal of a version other than 3 (METADATA 2.4 rule 2, 2.5, 8 U1). */
    public static String versionRefusal(long version) {
        if (version == 1 || version == 2) {
            return "snapshot format version " + version + " is an older generation (before topic options, "
                    + "apache/iggy#3880); current servers refuse it (UnsupportedFormatVersion) and segtool does not "
                    + "decode it";
        }
        return "snapshot format version " + Long.toUnsignedString(version) + " is not one METADATA.md specifies "
                + "(known: 3; the version of post-#4092 snapshots is UNSETTLED, METADATA 8 U1): not decoded";
    }

    private Snapshot.Stream stream() throws IOException {
        long at = in.getTotalReadBytes();
        if (array("stream item") != 2) {
            throw fail(at, "a stream item is [stream_key, StreamSnapshot]");
        }
        long key = uint("stream_key");
        at = in.getTotalReadBytes();
        int n = array("StreamSnapshot");
        if (n < 5 || n > 6) {
            throw fail(at, "StreamSnapshot has 5 or 6 elements, this one " + n);
        }
        long id = uint("stream id");
        String name = str("stream name");
        uint("stream created_at");
        in.skipValue(); // stats
        List<Snapshot.Topic> topics = new ArrayList<>();
        int tn = array("topics");
        for (int i = 0; i < tn; i++) {
            topics.add(topic());
        }
        if (n == 6) {
            options(); // stream options: not needed, but decoded to check their shape
        }
        return new Snapshot.Stream(key, id, name, topics);
    }

    private Snapshot.Topic topic() throws IOException {
        long at = in.getTotalReadBytes();
        if (array("topic item") != 2) {
            throw fail(at, "a topic item is [topic_key, TopicSnapshot]");
        }
        long key = uint("topic_key");
        at = in.getTotalReadBytes();
        int n = array("TopicSnapshot");
        if (n < 8 || n > 11) {
            throw fail(at, "TopicSnapshot of version 3 has 8 to 11 elements, this one " + n);
        }
        long id = uint("topic id");
        String name = str("topic name");
        uint("topic created_at");
        uint("message_expiry");
        str("compression_algorithm");
        uint("max_topic_size");
        in.skipValue(); // stats
        List<Snapshot.Partition> partitions = new ArrayList<>();
        int pn = array("partitions");
        for (int i = 0; i < pn; i++) {
            partitions.add(partition());
        }
        if (n > 8) {
            in.skipValue(); // consumer_groups
        }
        if (n > 9) {
            uint("next_consumer_group_id");
        }
        List<TopicOption> options = n > 10 ? options() : List.of();
        return new Snapshot.Topic(key, id, name, partitions, options);
    }

    private Snapshot.Partition partition() throws IOException {
        long at = in.getTotalReadBytes();
        int n = array("PartitionSnapshot");
        if (n == 7) {
            throw fail(at, "PartitionSnapshot has 7 elements (created_view) under format version 3; the version such "
                    + "files carry is UNSETTLED (METADATA 8 U1), so the extra element is not guessed at", true);
        }
        if (n < 3 || n > 6) {
            throw fail(at, "PartitionSnapshot of version 3 has 3 to 6 elements, this one " + n);
        }
        long id = uint("partition id");
        long group = uint("consensus_group_id");
        long created = uint("partition created_at");
        long revision = n > 3 ? uint("created_revision") : 0;
        long deleted = n > 4 ? uint("deleted_up_to_offset") : 0;
        long purge = n > 5 ? uint("purge_generation") : 0;
        return new Snapshot.Partition(id, group, created, revision, deleted, purge, null);
    }

    /** {@code ResourceOptions}: map of {@code [kind, base64]} to {@code [[kind, base64], explicit]}. */
    private List<TopicOption> options() throws IOException {
        long at = in.getTotalReadBytes();
        MessageFormat f = in.getNextFormat();
        if (f.getValueType() != ValueType.MAP) {
            throw fail(at, "options: expected a map, found " + f.getValueType().name().toLowerCase());
        }
        int n = in.unpackMapHeader();
        List<TopicOption> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long[] keyKind = new long[1];
            byte[] key = headerField("option key", keyKind);
            at = in.getTotalReadBytes();
            if (array("OptionValue") != 2) {
                throw fail(at, "an option value is [HeaderValue, explicit]");
            }
            long[] valueKind = new long[1];
            byte[] value = headerField("option value", valueKind);
            at = in.getTotalReadBytes();
            if (in.getNextFormat().getValueType() != ValueType.BOOLEAN) {
                throw fail(at, "option explicit flag is not a bool");
            }
            boolean explicit = in.unpackBoolean();
            out.add(new TopicOption((int) keyKind[0], key, (int) valueKind[0], value, explicit));
        }
        return out;
    }

    /** {@code HeaderField}: {@code [kind name, base64 of the value bytes]}. */
    private byte[] headerField(String what, long[] kind) throws IOException {
        long at = in.getTotalReadBytes();
        if (array(what) != 2) {
            throw fail(at, what + " is [kind, base64 bytes]");
        }
        at = in.getTotalReadBytes();
        String name = str(what + " kind");
        int code = HeaderKinds.code(name);
        if (code < 0) {
            throw fail(at, what + " kind \"" + name + "\" is not a HeaderKind name");
        }
        kind[0] = code;
        at = in.getTotalReadBytes();
        String b64 = str(what + " bytes");
        try {
            return Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw fail(at, what + " bytes are not standard base64: " + e.getMessage());
        }
    }

    private int array(String what) throws IOException {
        long at = in.getTotalReadBytes();
        MessageFormat f = in.getNextFormat();
        if (f.getValueType() != ValueType.ARRAY) {
            throw fail(at, what + ": expected an array, found " + f.getValueType().name().toLowerCase());
        }
        return in.unpackArrayHeader();
    }

    /** An unsigned integer in any MessagePack int form; u64 values above 2^63 - 1 come back as negative longs. */
    private long uint(String what) throws IOException {
        long at = in.getTotalReadBytes();
        MessageFormat f = in.getNextFormat();
        if (f.getValueType() != ValueType.INTEGER) {
            throw fail(at, what + ": expected an unsigned integer, found " + f.getValueType().name().toLowerCase());
        }
        if (f == MessageFormat.UINT64) {
            return in.unpackBigInteger().longValue();
        }
        long v = in.unpackLong();
        if (v < 0) {
            throw fail(at, what + ": negative integer " + v + " where an unsigned one belongs");
        }
        return v;
    }

    private String str(String what) throws IOException {
        long at = in.getTotalReadBytes();
        MessageFormat f = in.getNextFormat();
        if (f.getValueType() != ValueType.STRING) {
            throw fail(at, what + ": expected a string, found " + f.getValueType().name().toLowerCase());
        }
        int len = in.unpackRawStringHeader();
        long left = payloadLength - in.getTotalReadBytes();
        if (len < 0 || len > left) {
            throw fail(at, what + ": string of " + Integer.toUnsignedString(len) + " bytes, " + left + " left");
        }
        return new String(in.readPayload(len), StandardCharsets.UTF_8);
    }

    private MetadataFormatException fail(long at, String reason) {
        return new MetadataFormatException(file, at, reason);
    }

    private MetadataFormatException fail(long at, String reason, boolean unsettled) {
        return new MetadataFormatException(file, at, reason, unsettled);
    }
}
