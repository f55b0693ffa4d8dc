package segtool.formats.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Body layouts of the metadata journal operations that shape streams and topics (METADATA 4.6). All integers
 * little-endian. A body that does not parse throws {@link Malformed} naming the byte; the server's apply of such a
 * body fails and bumps nothing.
 */
public final class JournalBodies {
    public static final int MAX_OPTION_ENTRIES = 1024;
    public static final int MAX_OPTION_BYTES = 100_000;

    /** A body that does not parse: the byte and the reason. */
    public static final class Malformed extends Exception {
        public final int position;

        Malformed(int position, String reason) {
            super("body byte " + position + ": " + reason, null, false, false);
            this.position = position;
        }
    }

    /** {@code WireIdentifier}: numeric (kind 1, u32) or a name (kind 2). */
    public record Identifier(Long number, String name) {
        @Override
        public String toString() {
            return number != null ? Long.toString(number) : '"' + name + '"';
        }
    }

    public record Assignment(long partitionId, long consensusGroupId) {
    }

    /** {@code CreateTopicWithAssignments} (op 64); {@code createdView} null when the body ends after the list. */
    public record CreateTopic(Identifier stream, long partitionsCount, String name, List<TopicOption> explicit,
                              List<TopicOption> derived, List<Assignment> assignments, Long createdView) {
    }

    /** {@code UpdateTopic} (op 133). */
    public record UpdateTopic(Identifier stream, Identifier topic, String name, List<TopicOption> options) {
    }

    /** {@code CreateStream} (op 128). */
    public record CreateStream(String name, List<TopicOption> options) {
    }

    /** {@code DeleteTopic} (134) and {@code PurgeTopic} (135): the topic named. */
    public record TopicRef(Identifier stream, Identifier topic) {
    }

    /** {@code CreatePartitionsWithAssignments} (op 65): the topic named by the request and the new partitions. */
    public record CreatePartitions(Identifier stream, Identifier topic, List<Assignment> assignments) {
    }

    /** {@code DeletePartitions} (op 137): the highest {@code count} partitions of the topic go. */
    public record DeletePartitions(Identifier stream, Identifier topic, long count) {
    }

    private JournalBodies() {
    }

    /**
     * {@code [u32 len][CreatePartitionsRequest][u32 count][count x 12-byte assignments][created_view u32 (newer)]};
     * of the request only its leading {@code stream_id} and {@code topic_id} identifiers are read.
     */
    public static CreatePartitions createPartitions(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        int len = c.u32len("request_len");
        int end = c.pos + len;
        Identifier stream = c.identifier();
        Identifier topic = c.identifier();
        if (c.pos > end) {
            throw new Malformed(end, "request_len " + len + " ends inside the identifiers");
        }
        c.pos = end;
        long count = c.u32();
        if (count > (long) c.left() / 12) {
            throw new Malformed(c.pos - 4, "count " + count + " does not fit in the body");
        }
        List<Assignment> out = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            out.add(new Assignment(c.u32(), c.u64()));
        }
        if (c.left() != 0 && c.left() != 4) {
            throw new Malformed(c.pos, c.left() + " bytes after the assignments (0, or 4 for created_view, expected)");
        }
        return new CreatePartitions(stream, topic, out);
    }

    public static DeletePartitions deletePartitions(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        DeletePartitions d = new DeletePartitions(c.identifier(), c.identifier(), c.u32());
        c.end();
        return d;
    }

    public static CreateTopic createTopic(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        int requestLen = c.u32len("request_len");
        int requestEnd = c.pos + requestLen;
        Identifier stream = c.identifier();
        long partitions = c.u32();
        String name = c.name();
        if (c.pos > requestEnd) {
            throw new Malformed(requestEnd, "request_len " + requestLen + " ends inside the request's fixed fields");
        }
        List<TopicOption> explicit = options(c, requestEnd, true);
        int derivedLen = c.u32len("derived_len");
        List<TopicOption> derived = options(c, c.pos + derivedLen, false);
        long count = c.u32();
        if (count > (long) (body.length - c.pos) / 12) {
            throw new Malformed(c.pos - 4, "partition_count " + count + " does not fit in the body");
        }
        List<Assignment> assignments = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            assignments.add(new Assignment(c.u32(), c.u64()));
        }
        Long view = null;
        if (c.left() == 4) {
            view = c.u32();
        } else if (c.left() != 0) {
            throw new Malformed(c.pos, c.left() + " bytes after the assignments (0, or 4 for created_view, expected)");
        }
        return new CreateTopic(stream, partitions, name, explicit, derived, assignments, view);
    }

    public static UpdateTopic updateTopic(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        Identifier stream = c.identifier();
        Identifier topic = c.identifier();
        String name = c.name();
        return new UpdateTopic(stream, topic, name, options(c, body.length, true));
    }

    public static CreateStream createStream(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        String name = c.name();
        return new CreateStream(name, options(c, body.length, true));
    }

    public static Identifier deleteStream(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        Identifier id = c.identifier();
        c.end();
        return id;
    }

    public static TopicRef topicRef(byte[] body) throws Malformed {
        Cursor c = new Cursor(body);
        TopicRef r = new TopicRef(c.identifier(), c.identifier());
        c.end();
        return r;
    }

    /**
     * An options TLV block {@code [key_kind u8][key_len u32][key][value_kind u8][value_len u32][value]...} up to
     * {@code end}: keys of kind string, valid UTF-8, unique; at most 1,024 entries and 100,000 bytes. Entries whose
     * value kind is not one of F 4.1's 1..15 are skipped, as the server's decoder does.
     */
    static List<TopicOption> options(Cursor c, int end, boolean explicit) throws Malformed {
        if (end < c.pos || end > c.b.length) {
            throw new Malformed(c.pos, "options block runs past the body");
        }
        if (end - c.pos > MAX_OPTION_BYTES) {
            throw new Malformed(c.pos, "options block of " + (end - c.pos) + " bytes, more than 100,000");
        }
        List<TopicOption> out = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        int entries = 0;
        while (c.pos < end) {
            int at = c.pos;
            if (++entries > MAX_OPTION_ENTRIES) {
                throw new Malformed(at, "more than 1,024 option entries");
            }
            int keyKind = c.u8();
            byte[] key = c.bytes(c.u32len("key_len"), end);
            int valueKind = c.u8();
            byte[] value = c.bytes(c.u32len("value_len"), end);
            if (keyKind != HeaderKinds.STRING) {
                throw new Malformed(at, "option key of kind " + keyKind + ", not string (2)");
            }
            String text = utf8(key, at);
            if (!keys.add(text)) {
                throw new Malformed(at, "duplicate option key \"" + text + "\"");
            }
            if (valueKind >= 1 && valueKind <= 15) {
                out.add(new TopicOption(keyKind, key, valueKind, value, explicit));
            }
        }
        return out;
    }

    private static String utf8(byte[] b, int at) throws Malformed {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed(at, "not UTF-8");
        }
    }

    static final class Cursor {
        final byte[] b;
        int pos;
        private final ByteBuffer le;

        Cursor(byte[] b) {
            this.b = b;
            this.le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        }

        int left() {
            return b.length - pos;
        }

        private void need(int n, String what) throws Malformed {
            if (n > left()) {
                throw new Malformed(pos, what + " needs " + n + " bytes, " + left() + " left");
            }
        }

        int u8() throws Malformed {
            need(1, "u8");
            return b[pos++] & 0xff;
        }

        long u32() throws Malformed {
            need(4, "u32");
            long v = Integer.toUnsignedLong(le.getInt(pos));
            pos += 4;
            return v;
        }

        long u64() throws Malformed {
            need(8, "u64");
            long v = le.getLong(pos);
            pos += 8;
            return v;
        }

        int u32len(String what) throws Malformed {
            int at = pos;
            long v = u32();
            if (v > left()) {
                throw new Malformed(at, what + " " + v + " runs past the body (" + left() + " left)");
            }
            return (int) v;
        }

        byte[] bytes(int n, int end) throws Malformed {
            if (n > end - pos) {
                throw new Malformed(pos, n + " bytes run past the end of their block");
            }
            byte[] out = new byte[n];
            System.arraycopy(b, pos, out, 0, n);
            pos += n;
            return out;
        }

        Identifier identifier() throws Malformed {
            int at = pos;
            int kind = u8();
            int len = u8();
            need(len, "identifier");
            if (kind == 1) {
                if (len != 4) {
                    throw new Malformed(at, "numeric identifier of length " + len + ", not 4");
                }
                return new Identifier(u32(), null);
            }
            if (kind == 2) {
                if (len == 0) {
                    throw new Malformed(at, "empty identifier name");
                }
                return new Identifier(null, utf8(bytes(len, b.length), at));
            }
            throw new Malformed(at, "identifier kind " + kind + " (1 numeric, 2 string)");
        }

        String name() throws Malformed {
            int at = pos;
            int len = u8();
            if (len == 0) {
                throw new Malformed(at, "empty name");
            }
            need(len, "name");
            return utf8(bytes(len, b.length), at);
        }

        void end() throws Malformed {
            if (left() != 0) {
                throw new Malformed(pos, left() + " unexpected bytes at the end");
            }
        }
    }
}
