package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.samples.SampleGenerator;

/** pack -> open gives identical verdicts; a hostile dump is refused with one line and nothing judged. */
class DumpVerdictsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    /** The verdict parts of a scan report, without paths (which differ between a directory and its dump). */
    private static JsonNode verdicts(String out) throws IOException {
        JsonNode report = JSON.readTree(out);
        ObjectNode v = JSON.createObjectNode();
        v.set("summary", report.get("summary"));
        var parts = v.putArray("partitions");
        for (JsonNode p : report.get("partitions")) {
            ObjectNode x = parts.addObject();
            for (String k : new String[]{"stream_id", "topic_id", "partition_id", "outcome", "refusal",
                "recoverable_bytes", "budget"}) {
                x.set(k, p.get(k));
            }
            var segs = x.putArray("segments");
            for (JsonNode s : p.get("segments")) {
                segs.addObject().put("start_offset", s.get("start_offset").asLong()).put("status",
                        s.get("status").asText()).set("after", s.get("after"));
            }
        }
        return v;
    }

    @Test
    void packThenOpen_givesIdenticalVerdicts_inBothModes() throws Exception {
        Path samples = root.resolve("samples");
        SampleGenerator.generateAll(samples);
        Path dump = root.resolve("gallery.tar.lz4");
        Cli.Result packed = Cli.run("pack", samples, "-o", dump);
        assertEquals(0, packed.exit(), packed.err());
        for (String mode : new String[]{"--enforce-fsync=false", "--enforce-fsync=true"}) {
            // the metadata shapes store their own durability; a mode for all needs the override
            Cli.Result direct = Cli.run("scan", "--json", mode, "--override-durability", samples);
            Cli.Result fromDump = Cli.run("scan", "--json", mode, "--override-durability", dump);
            assertEquals(direct.exit(), fromDump.exit(), fromDump.err());
            assertEquals(2, direct.exit(), "the gallery holds refused partitions");
            assertEquals(verdicts(direct.out()), verdicts(fromDump.out()), mode);
            assertTrue(verdicts(direct.out()).get("partitions").size() >= 19);
        }
    }

    @Test
    void hostileDump_isRefusedWithOneLine() throws Exception {
        Path dump = root.resolve("evil.tar");
        try (OutputStream raw = Files.newOutputStream(dump); TarArchiveOutputStream tar = new TarArchiveOutputStream(raw)) {
            TarArchiveEntry e = new TarArchiveEntry("../escape.log");
            byte[] body = new byte[10];
            e.setSize(body.length);
            tar.putArchiveEntry(e);
            tar.write(body);
            tar.closeArchiveEntry();
        }
        Cli.Result r = Cli.run("scan", dump);
        assertEquals(ExitCodes.IO_ERROR, r.exit());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("segtool: " + dump), r.err());
        assertTrue(r.err().contains("../escape.log"), r.err());
        assertTrue(Files.notExists(root.resolve("escape.log")));
    }

    /** pack of a PATH that is not there names the OS reason (it said "not a directory"), exit 64, writes nothing. */
    @Test
    void pack_aMissingPath_isNoSuchFile_andWritesNothing() throws Exception {
        Path missing = root.resolve("no-such-node");
        Path out = root.resolve("dump.tar.lz4");
        Cli.Result r = Cli.run("pack", missing, "-o", out);
        assertEquals(64, r.exit(), r.toString());
        assertEquals("segtool: " + missing + ": no such file or directory\n", r.err(), r.toString());
        assertTrue(Files.notExists(out), r.toString());
        try (var s = Files.list(root)) {
            assertEquals(0, s.count(), "nothing written beside OUT either");
        }
    }
}
