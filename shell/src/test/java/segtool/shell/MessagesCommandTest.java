package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.log.Message;
import segtool.formats.writer.PartitionWriter;

/** {@code messages}: usage errors with --json and --ndjson; what a payload line says of what it shows. */
class MessagesCommandTest {
    @TempDir
    Path root;

    private static final Path HEALTHY = Path.of("..", "samples", "gallery", "healthy", "streams", "1", "topics", "1",
            "partitions", "1").toAbsolutePath().normalize();

    /**
     * An offset past the end is a usage error, and a usage error prints no document (docs/json.md): one line on
     * stderr, nothing on stdout, exit 64. --json printed a document with "exit_code": 64 and --ndjson a start and a
     * summary line, unlike batches, hexdump and every other command.
     */
    @Test
    void pastTheEnd_json_and_ndjson_printNoDocument() {
        String line = "segtool: offset 99 is past the end of the partition: nothing at or after it\n";
        for (String flag : new String[]{"--json", "--ndjson"}) {
            Cli.Result r = Cli.run("messages", flag, "--offset", "99", HEALTHY);
            assertEquals(ExitCode.USAGE, r.exit(), flag + ": " + r);
            assertEquals("", r.out(), flag + ": " + r);
            assertEquals(line, r.err(), flag + ": " + r);
        }
        Cli.Result segment = Cli.run("messages", "--json", "--offset", "99", HEALTHY.resolve("0"));
        assertEquals(ExitCode.USAGE, segment.exit(), segment.toString());
        assertEquals("", segment.out(), segment.toString());
        assertEquals("segtool: offset 99 is past the end of the segment: nothing at or after it\n", segment.err());

        // text still says it on stdout, as before
        Cli.Result text = Cli.run("messages", "--offset", "99", HEALTHY);
        assertEquals(ExitCode.USAGE, text.exit(), text.toString());
        assertEquals("0 message(s) shown (nothing at or after offset 99)\n", text.out());
        assertEquals(line, text.err());
    }

    /** Inside the data the document and the stream are whole, from their first key to exit_code. */
    @Test
    void insideTheData_theDocumentAndTheStreamAreWhole() {
        Cli.Result json = Cli.run("messages", "--json", "--offset", "4", HEALTHY);
        assertEquals(ExitCode.CLEAN, json.exit(), json.toString());
        assertTrue(json.out().startsWith("{\n  \"schema\" : \"segtool.messages/1\",\n"), json.out());
        assertTrue(json.out().endsWith("  \"shown\" : 1,\n  \"stop\" : null,\n  \"exit_code\" : 0\n}\n"), json.out());

        Cli.Result nd = Cli.run("messages", "--ndjson", "--offset", "4", HEALTHY);
        assertEquals(ExitCode.CLEAN, nd.exit(), nd.toString());
        String[] lines = nd.out().split("\n");
        assertEquals(3, lines.length, nd.out());
        assertTrue(lines[0].startsWith("{\"schema\":\"segtool.messages-ndjson/1\",\"type\":\"start\","), lines[0]);
        assertTrue(lines[1].startsWith("{\"type\":\"message\",\"offset\":4,"), lines[1]);
        assertEquals("{\"type\":\"summary\",\"shown\":1,\"stop\":null,\"exit_code\":0}", lines[2]);

        // no message and no offset: the empty document, exit 0
        Cli.Result none = Cli.run("messages", "--json", "--limit", "0", HEALTHY);
        assertEquals(ExitCode.CLEAN, none.exit(), none.toString());
        assertTrue(none.out().contains("\"messages\" : [ ],\n  \"shown\" : 0,"), none.out());
    }

    /**
     * {@code --max-bytes 0} shows none of a payload: the line says how many bytes it has and that none are shown,
     * and no more (it went on "(empty)", which is false for an 11-byte payload). A payload of no bytes is still
     * "(empty)".
     */
    @Test
    void maxBytesZero_doesNotCallAPayloadEmpty() throws Exception {
        Cli.Result r = Cli.run("messages", "--max-bytes", "0", "--limit", "1", HEALTHY);
        assertEquals(ExitCode.CLEAN, r.exit(), r.toString());
        assertEquals("offset 0  id 1512366075204170947332355369683137040  batch @0 message 0 of 1  frame @256\n"
                + "  server time 2023-11-14T22:13:20.000000Z  producer time 2023-11-14T22:13:19.000000Z\n"
                + "  payload (11 bytes, first 0 shown)\n"
                + "1 message(s) shown\n", r.out());
        for (String format : new String[]{"hex", "json"}) {
            Cli.Result f = Cli.run("messages", "--max-bytes", "0", "--limit", "1", "--format", format, HEALTHY);
            assertTrue(f.out().contains("\n  payload (11 bytes, first 0 shown)\n1 message(s) shown\n"),
                    format + ": " + f);
        }

        Path dir = Partitions.partitionDir(root, "empty-payload", 1);
        PartitionWriter w = new PartitionWriter(dir, PartitionWriter.Config.of(1).messagesRequiredToSave(1));
        try {
            w.append(List.of(new Message(1, 0, 0, new byte[0], null),
                    new Message(2, 0, 0, "abc".getBytes(StandardCharsets.US_ASCII), null)));
        } finally {
            w.close();
        }
        Cli.Result empty = Cli.run("messages", dir);
        assertEquals(ExitCode.CLEAN, empty.exit(), empty.toString());
        assertTrue(empty.out().contains("\n  payload (0 bytes): (empty)\n"), empty.out());
        assertTrue(empty.out().contains("\n  payload (3 bytes): abc\n"), empty.out());
        Cli.Result none = Cli.run("messages", "--max-bytes", "0", dir);
        assertTrue(none.out().contains("\n  payload (0 bytes): (empty)\n"), none.out());
        assertTrue(none.out().contains("\n  payload (3 bytes, first 0 shown)\n"), none.out());
    }
    /**
     * Index entry 1's position set to 10^12: messages from offset 3 still shows offsets 3 and 4 (walked from byte 0),
     * and, as find and index do on the same file, exits 1 for the inconsistency it reports; it exited 0.
     */
    @Test
    void anIndexEntryThatDoesNotMatch_isShownAroundAndExits1() throws java.io.IOException {
        Path copy = root.resolve("mismatch");
        Partitions.copyTree(HEALTHY, copy);
        byte[] v = new byte[8];
        segtool.formats.io.LittleEndian.putU64(v, 0, 1_000_000_000_000L);
        Partitions.write(copy.resolve("00000000000000000000.index"),
                segtool.formats.index.IndexEntry.LENGTH + segtool.formats.index.IndexEntry.POSITION_OFFSET, v);
        Cli.Result r = Cli.run("messages", "--offset", "3", copy);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        assertTrue(r.out().contains("index entry 1 does not match its batch"), r.out());
        Cli.Result json = Cli.run("messages", "--json", "--offset", "3", copy);
        assertEquals(ExitCode.CHANGES, json.exit(), json.toString());
        assertEquals(ExitCode.CLEAN, Cli.run("messages", "--offset", "3", HEALTHY).exit(), "the intact copy");
    }
    /**
     * --limit 0 shows nothing and walks nothing: exit 0, "stopped at --limit" (as batches says), never "past the end"
     * (it exited 64 saying offset 2, which holds a message, was past the end).
     */
    @Test
    void limitZero_isNotPastTheEnd() {
        Cli.Result r = Cli.run("messages", "--offset", "2", "--limit", "0", HEALTHY);
        assertEquals(ExitCode.CLEAN, r.exit(), r.toString());
        assertEquals("0 message(s) shown (stopped at --limit)\n", r.out());
        assertEquals("", r.err());
        Cli.Result json = Cli.run("messages", "--json", "--offset", "2", "--limit", "0", HEALTHY);
        assertEquals(ExitCode.CLEAN, json.exit(), json.toString());
        assertTrue(json.out().contains("\"shown\" : 0"), json.out());
    }
}
