package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14.13: every command that prints JSON prints one document whose first key is {@code schema}
 * ({@code segtool.<kind>/<n>}) and whose last key is {@code exit_code}, equal to the exit code of the run; the
 * NDJSON streams open with a schema line and close with a summary line carrying it. Run on copies of the checked-in
 * gallery (docs/json.md lists the kinds).
 */
class JsonSchemasTest {
    static final Path GALLERY = Path.of("..", "samples", "gallery").toAbsolutePath().normalize();
    static final String PARTITION = "streams/1/topics/1/partitions/1";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    /** Checks the layout rule and returns the document. */
    static JsonNode document(String kind, Cli.Result r) throws IOException {
        JsonNode j = JSON.readTree(r.out());
        assertNotNull(j, kind + ": no document\n" + r);
        assertTrue(j.isObject(), kind + ": not an object\n" + r);
        List<String> keys = new ArrayList<>();
        j.fieldNames().forEachRemaining(keys::add);
        assertEquals("schema", keys.get(0), kind + ": first key\n" + r);
        assertTrue(j.get("schema").asText().matches("segtool\\." + kind + "/[1-9][0-9]*"),
                kind + ": schema " + j.get("schema"));
        assertEquals("exit_code", keys.get(keys.size() - 1), kind + ": last key\n" + r);
        assertTrue(j.get("exit_code").isInt(), kind + ": exit_code " + j.get("exit_code"));
        assertEquals(r.exit(), j.get("exit_code").asInt(), kind + ": exit_code is the exit code\n" + r);
        return j;
    }

    private Path copy(String sample) throws IOException {
        Path from = GALLERY.resolve(sample);
        Path to = root.resolve(sample);
        Partitions.copyTree(from, to);
        return to;
    }

    @Test
    void everyJsonDocument_hasItsSchemaFirstAndTheExitCodeLast() throws Exception {
        Path healthy = copy("healthy");
        Path torn = copy("torn-tail");
        Path healthyPart = healthy.resolve(PARTITION);
        Path tornPart = torn.resolve(PARTITION);
        Path segment = healthyPart.resolve("00000000000000000000.log");
        Map<String, Cli.Result> runs = new LinkedHashMap<>();
        runs.put("scan", Cli.run("scan", "--json", GALLERY));
        runs.put("explain", Cli.run("explain", "--json", tornPart));
        runs.put("segments", Cli.run("segments", "--json", healthyPart));
        runs.put("index", Cli.run("index", "--json", segment));
        runs.put("batches", Cli.run("batches", "--json", segment));
        runs.put("messages", Cli.run("messages", "--json", healthyPart));
        runs.put("find", Cli.run("find", "--json", "--offset", "2", healthyPart));
        runs.put("stats", Cli.run("stats", "--json", healthyPart));
        runs.put("hexdump", Cli.run("hexdump", "--json", segment, "0", "64"));
        runs.put("doctor", Cli.run("doctor", "--json", GALLERY.resolve("data-dir")));
        runs.put("compare", Cli.run("compare", "--json", healthyPart, tornPart));
        runs.put("salvage", Cli.run("salvage", "--json", tornPart, "-o", root.resolve("salvaged")));
        runs.put("pack", Cli.run("pack", "--json", healthy, "-o", root.resolve("healthy.tar.lz4")));
        runs.put("shapes", Cli.run("sample", "--json", "--list"));
        runs.put("sample", Cli.run("sample", "--json", "--shape", "healthy", root.resolve("samples")));
        runs.put("collect", Cli.run("collect", "--json", healthy, "-o", root.resolve("a.ndjson"), "--node", "a"));
        Cli.run("collect", torn, "-o", root.resolve("b.ndjson"), "--node", "b");
        runs.put("plan", Cli.run("plan", "--json", root.resolve("a.ndjson"), root.resolve("b.ndjson"), "-o",
                root.resolve("plan.json")));
        runs.put("apply", Cli.run("apply", "--json", "--plan", root.resolve("plan.json"), "--node", "b",
                "--donor-dir", healthy));
        Cli.Result rebuild = Cli.run("rebuild-index", "--json", tornPart.resolve("00000000000000000000.log"));
        Cli.Result dry = Cli.run("repair", "--json", tornPart);
        Cli.Result applied = Cli.run("repair", "--json", "--apply", "-y", tornPart);

        for (Map.Entry<String, Cli.Result> e : runs.entrySet()) {
            document(e.getKey(), e.getValue());
        }
        assertEquals(dry.exit(), document("repair", dry).get("summary").get("exit_code").asInt(),
                "the deprecated summary.exit_code stays in repair/2");
        document("repair", rebuild);
        JsonNode done = document("repair", applied);
        String quarantine = done.get("partitions").get(0).get("quarantine").get("directory").asText();
        document("restore", Cli.run("restore", "--json", quarantine));

        // the codes are the ones each command documents, so the runs above are the cases they claim to be
        assertEquals(2, runs.get("scan").exit(), runs.get("scan").toString());
        assertEquals(1, runs.get("explain").exit(), runs.get("explain").toString());
        assertEquals(0, runs.get("batches").exit(), runs.get("batches").toString());
        assertEquals(1, dry.exit(), dry.toString());
        assertEquals(0, applied.exit(), applied.toString());
        assertEquals(JSON.readTree(runs.get("scan").out()).get("exit_code"),
                JSON.readTree(runs.get("scan").out()).get("summary").get("exit_code"),
                "summary.exit_code, deprecated, repeats it");
        assertFalse(JSON.readTree(runs.get("scan").out()).has("enforce_fsync"), "dropped in scan/4");
    }

    @Test
    void theExitCodeInTheDocument_isTheProcessExitCode() throws Exception {
        Cli.Result r = Proc.run(Map.of(), "scan", "--json", GALLERY);
        assertEquals(2, r.exit(), r.toString());
        document("scan", r);
    }

    /** The NDJSON streams: a start line with the schema, one typed line per record, a summary line last. */
    static List<JsonNode> stream(String kind, Cli.Result r) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (!line.isEmpty()) {
                lines.add(JSON.readTree(line));
            }
        }
        JsonNode first = lines.get(0);
        Iterator<String> keys = first.fieldNames();
        assertEquals("schema", keys.next(), r.out());
        assertEquals("type", keys.next(), r.out());
        assertEquals("segtool." + kind + "-ndjson/1", first.get("schema").asText());
        assertEquals("start", first.get("type").asText());
        JsonNode last = lines.get(lines.size() - 1);
        List<String> lastKeys = new ArrayList<>();
        last.fieldNames().forEachRemaining(lastKeys::add);
        assertEquals("type", lastKeys.get(0));
        assertEquals("summary", last.get("type").asText());
        assertEquals("exit_code", lastKeys.get(lastKeys.size() - 1));
        assertEquals(r.exit(), last.get("exit_code").asInt(), r.toString());
        for (JsonNode mid : lines.subList(1, lines.size() - 1)) {
            assertEquals("type", mid.fieldNames().next());
        }
        return lines;
    }

    @Test
    void ndjsonOfTheGallery_startsWithTheSchemaAndEndsWithTheExitCode() throws Exception {
        Path part = GALLERY.resolve("healthy").resolve(PARTITION);
        List<JsonNode> b = stream("batches", Cli.run("batches", "--ndjson", part.resolve("0")));
        assertEquals(3, b.size() - 2, "segment A|B|C: three batch lines");
        JsonNode doc = JSON.readTree(Cli.run("batches", "--json", part.resolve("0")).out());
        for (int i = 0; i < 3; i++) {
            JsonNode line = b.get(i + 1).deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) line).remove("type");
            assertEquals(doc.get("batches").get(i), line, "a batch line holds what --json's batches[] does");
        }
        List<JsonNode> m = stream("messages", Cli.run("messages", "--ndjson", part));
        assertEquals("message", m.get(1).get("type").asText());
        assertEquals(m.size() - 2, m.get(m.size() - 1).get("shown").asInt());

        Cli.Result both = Cli.run("batches", "--ndjson", "--json", part.resolve("0"));
        assertEquals(64, both.exit(), both.toString());
        assertTrue(both.err().contains("--json and --ndjson are exclusive"), both.err());
    }

    /**
     * A log of several read windows streamed with --ndjson: each line reaches the writer as soon as its record is
     * read. The writer cancels the run (as Ctrl-C does) when the fourth batch line arrives, so the walk stops after
     * a few of the log's batches; a writer that got its lines only at the end of the walk could not stop it.
     */
    @Test
    void ndjson_handsEachRecordOnWhileTheWalkGoesOn() throws Exception {
        Path dir = root.resolve("big").resolve(PARTITION);
        List<segtool.formats.writer.PartitionWriter.SegmentLayout> segs = segtool.formats.writer.PartitionWriter
                .fill(dir, segtool.formats.writer.PartitionWriter.Config.of(1).segmentSize(64 << 20)
                        .messagesRequiredToSave(4), 4000, 4, 1000, 11);
        assertEquals(1, segs.size());
        long bytes = segs.get(0).length();
        assertTrue(bytes > 3L * segtool.analyzers.inspect.SegmentReader.WINDOW, "several windows: " + bytes);
        int batches = segs.get(0).batches().size();

        Cli.Result whole = Cli.run("batches", "--ndjson", segs.get(0).log());
        assertEquals(batches + 2, stream("batches", whole).size(), "every batch of the log, then the summary");

        String[] args = {"batches", "--ndjson", segs.get(0).log().toString()};
        StringBuilder seen = new StringBuilder();
        int[] lines = {0};
        Thread walker = Thread.currentThread();
        java.io.Writer cancelling = new java.io.Writer() {
            @Override
            public void write(char[] c, int off, int len) {
                for (int i = off; i < off + len; i++) {
                    seen.append(c[i]);
                    if (c[i] == '\n' && ++lines[0] == 4) {
                        walker.interrupt();
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var cmd = CommandLines.oneShot(args);
        cmd.setOut(new java.io.PrintWriter(cancelling));
        java.io.StringWriter err = new java.io.StringWriter();
        cmd.setErr(new java.io.PrintWriter(err, true));
        int exit;
        try {
            exit = cmd.execute(args);
        } finally {
            Thread.interrupted();
        }
        assertEquals(ExitCodes.CANCELLED, exit, err.toString());
        String[] out = seen.toString().split("\n");
        assertTrue(out.length >= 4 && out.length < batches / 4, out.length + " of " + batches + " lines");
        assertTrue(out[0].contains("\"type\":\"start\""), out[0]);
        for (int i = 1; i < out.length; i++) {
            assertFalse(out[i].contains("\"type\":\"summary\""), "no summary after Ctrl-C: " + out[i]);
        }
    }

    /**
     * {@code messages --ndjson} is for machines: without --limit it streams every message (the text and --json
     * outputs keep the default of 20, and an explicit --limit still caps the stream). Messages are written one per
     * batch by PartitionWriter, so the count is the writer's.
     */
    @Test
    void messagesNdjson_withoutLimit_streamsEveryMessage_anExplicitLimitStillCaps() throws Exception {
        Path dir = root.resolve("many").resolve(PARTITION);
        int total = 57;
        List<segtool.formats.writer.PartitionWriter.SegmentLayout> segs = segtool.formats.writer.PartitionWriter
                .fill(dir, segtool.formats.writer.PartitionWriter.Config.of(1).segmentSize(4096)
                        .messagesRequiredToSave(1), total, 1, 100, 5);
        assertTrue(segs.size() > 1, "crosses segments: " + segs.size());

        List<JsonNode> all = stream("messages", Cli.run("messages", "--ndjson", dir));
        assertEquals(total, all.size() - 2, "every message, then the summary");
        assertEquals(total, all.get(all.size() - 1).get("shown").asInt());
        assertEquals(total - 1, all.get(all.size() - 2).get("offset").asLong(), "the last one is offset 56");

        List<JsonNode> capped = stream("messages", Cli.run("messages", "--ndjson", "--limit", "7", dir));
        assertEquals(7, capped.get(capped.size() - 1).get("shown").asInt());
        assertEquals(20, JSON.readTree(Cli.run("messages", "--json", dir).out()).get("shown").asInt(),
                "--json keeps the default of 20");
        assertTrue(Cli.run("messages", dir).out().contains("20 message(s) shown"), "text keeps it too");
    }
}
