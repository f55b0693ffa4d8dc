package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.replica.ManifestJson;
import segtool.analyzers.replica.PartitionManifest;

/**
 * {@code collect} with files it cannot read: the manifest is still written whole (every partition, every file that
 * could be read, the trailer), the partitions holding them are recorded as io_error, stderr has one line per file
 * with the OS reason and a summary, and the exit code is 23 ("collected, but incomplete"), never 0. It used to exit 0
 * with the io_error buried in the manifest. Unreadable here means a symlink loop (ELOOP), which root cannot read
 * either, so this runs as root too; EACCES as an unprivileged user is in {@link OsReasonTest}.
 */
class CollectIncompleteTest {
    @TempDir
    Path root;

    private static void loop(Path file) throws Exception {
        Files.delete(file);
        Files.createSymbolicLink(file, file.getFileName());
    }

    @Test
    void unreadableIndexesAndAnchor_manifestWrittenWhole_oneLineEach_exit23() throws Exception {
        Partitions ok = Partitions.healthy(root, "node");
        Path dir2 = Partitions.partitionDir(root, "node", 2);
        List<segtool.formats.writer.PartitionWriter.SegmentLayout> two = segtool.formats.writer.PartitionWriter
                .fill(dir2, Partitions.CONFIG, 300, 5, 40, 7);
        Path index0 = two.get(0).index();
        Path index2 = two.get(2).index();
        loop(index0);
        loop(index2);
        Path manifest = root.resolve("m.ndjson");

        Cli.Result r = Cli.run("collect", root.resolve("node"), "-o", manifest, "--node", "n1");

        assertEquals(ExitCodes.INCOMPLETE, r.exit(), r::toString);
        List<String> err = r.err().lines().toList();
        assertEquals(List.of(
                "segtool: " + index0 + ": cannot read file metadata (stat): Too many levels of symbolic links",
                "segtool: " + index2 + ": cannot read file metadata (stat): Too many levels of symbolic links",
                "segtool: " + manifest + ": written, but incomplete: 2 files could not be read; 1 partition is "
                        + "recorded as io_error (exit 23)"), err, r::toString);
        ManifestJson.NodeManifest m = ManifestJson.read(manifest);
        assertEquals(2, m.partitions().size(), "every partition is in the manifest");
        PartitionManifest p1 = m.partitions().get(0);
        PartitionManifest p2 = m.partitions().get(1);
        assertEquals(ok.dir.toAbsolutePath().toString(), p1.path());
        assertNull(p1.verdict().ioError(), "the readable partition keeps its verdict");
        assertEquals(3, p1.segments().size());
        assertEquals("io_error", p2.verdict().outcome());
        assertEquals(3, p2.verdict().exitCode());
        assertTrue(p2.verdict().ioError().startsWith(index0.toString()), p2.verdict()::toString);
        assertEquals(3, p2.segments().size(), "the .log files were read: their digests are there");
        assertEquals(Files.size(two.get(1).log()), p2.segments().get(1).logLength());
        assertTrue(p2.warnings().contains("not read: " + index2
                + ": cannot read file metadata (stat): Too many levels of symbolic links"), p2.warnings()::toString);

        Cli.Result json = Cli.run("collect", root.resolve("node"), "-o", manifest, "--node", "n1", "--json");
        assertEquals(23, json.exit(), json::toString);
        JsonNode o = new ObjectMapper().readTree(json.out());
        assertEquals(23, o.get("exit_code").asInt());
        assertEquals(2, o.get("unreadable").size());
        assertEquals(index0.toString(), o.get("unreadable").get(0).get("path").asText());
        assertEquals("stat", o.get("unreadable").get(0).get("operation").asText());
        assertEquals("Too many levels of symbolic links", o.get("unreadable").get(0).get("reason").asText());
        assertEquals(dir2.toAbsolutePath().toString(), o.get("unreadable").get(1).get("partition").asText());

        // plan on it: the partition has no verdict to compare, so plan stops (3) naming it
        Cli.Result plan = Cli.run("plan", manifest);
        assertEquals(3, plan.exit(), plan::toString);

        // an anchor loop too, and the run with --threads 2 gives the same lines in partition order
        Path anchor = dir2.resolve("00000000000000000000.anchor");
        Files.createSymbolicLink(anchor, anchor.getFileName());
        Cli.Result par = Cli.run("collect", root.resolve("node"), "-o", manifest, "--threads", "2");
        assertEquals(23, par.exit(), par::toString);
        assertEquals(4, par.err().lines().count(), par::toString);
        assertTrue(par.err().contains(anchor + ": cannot read file metadata (stat): Too many levels of symbolic "
                + "links\n"), par::toString);
        assertTrue(par.err().contains("3 files could not be read; 1 partition is recorded"), par::toString);
    }

    @Test
    void everythingReadable_isStillZero_withAnEmptyUnreadableList() throws Exception {
        Partitions.healthy(root, "node");
        Cli.Result r = Cli.run("collect", root.resolve("node"), "-o", root.resolve("m.ndjson"), "--json");
        assertEquals(0, r.exit(), r::toString);
        assertEquals("", r.err());
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertNotNull(o.get("unreadable"));
        assertEquals(0, o.get("unreadable").size());
    }
}
