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

    private JsonOut(JsonGenerator g) {
        this.g = g;
    }

    public static JsonOut to(PrintWriter out) throws IOException {
        JsonGenerator g = generator(out);
        g.useDefaultPrettyPrinter();
        return new JsonOut(g);
    }

    /** Newline-delimited JSON: each top-level object on its own line, no indentation inside. */
    public static JsonOut ndjson(PrintWriter out) throws IOException {
        JsonGenerator g = generator(out);
        g.setRootValueSeparator(new SerializedString("\n"));
        return new JsonOut(g);
    }

    private static JsonGenerator generator(PrintWriter out) throws IOException {
        JsonGenerator g = ScanJson.mapper().getFactory().createGenerator(new FilterWriter(out) {
            @Override
            public void close() {
                // the command's writer outlives this document
            }
        });
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return g;
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
        g.writeRaw('\n');
        g.flush();
        g.close();
    }
}
