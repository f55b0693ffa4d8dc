package segtool.shell.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;
import segtool.shell.CommandLines;

/** repair, rebuild-index and restore driven black-box through the command line, as a user would. */
class RepairCommandTest {
    @TempDir
    Path data;

    record Run(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = CommandLines.oneShot();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path partition(long id) {
        return data.resolve("streams/1/topics/1/partitions/" + id);
    }

    /** Three segments; the last ends in a torn batch plus zeros; segment 0's index has a torn entry; a staging file. */
    private Path damaged(long id) throws IOException {
        Path d = partition(id);
        Files.createDirectories(d);
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(id)
                .segmentSize(40 * 1024).messagesRequiredToSave(1), 150, 2, 600, id);
        PartitionWriter.SegmentLayout last = segs.get(segs.size() - 1);
        try (FileChannel ch = FileChannel.open(last.log(), StandardOpenOption.WRITE)) {
            PartitionWriter.BatchInfo b = last.batch(last.batches().size() - 1);
            ch.truncate(b.position() + 100);
            ch.write(ByteBuffer.allocate(2000), b.position() + 100);
        }
        Files.write(segs.get(0).index(), new byte[9], StandardOpenOption.APPEND);
        Files.write(d.resolve(SegmentFiles.stem(0) + ".index.staging"), new byte[24]);
        return d;
    }

    /** A partition whose log has a flipped byte inside a batch followed by intact batches: InteriorDamage. */
    private Path refused(long id) throws IOException {
        Path d = partition(id);
        Files.createDirectories(d);
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(id)
                .messagesRequiredToSave(1), 30, 2, 300, 3);
        PartitionWriter.BatchInfo b = segs.get(0).batch(3);
        try (FileChannel ch = FileChannel.open(segs.get(0).log(), StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[]{1, 2, 3}), b.position() + 300);
        }
        return d;
    }

    static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                // the lock file beside a partition only names the last run's PID; it is not data
                if (Files.isRegularFile(p) && !p.toString().contains(".segtool-quarantine.")
                        && !p.toString().endsWith(".segtool-lock")) {
                    out.put(root.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    static void assertSameFiles(Map<String, byte[]> want, Map<String, byte[]> got) {
        assertEquals(want.keySet(), got.keySet());
        want.forEach((k, v) -> assertArrayEquals(v, got.get(k), k));
    }

    @Test
    void dryRun_printsThePlan_exit1_changesNothing() throws Exception {
        Path d = damaged(1);
        Map<String, byte[]> before = files(data);
        Run r = run("repair", d.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("would change files") && r.out().contains("truncate_log")
                && r.out().contains("install_index"), r.out());
        assertSameFiles(before, files(data));
        assertTrue(files(data.resolve("streams/1/topics/1/partitions")).keySet().stream()
                .noneMatch(k -> k.contains("quarantine")));
        Run j = run("repair", d.toString(), "--json");
        assertEquals(1, j.exit());
        JsonNode p = j.json().get("partitions").get(0);
        assertEquals("segtool.repair/2", j.json().get("schema").asText());
        assertEquals("planned", p.get("status").asText());
        assertEquals("delete", p.get("plan").get(0).get("op").asText());
        assertTrue(p.get("quarantine").get("directory").isNull());
    }

    @Test
    void apply_exit0_thenScanIsClean_thenRestoreBringsEverythingBack() throws Exception {
        Path d = damaged(1);
        Map<String, byte[]> before = files(data);
        assertEquals(1, run("scan", d.toString(), "-q").exit());

        Run r = run("repair", d.toString(), "--apply", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode p = r.json().get("partitions").get(0);
        assertEquals("applied", p.get("status").asText());
        assertEquals(0, p.get("after").get("exit_code").asInt());
        Path quarantine = Path.of(p.get("quarantine").get("directory").asText());
        assertTrue(Files.isRegularFile(quarantine.resolve("manifest.json")));
        JsonNode manifest = new ObjectMapper().readTree(quarantine.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.get("state").asText());
        for (JsonNode e : manifest.get("entries")) {
            for (String field : List.of("file", "offset", "length", "xxh3", "reason", "time", "segtool_version")) {
                assertTrue(e.has(field), field + " in " + e);
            }
        }

        assertEquals(0, run("scan", d.toString(), "-q").exit(), "the next boot finds nothing to do");
        assertEquals(0, run("scan", data.toString(), "-q").exit(), "the quarantine is not taken for a partition");
        assertEquals(0, run("repair", d.toString(), "--apply").exit(), "repairing again changes nothing");

        Map<String, byte[]> repaired = files(data);
        Run dry = run("restore", quarantine.toString());
        assertEquals(1, dry.exit(), dry.out());
        assertSameFiles(repaired, files(data));
        Run restored = run("restore", quarantine.toString(), "--apply");
        assertEquals(0, restored.exit(), restored.out() + restored.err());
        assertSameFiles(before, files(data));
        assertEquals(1, run("scan", d.toString(), "-q").exit());
        assertEquals(0, run("restore", quarantine.toString(), "--apply").exit(), "restoring twice is harmless");
    }

    @Test
    void refusedPartition_isExplained_exit2_untouched() throws Exception {
        Path d = refused(2);
        Files.write(d.resolve(SegmentFiles.stem(0) + ".index.staging"), new byte[3]);
        Map<String, byte[]> before = files(data);
        Run r = run("repair", d.toString(), "--apply");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("InteriorDamage {start_offset: 0, damage_position: "), r.out());
        assertTrue(r.out().contains("next steps:") && r.out().contains("replica"), r.out());
        assertSameFiles(before, files(data));
        JsonNode p = run("repair", d.toString(), "--json").json().get("partitions").get(0);
        assertEquals("InteriorDamage", p.get("refusal").get("variant").asText());
        assertTrue(p.get("next_steps").size() >= 2);
        assertEquals(2, run("rebuild-index", d.toString(), "--apply").exit());
    }

    @Test
    void acceptLoss_dryRunShowsTheCut_applyNeedsSalvageTo_thenBoots_andRestoreUndoes() throws Exception {
        Path d = refused(2);
        Map<String, byte[]> before = files(data);
        Run dry = run("repair", d.toString(), "--accept-loss", "--durability=replicated");
        assertEquals(1, dry.exit(), dry.out() + dry.err());
        assertTrue(dry.out().contains("accept-loss would cut"), dry.out());
        assertTrue(dry.out().contains("leaving the live partition: offsets "), dry.out());
        assertTrue(dry.out().contains("clients were already promised these offsets"), dry.out());
        assertTrue(dry.out().contains("the server may hand them out again to new messages"), dry.out());
        assertSameFiles(before, files(data));

        Run noArchive = run("repair", d.toString(), "--accept-loss", "--apply", "--durability=replicated");
        assertEquals(64, noArchive.exit(), noArchive.out() + noArchive.err());
        assertTrue(noArchive.err().contains("--salvage-to"), noArchive.err());
        assertEquals(64, run("repair", d.toString(), "--salvage-to", data.resolve("x").toString()).exit());
        assertSameFiles(before, files(data));

        Path archive = d.resolveSibling("salvaged");
        Run applied = run("repair", d.toString(), "--accept-loss", "--apply", "-y", "--salvage-to",
                archive.toString(), "--json", "--durability=replicated");
        assertEquals(0, applied.exit(), applied.out() + applied.err());
        JsonNode loss = applied.json().get("partitions").get(0).get("accept_loss");
        assertEquals("cut_log", loss.get("cuts").get(0).get("kind").asText());
        assertTrue(loss.get("cuts").get(0).get("offsets_were_promised").asBoolean());
        assertTrue(Files.isRegularFile(archive.resolve("salvage.json")));
        assertTrue(Files.isRegularFile(archive.resolve("messages.ndjson")));
        assertEquals(0, run("scan", d.toString()).exit());
        for (JsonNode q : loss.get("restore_newest_first")) {
            assertEquals(0, run("restore", q.asText(), "--apply", "-y").exit());
        }
        Map<String, byte[]> restored = files(data);
        restored.keySet().removeIf(k -> k.contains("salvaged"));
        assertSameFiles(before, restored);
    }

    /**
     * No metadata/ gives the topic's durability and no --durability was passed: accept-loss acts on D (RECOVERY 1,
     * 14), so the dry run and --apply alike stop with one usage line (64) asking for it; nothing changes, no
     * archive. Plain repair keeps the default and its warning.
     */
    @Test
    void acceptLoss_withoutARealDurability_isAUsageError_andNothingChanges() throws Exception {
        Path d = refused(2);
        Map<String, byte[]> before = files(data);
        Path archive = d.resolveSibling("salvaged");
        for (String[] args : List.of(new String[]{"repair", d.toString(), "--accept-loss"},
                new String[]{"repair", d.toString(), "--accept-loss", "--apply", "-y", "--salvage-to",
                        archive.toString()})) {
            Run r = run(args);
            assertEquals(64, r.exit(), r.out() + r.err());
            assertTrue(r.err().contains("no metadata/ says this topic's durability")
                    && r.err().contains("--durability=persisted|replicated"), r.err());
            assertSameFiles(before, files(data));
            assertTrue(!Files.exists(archive), "no archive");
        }
        Run plain = run("repair", d.toString());
        assertEquals(2, plain.exit(), plain.out() + plain.err());
        assertTrue(plain.out().contains("no metadata/ says this topic's durability, so the repair uses the default"),
                plain.out());
    }

    @Test
    void dataDirectory_repairsWhatItCan_andExplainsTheRest() throws Exception {
        damaged(1);
        refused(2);
        Run r = run("repair", data.toString(), "--apply");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("s1/t1/p1: repaired") && r.out().contains("s1/t1/p2: refused"), r.out());
        assertEquals(0, run("scan", partition(1).toString(), "-q").exit());
        assertEquals(2, run("scan", data.toString(), "-q").exit());
    }

    @Test
    void rebuildIndex_segmentAndPartition() throws Exception {
        Path d = partition(3);
        Files.createDirectories(d);
        List<PartitionWriter.SegmentLayout> segs = PartitionWriter.fill(d, PartitionWriter.Config.of(3)
                .segmentSize(150 * 1024).messagesRequiredToSave(1), 300, 2, 700, 1);
        Path index = segs.get(0).index();
        long dense = Files.size(index);
        Run dry = run("rebuild-index", index.toString());
        assertEquals(1, dry.exit(), dry.out() + dry.err());
        assertEquals(dense, Files.size(index));
        Run r = run("rebuild-index", segs.get(0).log().toString(), "--apply", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(Files.size(index) < dense && Files.size(index) % 24 == 0, "stride index is sparser");
        assertEquals(0, run("scan", d.toString(), "-q").exit());
        assertEquals(0, run("rebuild-index", d.toString(), "--apply").exit());
        assertEquals(0, run("scan", d.toString(), "-q").exit());
    }

    @Test
    void wrongTargets_areUsageErrors() throws Exception {
        Path d = damaged(1);
        assertEquals(64, run("repair", d.resolve(SegmentFiles.stem(0) + ".log").toString()).exit());
        assertEquals(64, run("rebuild-index", data.toString()).exit());
        assertEquals(64, run("repair", data.resolve("nope").toString()).exit());
        assertEquals(3, run("restore", d.toString()).exit(), "not a quarantine directory");
    }

    /**
     * QUARANTINE naming nothing or a file: one line on stderr, exit 64, and no JSON document (a usage error, as for
     * every PATH). It had been "cannot restore: ...: not a quarantine directory (no manifest.json)" on stdout with
     * exit 3, so that -qq said nothing at all and --json wrote a document for a typo.
     */
    @Test
    void restore_aQuarantineThatIsNotThere_orAFile_isAUsageErrorOnStderr() throws Exception {
        Path missing = data.resolve("p.segtool-quarantine.nope");
        Path file = Files.writeString(data.resolve("notes.txt"), "not a quarantine\n");
        String[][] cases = {{missing.toString(), missing + ": no such file or directory"},
            {file.toString(), file + ": not a directory; QUARANTINE is a <partition>.segtool-quarantine.<time> "
                + "directory"}};
        for (String[] c : cases) {
            for (String[] flags : new String[][]{{}, {"--json"}, {"-qq"}, {"--apply", "-y"}}) {
                String[] args = Stream.concat(Stream.of("restore", c[0]), Stream.of(flags)).toArray(String[]::new);
                Run r = run(args);
                assertEquals(64, r.exit(), String.join(" ", args) + ": " + r);
                assertEquals("", r.out(), String.join(" ", args) + ": " + r);
                assertEquals("segtool: " + c[1] + "\n", r.err(), String.join(" ", args) + ": " + r);
            }
        }
        assertEquals("not a quarantine\n", Files.readString(file));
    }
    /** Every regular file under {@code root}, the quarantine's too (the lock file only names the last run's PID). */
    static Map<String, byte[]> everything(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p) && !p.toString().endsWith(".segtool-lock")) {
                    out.put(root.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    /**
     * A damaged quarantine (a kept byte range that does not match its recorded digest, a copy cut short, a
     * recorded digest changed in the manifest, a manifest cut short, a new index cut short) is refused in one line
     * on stderr naming the file, the bytes it applies to and why, exit 3; stdout stays empty (it said "cannot
     * restore: ..." on stdout), --json still writes its document, -qq does not silence it, and nothing changes on
     * disk, with --apply too.
     */
    @Test
    void restore_aDamagedQuarantine_isOneLineOnStderr_andChangesNothing() throws Exception {
        Path d = damaged(1);
        Run r = run("repair", d.toString(), "--apply", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        Path q = Path.of(r.json().get("partitions").get(0).get("quarantine").get("directory").asText());
        JsonNode entry = new ObjectMapper().readTree(q.resolve("manifest.json").toFile()).get("entries").get(0);
        Path copy = q.resolve(entry.get("copy").asText());
        long offset = entry.get("offset").asLong();
        long length = entry.get("length").asLong();
        String range = entry.get("file").asText() + " bytes [" + offset + ", " + (offset + length) + ")";
        String xxh3 = entry.get("xxh3").asText();
        byte[] manifest = Files.readAllBytes(q.resolve("manifest.json"));
        byte[] kept = Files.readAllBytes(copy);

        record Damage(String what, String line, IoAction damage) { }
        List<Damage> cases = List.of(
            new Damage("a kept byte flipped", copy + ": the quarantined copy of " + range + " does not hash to "
                    + xxh3 + " (its bytes hash to ", () -> {
                        byte[] b = kept.clone();
                        b[b.length / 2] ^= 1;
                        Files.write(copy, b);
                    }),
            new Damage("a copy cut short", copy + ": the quarantined copy of " + range + " holds " + (length - 7)
                    + " of its " + length + " bytes (cut short); stopping without changing " + entry.get("file")
                    .asText(), () -> Files.write(copy, java.util.Arrays.copyOf(kept, kept.length - 7))),
            new Damage("the recorded digest changed", copy + ": the quarantined copy of " + range
                    + " does not hash to 0x0000000000000001 (its bytes hash to " + xxh3 + ")", () -> Files.writeString(
                        q.resolve("manifest.json"), new String(manifest, java.nio.charset.StandardCharsets.UTF_8)
                            .replace("\"xxh3\" : \"" + xxh3 + "\"", "\"xxh3\" : \"0x0000000000000001\""))),
            new Damage("the manifest cut short", q.resolve("manifest.json") + ": does not parse at byte 500 of 500 "
                    + "(cut short?): ", () -> Files.write(q.resolve("manifest.json"),
                        java.util.Arrays.copyOf(manifest, 500))));
        for (Damage c : cases) {
            Files.write(q.resolve("manifest.json"), manifest);
            Files.write(copy, kept);
            c.damage().run();
            Map<String, byte[]> before = everything(data);
            for (String[] flags : new String[][]{{}, {"--json"}, {"-qq"}, {"--apply", "-y"}}) {
                String[] args = Stream.concat(Stream.of("restore", q.toString()), Stream.of(flags))
                        .toArray(String[]::new);
                Run x = run(args);
                String where = c.what() + ": " + String.join(" ", args) + ": " + x;
                assertEquals(3, x.exit(), where);
                assertEquals(1, x.err().lines().count(), where);
                assertTrue(x.err().startsWith("segtool: " + c.line()), where);
                if (flags.length == 1 && flags[0].equals("--json")) {
                    assertEquals(3, x.json().get("exit_code").asInt(), where);
                } else {
                    assertEquals("", x.out(), where);
                }
                assertSameFiles(before, everything(data));
            }
        }
    }

    interface IoAction {
        void run() throws IOException;
    }
}
