package segtool.analyzers.replica;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.Hex;
import segtool.formats.io.RegularFile;

/**
 * The {@code segtool.manifest/1} file (docs/fleet.md): NDJSON, one header line, one line per partition, one trailer
 * line that counts the partitions (a manifest cut short is refused, not half read). Written and read as a stream,
 * so a manifest costs memory per partition, not per file; gzip-compressed when the name ends in {@code .gz}
 * (read either way, by the magic bytes). Batches are rows: {@code [batch_length, "checksum", message_count]} for a
 * record that verifies and continues the one before it (position and base offset follow), otherwise
 * {@code [base_offset, position, batch_length, "checksum", message_count, verified]}.
 */
public final class ManifestJson {
    public static final String SCHEMA = "segtool.manifest/1";
    private static final JsonFactory JSON = new JsonFactory();

    /** The header line's facts and every partition of one node. */
    public record NodeManifest(String node, String root, String created, String version, Boolean commandLineDurable,
                               List<PartitionManifest> partitions) {
    }

    /** A manifest that is not one: one line naming the file, the line, and what is wrong. */
    public static final class BadManifest extends IOException {
        public BadManifest(String message) {
            super(message);
        }
    }

    private ManifestJson() {
    }

    /** Writes a manifest line by line to a temporary file beside {@code out}, renamed over it when complete. */
    public static final class Writer implements Closeable {
        private final Path out;
        private final Path tmp;
        private final OutputStream stream;
        private final JsonGenerator g;
        private long partitions;
        private long bytesOut;
        private boolean done;

        /** {@code commandLineDurable}: what {@code --durability} said, null when it was not given. */
        public Writer(Path out, String node, String root, String created, String version, Boolean commandLineDurable)
                throws IOException {
            this.out = out;
            Path parent = out.toAbsolutePath().getParent();
            this.tmp = parent.resolve("." + out.getFileName() + ".segtool-tmp");
            OutputStream raw = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
            this.stream = out.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(raw, 1 << 16) : raw;
            this.g = JSON.createGenerator(stream, JsonEncoding.UTF8);
            g.setRootValueSeparator(new SerializedString("\n"));
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            g.writeStringField("segtool_version", version);
            g.writeStringField("node", node);
            g.writeStringField("root", root);
            g.writeStringField("created", created);
            if (commandLineDurable == null) {
                g.writeNullField("command_line_durability");
            } else {
                g.writeStringField("command_line_durability", commandLineDurable ? "persisted" : "replicated");
            }
            g.writeEndObject();
        }

        public void write(PartitionManifest m) throws IOException {
            partition(g, m);
            partitions++;
        }

        /** Writes the trailer, closes and renames the file into place. */
        public void finish() throws IOException {
            g.writeStartObject();
            g.writeNumberField("end", partitions);
            g.writeEndObject();
            g.writeRaw('\n');
            g.close();
            stream.close();
            bytesOut = Files.size(tmp);
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            done = true;
        }

        public long bytes() {
            return bytesOut;
        }

        public long partitions() {
            return partitions;
        }

        /** Without {@link #finish()}: removes the temporary file, leaving {@code out} as it was. */
        @Override
        public void close() throws IOException {
            if (!done) {
                try {
                    g.close();
                    stream.close();
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
        }
    }

    private static void partition(JsonGenerator g, PartitionManifest m) throws IOException {
        g.writeStartObject();
        g.writeStringField("node", m.node());
        id(g, "stream", m.key().stream());
        id(g, "topic", m.key().topic());
        id(g, "partition", m.key().partition());
        nullableU64(g, "created_revision", m.key().createdRevision());
        nullableU64(g, "purge_generation", m.key().purgeGeneration());
        g.writeStringField("path", m.path());
        if (m.durabilitySource() == null) {
            g.writeNullField("durability");
        } else {
            g.writeStringField("durability", m.durable() ? "persisted" : "replicated");
        }
        g.writeStringField("durability_source", m.durabilitySource());
        g.writeBooleanField("enforce_fsync", m.durable()); // deprecated: the #3970 name of durability, until /2
        if (m.checkpoint() == null) {
            g.writeNullField("wal_checkpoint");
        } else {
            g.writeObjectFieldStart("wal_checkpoint");
            u64(g, "start_offset", m.checkpoint().startOffset());
            u64(g, "length", m.checkpoint().length());
            u64(g, "next_offset", m.checkpoint().nextOffset());
            g.writeEndObject();
        }
        verdict(g, m.verdict());
        g.writeArrayFieldStart("warnings");
        for (String w : m.warnings()) {
            g.writeString(w);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("anchors");
        for (PartitionManifest.Anchor a : m.anchors()) {
            g.writeStartObject();
            u64(g, "start_offset", a.start());
            u64(g, "length", a.length());
            g.writeStringField("xxh3", ReplicaJson.hex(a.xxh3()));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("segments");
        for (PartitionManifest.Segment s : m.segments()) {
            g.writeStartObject();
            u64(g, "start_offset", s.start());
            u64(g, "log_length", s.logLength());
            g.writeStringField("log_xxh3", ReplicaJson.hex(s.logXxh3()));
            u64(g, "index_length", s.indexLength());
            u64(g, "walk_end", s.walkEnd());
            g.writeStringField("walk_stop", s.walkStop());
            g.writeArrayFieldStart("batches");
            Batches b = s.batches();
            long nextPos = 0;
            long nextOffset = s.start();
            for (int i = 0; i < b.size(); i++) {
                g.writeStartArray();
                boolean follows = b.verified(i) && b.position(i) == nextPos && b.baseOffset(i) == nextOffset;
                if (!follows) {
                    u64(g, b.baseOffset(i));
                    u64(g, b.position(i));
                }
                u64(g, b.length(i));
                g.writeString(Hex.digits(b.checksum(i)));
                u64(g, b.count(i));
                if (!follows) {
                    g.writeNumber(b.verified(i) ? 1 : 0);
                }
                g.writeEndArray();
                nextPos = b.end(i);
                nextOffset = b.count(i) == 0 ? b.baseOffset(i) : b.baseOffset(i) + b.count(i);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void verdict(JsonGenerator g, PartitionManifest.Verdict v) throws IOException {
        g.writeObjectFieldStart("verdict");
        g.writeStringField("outcome", v.outcome());
        g.writeNumberField("exit_code", v.exitCode());
        g.writeStringField("refusal", v.refusal());
        g.writeStringField("refusal_variant", v.refusalVariant());
        nullableU64(g, "refusal_segment", v.refusalSegment());
        g.writeStringField("io_error", v.ioError());
        g.writeObjectFieldStart("chain");
        PartitionManifest.Chain c = v.chain();
        u64(g, "first_offset", c.firstOffset());
        u64(g, "last_offset", c.lastOffset());
        u64(g, "offsets", c.offsets());
        u64(g, "bytes", c.bytes());
        g.writeArrayFieldStart("segments");
        for (PartitionManifest.ChainPart p : c.parts()) {
            g.writeStartObject();
            u64(g, "start_offset", p.start());
            u64(g, "end_offset", p.endOffset());
            u64(g, "offsets", p.offsets());
            u64(g, "bytes", p.bytes());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void id(JsonGenerator g, String name, long v) throws IOException {
        if (v == -1) {
            g.writeNullField(name);
        } else {
            u64(g, name, v);
        }
    }

    private static void nullableU64(JsonGenerator g, String name, Long v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            u64(g, name, v);
        }
    }

    private static void u64(JsonGenerator g, String name, long v) throws IOException {
        g.writeFieldName(name);
        u64(g, v);
    }

    private static void u64(JsonGenerator g, long v) throws IOException {
        if (v >= 0) {
            g.writeNumber(v);
        } else {
            g.writeNumber(new java.math.BigInteger(Long.toUnsignedString(v)));
        }
    }

    // ---- reading ---------------------------------------------------------------------------------------------

    /** Reads a whole manifest; a bad one is refused with one line naming the file and where. */
    public static NodeManifest read(Path file) throws IOException {
        requireFile(file);
        try (InputStream in = open(file); JsonParser p = JSON.createParser(in)) {
            Reader r = new Reader(file, p);
            return r.read();
        } catch (JsonParseException e) {
            throw new BadManifest(file + ": line " + e.getLocation().getLineNr() + ": not JSON: "
                    + e.getOriginalMessage());
        } catch (java.io.EOFException | java.util.zip.ZipException e) {
            throw new BadManifest(file + ": compressed data is damaged or cut short: " + e.getMessage());
        }
    }

    /**
     * A manifest or plan named on the command line must be a regular file (or a symlink to one): a FIFO would block
     * the read until a writer came, a device can be endless, a directory is no manifest. One line naming it (exit 64:
     * PATH names nothing segtool can open); nothing is opened.
     */
    static void requireFile(Path file) throws IOException {
        IOException unseen = segtool.formats.io.OsReason.statFailure(file);
        if (unseen != null && !(unseen instanceof java.nio.file.NoSuchFileException)
                && !Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw Targets.unreachable(file);
        }
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file)) {
            throw new Targets.NotATarget(RegularFile.refusal(file));
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        in.mark(2);
        int a = in.read();
        int b = in.read();
        in.reset();
        return a == 0x1f && b == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private static final class Reader {
        private final Path file;
        private final JsonParser p;

        Reader(Path file, JsonParser p) {
            this.file = file;
            this.p = p;
        }

        private BadManifest bad(String what) {
            return new BadManifest(file + ": line " + p.currentLocation().getLineNr() + ": " + what);
        }

        NodeManifest read() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw bad("not a " + SCHEMA + " manifest (no header object)");
            }
            String schema = null;
            String version = null;
            String node = null;
            String root = null;
            String created = null;
            Boolean cliDurable = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                    case "schema" -> schema = p.getValueAsString();
                    case "segtool_version" -> version = p.getValueAsString();
                    case "node" -> node = p.getValueAsString();
                    case "root" -> root = p.getValueAsString();
                    case "created" -> created = p.getValueAsString();
                    case "command_line_durability" -> cliDurable = p.currentToken() == JsonToken.VALUE_NULL ? null
                            : "persisted".equals(p.getValueAsString());
                    default -> p.skipChildren();
                }
            }
            if (!SCHEMA.equals(schema)) {
                throw bad("schema is " + (schema == null ? "missing" : "'" + schema + "'") + ", not " + SCHEMA);
            }
            if (node == null) {
                throw bad("the header names no node");
            }
            List<PartitionManifest> parts = new ArrayList<>();
            while (true) {
                JsonToken t = p.nextToken();
                if (t == null) {
                    throw bad("cut short: no trailer line after " + parts.size() + " partitions");
                }
                if (t != JsonToken.START_OBJECT) {
                    throw bad("expected an object");
                }
                Long end = partitionOrEnd(parts);
                if (end != null) {
                    if (end != parts.size()) {
                        throw bad("the trailer counts " + end + " partitions, the file holds " + parts.size());
                    }
                    if (p.nextToken() != null) {
                        throw bad("data after the trailer");
                    }
                    return new NodeManifest(node, root, created, version, cliDurable, List.copyOf(parts));
                }
            }
        }

        /** Reads one line's object: a partition (added, returns null) or the trailer (returns its count). */
        private Long partitionOrEnd(List<PartitionManifest> out) throws IOException {
            String node = null;
            Long stream = null;
            Long topic = null;
            Long partition = null;
            Long rev = null;
            Long gen = null;
            String path = null;
            boolean durable = false;
            Boolean durability = null;
            String source = null;
            PartitionManifest.Checkpoint cp = null;
            PartitionManifest.Verdict verdict = null;
            List<String> warnings = new ArrayList<>();
            List<PartitionManifest.Anchor> anchors = new ArrayList<>();
            List<PartitionManifest.Segment> segments = new ArrayList<>();
            Long end = null;
            boolean any = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                any = true;
                switch (f) {
                    case "end" -> end = u64();
                    case "node" -> node = p.getValueAsString();
                    case "stream" -> stream = nullableU64();
                    case "topic" -> topic = nullableU64();
                    case "partition" -> partition = nullableU64();
                    case "created_revision" -> rev = nullableU64();
                    case "purge_generation" -> gen = nullableU64();
                    case "path" -> path = p.getValueAsString();
                    case "enforce_fsync" -> durable = p.getBooleanValue();
                    case "durability" -> durability = p.currentToken() == JsonToken.VALUE_NULL ? null
                            : "persisted".equals(p.getValueAsString());
                    case "durability_source" -> source = p.getValueAsString();
                    case "wal_checkpoint" -> cp = checkpoint();
                    case "verdict" -> verdict = verdict();
                    case "warnings" -> {
                        expect(JsonToken.START_ARRAY, f);
                        while (p.nextToken() == JsonToken.VALUE_STRING) {
                            warnings.add(p.getText());
                        }
                    }
                    case "anchors" -> anchors(anchors);
                    case "segments" -> segments(segments);
                    default -> p.skipChildren();
                }
            }
            if (end != null) {
                return end;
            }
            if (!any || node == null || partition == null || path == null || verdict == null) {
                throw bad("a partition line needs node, partition, path and verdict");
            }
            PartitionKey key = new PartitionKey(stream == null ? -1 : stream, topic == null ? -1 : topic, partition,
                    rev, gen);
            if (durability != null) {
                durable = durability;
            }
            out.add(new PartitionManifest(node, key, path, durable, source, verdict, List.copyOf(segments), cp,
                    List.copyOf(anchors), List.copyOf(warnings)));
            return null;
        }

        private void expect(JsonToken t, String field) throws IOException {
            if (p.currentToken() != t) {
                throw bad(field + ": expected " + t + ", found " + p.currentToken());
            }
        }

        private long u64() throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
                throw bad("'" + p.currentName() + "': expected an unsigned integer, found " + p.currentToken());
            }
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                java.math.BigInteger v = p.getBigIntegerValue();
                if (v.signum() < 0 || v.bitLength() > 64) {
                    throw bad("'" + p.currentName() + "': " + v + " is not an unsigned 64-bit value");
                }
                return v.longValue();
            }
            long v = p.getLongValue();
            if (v < 0) {
                throw bad("'" + p.currentName() + "': " + v + " is negative");
            }
            return v;
        }

        private Long nullableU64() throws IOException {
            return p.currentToken() == JsonToken.VALUE_NULL ? null : u64();
        }

        private long hex() throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw bad("expected a hex string, found " + p.currentToken());
            }
            String s = p.getText();
            try {
                return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
            } catch (NumberFormatException e) {
                throw bad("'" + s + "' is not a 64-bit hex value");
            }
        }

        private PartitionManifest.Checkpoint checkpoint() throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NULL) {
                return null;
            }
            expect(JsonToken.START_OBJECT, "wal_checkpoint");
            long s = 0;
            long l = 0;
            long n = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                    case "start_offset" -> s = u64();
                    case "length" -> l = u64();
                    case "next_offset" -> n = u64();
                    default -> p.skipChildren();
                }
            }
            return new PartitionManifest.Checkpoint(s, l, n);
        }

        private PartitionManifest.Verdict verdict() throws IOException {
            expect(JsonToken.START_OBJECT, "verdict");
            String outcome = null;
            int exit = -1;
            String refusal = null;
            String variant = null;
            Long segment = null;
            String io = null;
            PartitionManifest.Chain chain = PartitionManifest.Chain.EMPTY;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                    case "outcome" -> outcome = p.getValueAsString();
                    case "exit_code" -> exit = (int) u64();
                    case "refusal" -> refusal = p.getValueAsString();
                    case "refusal_variant" -> variant = p.getValueAsString();
                    case "refusal_segment" -> segment = nullableU64();
                    case "io_error" -> io = p.getValueAsString();
                    case "chain" -> chain = chain();
                    default -> p.skipChildren();
                }
            }
            if (outcome == null || exit < 0 || exit > 3) {
                throw bad("a verdict needs an outcome and an exit_code 0-3");
            }
            return new PartitionManifest.Verdict(outcome, exit, refusal, variant, segment, io, chain);
        }

        private PartitionManifest.Chain chain() throws IOException {
            expect(JsonToken.START_OBJECT, "chain");
            long first = 0;
            long last = 0;
            long offsets = 0;
            long bytes = 0;
            List<PartitionManifest.ChainPart> parts = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                p.nextToken();
                switch (f) {
                    case "first_offset" -> first = u64();
                    case "last_offset" -> last = u64();
                    case "offsets" -> offsets = u64();
                    case "bytes" -> bytes = u64();
                    case "segments" -> {
                        expect(JsonToken.START_ARRAY, f);
                        while (p.nextToken() == JsonToken.START_OBJECT) {
                            long s = 0;
                            long e = 0;
                            long o = 0;
                            long b = 0;
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String g = p.currentName();
                                p.nextToken();
                                switch (g) {
                                    case "start_offset" -> s = u64();
                                    case "end_offset" -> e = u64();
                                    case "offsets" -> o = u64();
                                    case "bytes" -> b = u64();
                                    default -> p.skipChildren();
                                }
                            }
                            parts.add(new PartitionManifest.ChainPart(s, e, b, o));
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            return new PartitionManifest.Chain(first, last, bytes, offsets, List.copyOf(parts));
        }

        private void anchors(List<PartitionManifest.Anchor> out) throws IOException {
            expect(JsonToken.START_ARRAY, "anchors");
            while (p.nextToken() == JsonToken.START_OBJECT) {
                long s = 0;
                long l = 0;
                long h = 0;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    p.nextToken();
                    switch (f) {
                        case "start_offset" -> s = u64();
                        case "length" -> l = u64();
                        case "xxh3" -> h = hex();
                        default -> p.skipChildren();
                    }
                }
                out.add(new PartitionManifest.Anchor(s, l, h));
            }
        }

        private void segments(List<PartitionManifest.Segment> out) throws IOException {
            expect(JsonToken.START_ARRAY, "segments");
            while (p.nextToken() == JsonToken.START_OBJECT) {
                Long start = null;
                long logLength = 0;
                long xxh3 = 0;
                long indexLength = 0;
                long walkEnd = 0;
                String stop = null;
                Batches batches = new Batches();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    p.nextToken();
                    switch (f) {
                        case "start_offset" -> start = u64();
                        case "log_length" -> logLength = u64();
                        case "log_xxh3" -> xxh3 = hex();
                        case "index_length" -> indexLength = u64();
                        case "walk_end" -> walkEnd = u64();
                        case "walk_stop" -> stop = p.getValueAsString();
                        case "batches" -> {
                            if (start == null) {
                                throw bad("a segment's start_offset must come before its batches");
                            }
                            batches(start, batches);
                        }
                        default -> p.skipChildren();
                    }
                }
                if (start == null) {
                    throw bad("a segment needs a start_offset");
                }
                out.add(new PartitionManifest.Segment(start, logLength, xxh3, indexLength, batches, walkEnd, stop));
            }
        }

        private void batches(long start, Batches out) throws IOException {
            expect(JsonToken.START_ARRAY, "batches");
            long nextPos = 0;
            long nextOffset = start;
            long[] v = new long[6];
            while (p.nextToken() == JsonToken.START_ARRAY) {
                int n = 0;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (n == 6) {
                        throw bad("a batch row has more than 6 values");
                    }
                    boolean checksumSlot = n == 1 || n == 3;
                    if (t == JsonToken.VALUE_STRING && checksumSlot) {
                        v[n++] = hex();
                    } else {
                        v[n++] = u64();
                    }
                }
                if (n == 3) {
                    out.add(nextPos, nextOffset, v[0], v[1], v[2], true);
                } else if (n == 6) {
                    out.add(v[1], v[0], v[2], v[3], v[4], v[5] != 0);
                } else {
                    throw bad("a batch row has 3 or 6 values, not " + n);
                }
                int i = out.size() - 1;
                nextPos = out.end(i);
                nextOffset = out.count(i) == 0 ? out.baseOffset(i) : out.baseOffset(i) + out.count(i);
            }
        }
    }
}
