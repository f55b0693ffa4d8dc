package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.writer.PartitionWriter;
import segtool.samples.Damage;

/** {@code collect}, {@code plan} and {@code apply} black-box, and {@code plan} agreeing with {@code compare}. */
class FleetCommandsTest {
    @TempDir
    Path root;

    private List<PartitionWriter.SegmentLayout> replica(String name, int flushEvery) {
        return PartitionWriter.fill(root.resolve(name).resolve("streams/1/topics/1/partitions/1"),
                PartitionWriter.Config.of(1).segmentSize(4096).messagesRequiredToSave(flushEvery), 300, 3, 40, 9);
    }

    private Path log(String replica, PartitionWriter.SegmentLayout s) {
        return root.resolve(replica).resolve("streams/1/topics/1/partitions/1").resolve(s.log().getFileName());
    }

    @Test
    void collectPlanApply_theDamagedReplicaScansClean_andAStalePlanIsRefused() throws Exception {
        List<PartitionWriter.SegmentLayout> layout = replica("a", 1);
        replica("b", 13);
        PartitionWriter.SegmentLayout seg = layout.get(2);
        Damage.flipByte(log("b", seg), seg.batch(1).position() + 275);

        Cli.Result ca = Cli.run("collect", root.resolve("a"), "-o", root.resolve("a.ndjson"), "--node", "a", "--json");
        assertEquals(0, ca.exit(), ca.toString());
        JsonNode stats = new ObjectMapper().readTree(ca.out());
        assertEquals(1, stats.get("partitions").asInt());
        assertTrue(stats.get("manifest_bytes").asLong() < stats.get("log_bytes").asLong() / 4, ca.out());
        Cli.Result cb = Cli.run("collect", root.resolve("b"), "-o", root.resolve("b.ndjson.gz"), "--node", "b",
                "--max-concurrency", "1", "--max-read-rate", "64M");
        assertEquals(0, cb.exit(), cb.toString());

        Cli.Result plan = Cli.run("plan", root.resolve("a.ndjson"), root.resolve("b.ndjson.gz"), "-o",
                root.resolve("plan.json"), "--json");
        assertEquals(1, plan.exit(), plan.toString());
        JsonNode p = new ObjectMapper().readTree(root.resolve("plan.json").toFile());
        assertEquals("segtool.plan/2", p.get("schema").asText());
        JsonNode part = p.get("partitions").get(0);
        assertEquals("a", part.get("donor").asText());
        Cli.Result cmp = Cli.run("compare", "--json", root.resolve("a"), root.resolve("b"));
        JsonNode c = new ObjectMapper().readTree(cmp.out()).get("partitions").get(0);
        assertEquals(c.get("first_divergence").get("position"), part.get("first_divergence").get("position"));
        assertEquals(c.get("replicas").get(1).get("transfers"), part.get("replicas").get(1).get("transfers"),
                "plan over manifests = compare over directories");
        assertEquals(List.of(seg.startOffset(), seg.batch(1).position(), seg.length()), List.of(
                part.get("replicas").get(1).get("transfers").get(0).get("segment").asLong(),
                part.get("replicas").get(1).get("transfers").get(0).get("from").asLong(),
                part.get("replicas").get(1).get("transfers").get(0).get("to").asLong()));

        Cli.Result dry = Cli.run("apply", "--plan", root.resolve("plan.json"), "--node", "b", "--donor-dir",
                root.resolve("a"));
        assertEquals(1, dry.exit(), dry.toString());
        assertTrue(dry.out().contains("dry run: nothing changed"), dry.out());
        assertEquals(2, Cli.run("scan", root.resolve("b"), "-q").exit());

        // a byte changes after collect: the plan no longer holds
        byte[] good = Files.readAllBytes(log("b", layout.get(0)));
        Damage.flipByte(log("b", layout.get(0)), 3);
        Path changed = root.resolve("b/streams/1/topics/1/partitions/1/00000000000000000000.log");
        Cli.Result stale = Cli.run("apply", "--plan", root.resolve("plan.json"), "--node", "b", "--donor-dir",
                root.resolve("a"), "--apply");
        assertEquals(2, stale.exit(), "a segment the plan does not copy changed: " + stale);
        assertTrue(stale.out().contains(changed + ": changed (XXH3-64 0x"), stale.out());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(changed), readFlipped(good)));
        Files.write(changed, good);
        Damage.flipByte(log("b", seg), 7);
        byte[] before = Files.readAllBytes(log("b", seg));
        stale = Cli.run("apply", "--plan", root.resolve("plan.json"), "--node", "b", "--donor-dir", root.resolve("a"),
                "--apply");
        assertEquals(2, stale.exit(), stale.toString());
        assertTrue(stale.out().contains("since it was collected; the plan no longer applies"), stale.out());
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(log("b", seg))));
        Damage.flipByte(log("b", seg), 7);

        Cli.Result applied = Cli.run("apply", "--plan", root.resolve("plan.json"), "--node", "b", "--donor-dir",
                root.resolve("a"), "--apply");
        assertEquals(0, applied.exit(), applied.toString());
        assertTrue(applied.out().contains("after: boot recovery accepts it as it is"), applied.out());
        assertEquals(0, Cli.run("scan", root.resolve("b"), "-q").exit());
        assertEquals(0, Cli.run("compare", root.resolve("a"), root.resolve("b"), "-q").exit());
    }

    private static byte[] readFlipped(byte[] good) {
        byte[] b = good.clone();
        b[3] ^= (byte) 0xFF;
        return b;
    }

    @Test
    void badManifest_isOneLine_exit3() throws Exception {
        Files.writeString(root.resolve("x.ndjson"), "{\"schema\":\"nope\"}\n");
        Cli.Result r = Cli.run("plan", root.resolve("x.ndjson"));
        assertEquals(3, r.exit(), r.toString());
        assertEquals("segtool: " + root.resolve("x.ndjson") + ": line 1: schema is 'nope', not segtool.manifest/1\n",
                r.err());
    }

    /**
     * A manifest or plan that is a FIFO, a device or a directory: one line naming it, exit 64, nothing opened (a FIFO
     * used to block plan and apply until a writer came; a directory was "segtool: Is a directory", naming no file).
     * The timeout only turns a regression (a hang) into a failure: in a thread of its own, as a FIFO's open does
     * not return on an interrupt.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aManifestOrPlanThatIsNotARegularFile_isOneLine_exit64_neverOpened() throws Exception {
        Path fifo = root.resolve("m.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "no mkfifo here");
        Path dir = Files.createDirectories(root.resolve("m.dir"));
        Path device = Files.createSymbolicLink(root.resolve("m.dev"), Path.of("/dev/zero"));
        String[][] kinds = {{fifo.toString(), "a FIFO"}, {dir.toString(), "a directory"},
            {device.toString(), "a character device"}};
        for (String[] k : kinds) {
            for (Object[] args : new Object[][]{{"plan", k[0]}, {"apply", "--plan", k[0]}}) {
                Cli.Result r = Cli.run(args);
                assertEquals(ExitCodes.USAGE, r.exit(), args[0] + " " + k[0] + ": " + r);
                assertEquals("segtool: " + k[0] + ": is " + k[1] + ", not a regular file; segtool does not open it\n",
                        r.err(), args[0] + " " + k[0] + ": " + r);
            }
        }
    }

    /**
     * A FIFO named like a segment's .log or .index inside the partition: collect refuses it with one line, exit 3,
     * and writes no manifest (it had recorded the segment as 0 bytes with the empty digest and exited 0).
     */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void collect_aFifoNamedLikeASegment_isOneLine_exit3_noManifest() throws Exception {
        for (String role : new String[]{"log", "index"}) {
            List<PartitionWriter.SegmentLayout> layout = replica("fifo-" + role, 1);
            Path dir = root.resolve("fifo-" + role).resolve("streams/1/topics/1/partitions/1");
            Path target = dir.resolve(role.equals("log") ? layout.get(1).log().getFileName()
                    : layout.get(1).index().getFileName());
            Files.delete(target);
            Process mk = new ProcessBuilder("mkfifo", target.toString()).inheritIO().start();
            org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "no mkfifo here");
            Path manifest = root.resolve("fifo-" + role + ".ndjson");
            Cli.Result r = Cli.run("collect", root.resolve("fifo-" + role), "-o", manifest);
            assertEquals(3, r.exit(), role + ": " + r);
            assertEquals(1, r.err().lines().count(), role + ": " + r);
            assertTrue(r.err().contains(target.getFileName() + ": is a FIFO, not a regular file; segtool does not "
                    + "open it"), role + ": " + r);
            assertTrue(Files.notExists(manifest), role + ": no manifest: " + r);
        }
    }

    /**
     * A segment's .log that is a symlink to a regular file: collect and compare hash it without following links, and
     * said "cannot read file: Too many levels of symbolic links (NOFOLLOW_LINKS specified)", a loop that is not there.
     * They refuse it in one line that says it is a symbolic link, exit 3, no manifest.
     */
    @Test
    void collectAndCompare_aSymlinkedLog_isSaidToBeASymlink_notALoop() throws Exception {
        List<PartitionWriter.SegmentLayout> layout = replica("linked", 1);
        replica("plain", 1);
        Path dir = root.resolve("linked").resolve("streams/1/topics/1/partitions/1");
        Path log = dir.resolve(layout.get(1).log().getFileName());
        Path moved = Files.move(log, root.resolve("moved.log"));
        Files.createSymbolicLink(log, moved);
        Path manifest = root.resolve("linked.ndjson");
        for (Cli.Result r : new Cli.Result[]{Cli.run("collect", root.resolve("linked"), "-o", manifest),
            Cli.run("compare", root.resolve("linked"), root.resolve("plain"))}) {
            assertEquals(3, r.exit(), r.toString());
            assertEquals("segtool: " + log + ": is a symbolic link; collect and compare hash a segment's .log only as "
                    + "a regular file, never through a symlink\n", r.err(), r.toString());
        }
        assertTrue(Files.notExists(manifest));
        assertTrue(Files.isSymbolicLink(log), "left as it was");
    }
}
