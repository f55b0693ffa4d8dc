package segtool.shell.render;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import segtool.analyzers.report.ScanJson;

/**
 * Streaming JSON for listings that can be millions of rows long (index entries, batches, messages): written as it
 * is produced, never held in memory. Keys come out in the order written; u64 values are unsigned.
 *
 * <p>Two shapes: {@link #to} one pretty-printed document, {@link #ndjson} one compact object per line, each line
 * handed to the command's writer as soon as it is complete ({@link #endRecord}), so a reader sees every record while
 * the walk goes on and nothing is kept once written.
 */
public final class JsonOut implements AutoCloseable {
    private final JsonGenerator g;
    private final Target target;

    private JsonOut(JsonGenerator g, Target target) {
        this.g = g;
        this.target = target;
    }

    public static JsonOut to(PrintWriter out) throws IOException {
        Target t = new Target(out);
        JsonGenerator g = generator(t);
        g.useDefaultPrettyPrinter();
        return new JsonOut(g, t);
    }

    /** Newline-delimited JSON: each top-level object on its own line, no indentation inside. */
    public static JsonOut ndjson(PrintWriter out) throws IOException {
        Target t = new Target(out);
        JsonGenerator g = generator(t);
        g.setRootValueSeparator(new SerializedString("\n"));
        return new JsonOut(g, t);
    }

    private static JsonGenerator generator(Target target) throws IOException {
        JsonGenerator g = ScanJson.mapper().getFactory().createGenerator(target);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return g;
    }

    /** The command's writer, which outlives this document, and whether anything reached it. */
    private static final class Target extends FilterWriter {
        boolean wrote;

        Target(PrintWriter out) {
            super(out);
        }

        @Override
        public void write(int c) throws IOException {
            wrote = true;
            super.write(c);
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            wrote |= len > 0;
            super.write(cbuf, off, len);
        }

        @Override
        public void write(String str, int off, int len) throws IOException {
            wrote |= len > 0;
            super.write(str, off, len);
        }

        @Override
        public void close() {
            // the command's writer outlives this document
        }
    }

    /** Starts one NDJSON record: an object whose first key is {@code type}. */
    public JsonOut startRecord(String type) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        return this;
    }

    /** Ends a record and passes it on to the writer now, rather than when a buffer fills. */
    public void endRecord() throws IOException {
        g.writeEndObject();
        g.flush();
    }

    public JsonGenerator g() {
        return g;
    }

    public JsonOut u64(String name, long v) throws IOException {
        g.writeFieldName(name);
        if (v >= 0) {
            g.writeNumber(v);
        } else {
            g.writeNumber(new BigInteger(Long.toUnsignedString(v)));
        }
        return this;
    }

    public JsonOut str(String name, String v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, v);
        }
        return this;
    }

    public JsonOut bool(String name, boolean v) throws IOException {
        g.writeBooleanField(name, v);
        return this;
    }

    @Override
    public void close() throws IOException {
        g.flush();
        if (target.wrote) {
            // the last line's end; nothing at all when no document was begun (a usage error prints none)
            g.writeRaw('\n');
        }
        g.flush();
        g.close();
    }
}
