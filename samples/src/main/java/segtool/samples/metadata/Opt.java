package segtool.samples.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A topic option as a writer states it: key text, value kind code (F 4.1), value bytes, explicit. Knows the nine
 * keys and defaults a post-#4092 topic stores (METADATA 3.1) and the legacy {@code enforce_fsync} bool.
 */
public record Opt(String key, int kind, byte[] value, boolean explicit) {
    public static final int STRING = 2;
    public static final int BOOL = 3;
    public static final int UINT32 = 11;
    public static final int UINT64 = 12;
    static final String[] KIND_NAMES = {"raw", "string", "bool", "int8", "int16", "int32", "int64", "int128",
        "uint8", "uint16", "uint32", "uint64", "uint128", "float32", "float64"};

    public static Opt string(String key, String value, boolean explicit) {
        return new Opt(key, STRING, value.getBytes(StandardCharsets.UTF_8), explicit);
    }

    public static Opt bool(String key, boolean value, boolean explicit) {
        return new Opt(key, BOOL, new byte[] {(byte) (value ? 1 : 0)}, explicit);
    }

    public static Opt u64(String key, long value, boolean explicit) {
        return new Opt(key, UINT64, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array(),
                explicit);
    }

    public static Opt u32(String key, int value, boolean explicit) {
        return new Opt(key, UINT32, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array(),
                explicit);
    }

    public Opt explicitly(boolean e) {
        return new Opt(key, kind, value, e);
    }

    /**
     * The map admission stores for a post-#4092 topic (METADATA 3.1, 3.2): derived defaults for every key, overlaid
     * by {@code explicit}; sorted by key bytes.
     */
    public static List<Opt> post4092(Opt... explicit) {
        List<Opt> out = new ArrayList<>(List.of(
                string("compression_algorithm", "none", false),
                string("consumer_offset_durability", "replicated", false),
                string("durability", "replicated", false),
                u64("max_topic_size", -1L, false),
                u64("message_expiry", -1L, false),
                u32("messages_required_to_save", 1024, false),
                bool("preallocate_segments", false, false),
                u64("segment_size", 1L << 30, false),
                u64("size_of_messages_required_to_save", 1L << 20, false)));
        for (Opt e : explicit) {
            out.removeIf(o -> o.key.equals(e.key));
            out.add(e);
        }
        return sorted(out);
    }

    /** The key set of a topic created between #3880 and #4092: {@code enforce_fsync} instead of durability keys. */
    public static List<Opt> pre4092(boolean enforceFsync, boolean explicit) {
        List<Opt> out = new ArrayList<>(post4092());
        out.removeIf(o -> o.key.contains("durability"));
        out.add(bool("enforce_fsync", enforceFsync, explicit));
        return sorted(out);
    }

    public static List<Opt> sorted(List<Opt> opts) {
        List<Opt> out = new ArrayList<>(opts);
        out.sort((a, b) -> Arrays.compareUnsigned(a.key.getBytes(StandardCharsets.UTF_8),
                b.key.getBytes(StandardCharsets.UTF_8)));
        return out;
    }
}
