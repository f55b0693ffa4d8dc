package segtool.shell.render;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import segtool.analyzers.report.ScanJson;

/**
 * Streaming JSON for listings that can be millions of rows long (index entries, batches, messages): written as it
 * is produced, never held in memory. Keys come out in the order written; u64 values are unsigned.
 */
public final class JsonOut implements AutoCloseable {
    private final JsonGenerator g;

    private JsonOut(JsonGenerator g) {
        this.g = g;
    }

    public static JsonOut to(PrintWriter out) throws IOException {
        JsonGenerator g = ScanJson.mapper().getFactory().createGenerator(new FilterWriter(out) {
            @Override
            public void close() {
                // the command's writer outlives this document
            }
        });
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.useDefaultPrettyPrinter();
        return new JsonOut(g);
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
