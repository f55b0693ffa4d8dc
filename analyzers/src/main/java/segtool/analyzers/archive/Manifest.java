package segtool.analyzers.archive;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.hash.Xxh3;

/**
 * The first entry of a packed archive, {@value #NAME} at the tar root, beside the source directory's entry. Paths
 * are tar entry names ({@code <root>/<relative path>}, '/'-separated); only regular files are listed. Keys are
 * written in a fixed order:
 * <pre>
 * {"format":"segtool-dump/1","root":"1","source":"/var/lib/iggy/.../partitions/1","created":"2026-...Z",
 *  "files":[{"path":"1/00000000000000000000.log","size":1048832,"xxh3":"0x5A1F..."}],
 *  "skipped":[{"path":"1/current","reason":"symbolic link to '00000000000000000000.log'"}],
 *  "escaped_names":[{"path":"1/%FF.log","bytes":"312fff2e6c6f67"}]}
 * </pre>
 * {@code xxh3} is XXH3-64 (seed 0) of the file's bytes, in {@link Xxh3#hex} form. {@code escaped_names} (left out
 * when empty) lists every entry, file, directory or skipped, whose name on disk is not UTF-8 or holds a backslash:
 * its archive name ({@link EntryNames}) and the bytes of its whole original path, root included, as hex.
 * Unknown keys are ignored on read.
 */
public record Manifest(String format, String root, String source, String created, List<FileEntry> files,
                       List<Skipped> skipped, List<Escaped> escaped) {
    public static final String NAME = "SEGTOOL-MANIFEST.json";
    /** The segtool format tag; a reader refuses to verify against any other. */
    public static final String FORMAT = "segtool-dump/1";

    private static final JsonFactory JSON = JsonFactory.builder().build();

    public Manifest {
        files = List.copyOf(files);
        skipped = List.copyOf(skipped);
        escaped = List.copyOf(escaped);
    }

    public Manifest(String format, String root, String source, String created, List<FileEntry> files,
                    List<Skipped> skipped) {
        this(format, root, source, created, files, skipped, List.of());
    }

    /** An entry whose archive name is not its name on disk: {@code bytes} is the original path as hex. */
    public record Escaped(String path, String bytes) {
    }

    public record FileEntry(String path, long size, long xxh3) {
    }

    /** Something under the source that was deliberately not packed (a link, a socket, a device). */
    public record Skipped(String path, String reason) {
    }

    public void writeTo(OutputStream out) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeStringField("format", format);
            optional(g, "root", root);
            optional(g, "source", source);
            optional(g, "created", created);
            g.writeArrayFieldStart("files");
            for (FileEntry f : files) {
                g.writeStartObject();
                g.writeStringField("path", f.path());
                g.writeNumberField("size", f.size());
                g.writeStringField("xxh3", Xxh3.hex(f.xxh3()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("skipped");
            for (Skipped s : skipped) {
                g.writeStartObject();
                optional(g, "path", s.path());
                optional(g, "reason", s.reason());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (!escaped.isEmpty()) {
                g.writeArrayFieldStart("escaped_names");
                for (Escaped e : escaped) {
                    g.writeStartObject();
                    g.writeStringField("path", e.path());
                    g.writeStringField("bytes", e.bytes());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
    }

    /** A field {@link #readFrom} may find absent: left out when null, since a JSON null is not a string to it. */
    private static void optional(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    /**
     * Parses a manifest as it streams; leaves {@code in} open and positioned somewhere inside it.
     *
     * @throws JsonParseException when the text is not a manifest (any malformed or missing field)
     * @throws IOException        when reading {@code in} fails
     */
    public static Manifest readFrom(InputStream in) throws IOException {
        try {
            return parse(in);
        } catch (CharConversionException e) {
            // Jackson took leading zero bytes for UTF-32 or UTF-16; the writer writes UTF-8, so this is no manifest.
            throw new JsonParseException(null, "manifest is not UTF-8 JSON: " + e.getMessage());
        }
    }

    private static Manifest parse(InputStream in) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            p.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
            expect(p, p.nextToken(), JsonToken.START_OBJECT);
            String format = null;
            String root = null;
            String source = null;
            String created = null;
            List<FileEntry> files = null;
            List<Skipped> skipped = new ArrayList<>();
            List<Escaped> escaped = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                switch (key) {
                    case "format" -> format = text(p, value);
                    case "root" -> root = text(p, value);
                    case "source" -> source = text(p, value);
                    case "created" -> created = text(p, value);
                    case "files" -> files = files(p, value);
                    case "skipped" -> skipped = skipped(p, value);
                    case "escaped_names" -> escaped = escaped(p, value);
                    default -> p.skipChildren();
                }
            }
            expect(p, p.currentToken(), JsonToken.END_OBJECT);
            if (format == null || files == null) {
                throw new JsonParseException(p, "manifest lacks \"format\" or \"files\"");
            }
            return new Manifest(format, root, source, created, files, skipped, escaped);
        }
    }

    private static List<FileEntry> files(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_ARRAY);
        List<FileEntry> files = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String path = null;
            long size = -1;
            Long hash = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                switch (key) {
                    case "path" -> path = text(p, value);
                    case "size" -> {
                        expect(p, value, JsonToken.VALUE_NUMBER_INT);
                        size = p.getLongValue();
                    }
                    case "xxh3" -> hash = parseHex(p, text(p, value));
                    default -> p.skipChildren();
                }
            }
            if (path == null || size < 0 || hash == null) {
                throw new JsonParseException(p, "file entry #" + files.size() + " lacks path, size or xxh3");
            }
            files.add(new FileEntry(path, size, hash));
        }
        expect(p, p.currentToken(), JsonToken.END_ARRAY);
        return files;
    }

    private static List<Skipped> skipped(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_ARRAY);
        List<Skipped> skipped = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String path = null;
            String reason = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                switch (key) {
                    case "path" -> path = text(p, value);
                    case "reason" -> reason = text(p, value);
                    default -> p.skipChildren();
                }
            }
            skipped.add(new Skipped(path, reason));
        }
        expect(p, p.currentToken(), JsonToken.END_ARRAY);
        return skipped;
    }

    private static List<Escaped> escaped(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_ARRAY);
        List<Escaped> escaped = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String path = null;
            String bytes = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                switch (key) {
                    case "path" -> path = text(p, value);
                    case "bytes" -> bytes = text(p, value);
                    default -> p.skipChildren();
                }
            }
            if (path == null || bytes == null) {
                throw new JsonParseException(p, "escaped name #" + escaped.size() + " lacks path or bytes");
            }
            escaped.add(new Escaped(path, bytes));
        }
        expect(p, p.currentToken(), JsonToken.END_ARRAY);
        return escaped;
    }

    private static long parseHex(JsonParser p, String hex) throws JsonParseException {
        String digits = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
        if (digits.isEmpty() || digits.length() > 16) {
            throw new JsonParseException(p, "xxh3 '" + hex + "' is not a 64-bit hex value");
        }
        try {
            return Long.parseUnsignedLong(digits, 16);
        } catch (NumberFormatException e) {
            throw new JsonParseException(p, "xxh3 '" + hex + "' is not a 64-bit hex value");
        }
    }

    private static String text(JsonParser p, JsonToken value) throws IOException {
        expect(p, value, JsonToken.VALUE_STRING);
        return p.getText();
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken wanted) throws JsonParseException {
        if (actual != wanted) {
            throw new JsonParseException(p, "expected " + wanted + ", found " + actual);
        }
    }
}
