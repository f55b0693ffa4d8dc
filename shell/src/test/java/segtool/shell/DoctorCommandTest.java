package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code doctor} on the command line: text, JSON and the exit codes. */
class DoctorCommandTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");

    @TempDir
    Path root;

    @Test
    void healthy_nothingNeedsAttention_exit0() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("healthy"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("1 partition(s) examined: nothing needs attention"), r.out());
    }

    @Test
    void refused_json_exit2() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("hole"), "--json");
        assertEquals(2, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("segtool.doctor/2", j.get("schema").asText());
        assertEquals("refused_partition", j.at("/findings/0/kind").asText());
        assertEquals("Hole", j.at("/findings/0/details/variant").asText());
        assertEquals("1..3", j.at("/findings/0/details/lost_offsets/0").asText());
        assertEquals(2, j.get("exit_code").asInt());
    }

    @Test
    void scratchFile_exit1_namesTheRepair() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("non-canonical-names"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("scratch file 00000000000000000000.index.staging"), r.out());
        assertTrue(r.out().contains("next: segtool repair "), r.out());
    }

    /**
     * Doctor judges each partition with the inputs scan reads (its topic's durability from metadata/, its WAL
     * checkpoint, the directory as the WAL's open leaves it), so for every gallery shape it exits as scan does.
     * Before, it judged every partition lenient with no checkpoint: it said "nothing needs attention" where the
     * server refuses to start (a legacy enforce_fsync) or rebuilds the checkpointed index, and REFUSED where the
     * WAL's open first replaces the log and recovery then accepts it.
     */
    @Test
    void everyGalleryShape_exitsAsScanDoes() throws IOException {
        List<Path> shapes;
        try (Stream<Path> s = Files.list(GALLERY)) {
            shapes = s.filter(Files::isDirectory).sorted().toList();
        }
        assertTrue(shapes.size() >= 20, shapes.toString());
        for (Path shape : shapes) {
            Cli.Result doctor = Cli.run("doctor", "-q", shape);
            Cli.Result scan = Cli.run("scan", "-q", shape);
            assertEquals(scan.exit(), doctor.exit(), shape + "\n" + doctor + "\n" + scan);
        }
    }

    @Test
    void walOpen_judgedOnTheDirectoryTheOpenLeaves() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("wal-open"), "--json");
        assertEquals(1, r.exit(), r.toString());
        JsonNode f = new ObjectMapper().readTree(r.out()).at("/findings/0");
        assertEquals("recovery_would_change", f.get("kind").asText());
        assertEquals("stage_index 00000000000000000000.index.staging", f.at("/details/operations/0").asText());
        assertEquals("install_index 00000000000000000000.index", f.at("/details/operations/1").asText());
        assertTrue(f.at("/details/wal_open/0").asText().startsWith("truncate prepares-1/segment-0-0.log from 1245 to "
                + "1145 bytes"), f.toString());
        assertEquals("persisted", f.at("/details/durability").asText());
        assertEquals("metadata/snapshot.bin", f.at("/details/durability_from").asText());
        assertEquals("0:1145:5", f.at("/details/checkpoint").asText());
        assertEquals("prepares-1/frontier slot 0, sequence 2", f.at("/details/checkpoint_from").asText());
    }

    @Test
    void walCheckpoint_theCheckpointedIndexIsRebuilt_exit1() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("wal-checkpoint"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("the next boot would change files: stage_index 00000000000000000000.index.staging,"
                + " install_index 00000000000000000000.index"), r.out());
        assertTrue(r.out().contains("checkpoint: 0:1145:5"), r.out());
    }

    @Test
    void legacyEnforceFsync_noVerdict_theServerRefusesToStart_exit2() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("metadata-legacy-enforce-fsync"), "--json");
        assertEquals(2, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(1, j.at("/counts/no_verdict").asInt());
        assertEquals("no_verdict", j.at("/findings/0/kind").asText());
        assertEquals("server_refuses_node", j.at("/findings/0/details/refusal").asText());
        assertTrue(j.at("/findings/0/details/reason").asText().contains("UnsupportedOptionKey(\"enforce_fsync\")"),
                j.toString());
        assertEquals(2, j.get("exit_code").asInt());
        assertTrue(j.get("durability").isNull(), j.toString());
    }

    @Test
    void durabilityContradictingTheMetadata_noVerdictForThatTopic_exit64_theOtherJudged() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("metadata-durability"), "--durability=replicated");
        assertEquals(64, r.exit(), r.toString());
        assertTrue(r.out().contains("no verdict: --durability=replicated contradicts the topic's stored durability"),
                r.out());
        assertTrue(r.out().contains("durability: replicated"), r.out());
    }

    @Test
    void commandLineDurability_isRepeatedOnTheNextCommands() throws Exception {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("torn-tail"), "--durability=persisted", "--json");
        assertEquals(1, r.exit(), r.toString());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("persisted", j.get("durability").asText());
        assertTrue(j.get("enforce_fsync").asBoolean());
        for (JsonNode next : j.at("/findings/0/next")) {
            assertTrue(next.asText().contains(" --durability=persisted"), next.toString());
        }
        assertEquals("persisted", j.at("/findings/0/details/durability").asText());
        assertFalse(j.at("/findings/0/details/durability_from").asText().contains("metadata"), j.toString());
    }

    /** Latent damage is reported as scan reports it (exit 5), with the stretch's bytes, offsets and check. */
    @Test
    void latentDamage_asScanReportsIt_exit5() throws Exception {
        Path shape = GALLERY.resolve("interior-damage-below-last-entry");
        Cli.Result r = Cli.run("doctor", shape, "--durability=persisted", "--json");
        assertEquals(ExitCodes.LATENT, r.exit(), r.toString());
        assertEquals(ExitCodes.LATENT, Cli.run("scan", "-q", shape, "--durability=persisted").exit());
        JsonNode f = new ObjectMapper().readTree(r.out()).at("/findings/0");
        assertEquals("latent_damage", f.get("kind").asText());
        assertEquals(315, f.at("/details/stretches/0/from").asLong());
        assertEquals(782, f.at("/details/stretches/0/to").asLong());
        assertEquals("1..3", f.at("/details/stretches/0/offsets").asText());
        assertTrue(f.at("/details/stretches/0/check").asText().contains("message 0 checksum mismatch"), f.toString());
    }

    /** --partition-id, a directory name that is no partition id, and a segment PATH are taken as scan takes them. */
    @Test
    void partitionIdAndPaths_asScanTakesThem_exit64() throws IOException {
        Cli.Result many = Cli.run("doctor", GALLERY.resolve("data-dir"), "--partition-id", "1");
        assertEquals(64, many.exit(), many.toString());
        assertTrue(many.err().contains("--partition-id applies to a single partition, but "), many.err());
        Path named = root.resolve("a");
        Partitions.copyTree(GALLERY.resolve("healthy/streams/1/topics/1/partitions/1"), named);
        Cli.Result unnamed = Cli.run("doctor", named);
        assertEquals(64, unnamed.exit(), unnamed.toString());
        assertTrue(unnamed.err().contains("the directory name is not a partition id; pass --partition-id N"),
                unnamed.err());
        Cli.Result given = Cli.run("doctor", named, "--partition-id", "1");
        assertEquals(0, given.exit(), given.toString());
        Cli.Result segment = Cli.run("doctor", named.resolve("00000000000000000000.log"), "--partition-id", "1");
        assertEquals(64, segment.exit(), segment.toString());
        assertTrue(segment.err().contains("names one segment; doctor examines whole partitions"), segment.err());
    }

    /** Every next command carries the options that changed the verdict, so that it judges as doctor did. */
    @Test
    void nextCommands_carryPartitionIdAndTheSizeLimit() throws Exception {
        Path p = root.resolve("7");
        Partitions.copyTree(GALLERY.resolve("hole/streams/1/topics/1/partitions/1"), p);
        Cli.Result r = Cli.run("doctor", p, "--partition-id", "1", "--max-message-size-upper", "1048576", "--json");
        assertEquals(2, r.exit(), r.toString());
        JsonNode next = new ObjectMapper().readTree(r.out()).at("/findings/0/next");
        assertEquals(3, next.size(), next.toString());
        for (JsonNode n : next) {
            assertTrue(n.asText().contains(" --partition-id=1") && n.asText().contains(" --max-message-size-upper="
                    + "1048576"), n.toString());
        }
        assertFalse(next.get(1).asText().contains("--durability"), "salvage takes no durability: " + next);
        for (int i = 0; i < 3; i += 2) {
            String[] argv = next.get(i).asText().replaceFirst("^segtool ", "").split(" ");
            assertEquals(2, Cli.run((Object[]) argv).exit(), next.get(i).asText());
        }
    }

    /** An index the next boot re-installs identical to the one on disk changes nothing: clean, as scan says. */
    @Test
    void identicalIndexReinstall_isClean_asScanSays() throws IOException {
        Path data = root.resolve("wc");
        Partitions.copyTree(GALLERY.resolve("wal-checkpoint"), data);
        assertEquals(0, Cli.run("repair", data, "--apply", "-y").exit());
        Path parent = data.resolve("streams/0/topics/0/partitions");
        try (Stream<Path> s = Files.list(parent)) {
            for (Path q : s.filter(x -> x.getFileName().toString().contains(".segtool-quarantine.")).toList()) {
                try (Stream<Path> w = Files.walk(q)) {
                    for (Path x : w.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(x);
                    }
                }
            }
        }
        assertEquals(0, Cli.run("scan", "-q", data).exit());
        Cli.Result r = Cli.run("doctor", data);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("nothing needs attention"), r.out());
    }

    /** On a crash dump no repair can run: the next commands say so instead of naming one that exits 64. */
    @Test
    void crashDump_noRepairSuggested() throws Exception {
        Path dump = root.resolve("torn.tar.lz4");
        assertEquals(0, Cli.run("pack", GALLERY.resolve("torn-tail"), "-o", dump).exit());
        Cli.Result r = Cli.run("doctor", dump, "--json");
        assertEquals(Cli.run("scan", "-q", dump).exit(), r.exit(), r.toString());
        JsonNode next = new ObjectMapper().readTree(r.out()).at("/findings/0/next");
        assertTrue(next.toString().contains("a crash dump is read-only"), next.toString());
        for (JsonNode n : next) {
            // nothing that changes, copies or lists files on disk: the dump's extraction is temporary
            assertFalse(n.asText().matches("^(segtool (repair|salvage|restore)|ls ).*"), next.toString());
        }
    }

    /** The sweep's naming warning is a finding, with the canonical name the server reads instead. */
    @Test
    void nonCanonicalName_isReported() {
        Cli.Result r = Cli.run("doctor", GALLERY.resolve("non-canonical-names"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains("segment naming: 5.log: non-canonical segment name; the server reads "
                + "00000000000000000005.log instead"), r.out());
    }

    /** An empty data directory: nothing to judge, nothing needs attention (scan threw IndexOutOfBounds, exit 3). */
    @Test
    void emptyDataDirectory_exit0() throws IOException {
        Path data = Files.createDirectories(root.resolve("empty/streams")).getParent();
        Cli.Result scan = Cli.run("scan", data);
        assertEquals(0, scan.exit(), scan.toString());
        assertTrue(scan.out().contains("0 partitions: 0 refused"), scan.out());
        Cli.Result doctor = Cli.run("doctor", data);
        assertEquals(0, doctor.exit(), doctor.toString());
        assertTrue(doctor.out().contains("0 partition(s) examined: nothing needs attention"), doctor.out());
    }

    /** The same report run after run (details in a fixed order), and no sentence said twice, headline and detail. */
    @Test
    void reportIsStable_andSaysEachThingOnce() {
        Path shape = GALLERY.resolve("non-canonical-names");
        Cli.Result first = Cli.run("doctor", shape);
        for (int i = 0; i < 3; i++) {
            assertEquals(first.out(), Cli.run("doctor", shape).out());
        }
        String json = Cli.run("doctor", shape, "--json").out();
        assertEquals(json, Cli.run("doctor", shape, "--json").out());
        List<String> lines = first.out().lines().toList();
        for (int i = 1; i < lines.size(); i++) {
            String detail = lines.get(i).trim();
            int colon = detail.indexOf(": ");
            if (colon > 0 && lines.get(i).startsWith("      ")) {
                String value = detail.substring(colon + 2);
                assertFalse(lines.get(i - 1).endsWith(value) || lines.get(i - 1).contains(": " + value),
                        "said twice: " + lines.get(i - 1) + " / " + lines.get(i));
            }
        }
    }

    /** Where only the server's WAL open changes files, doctor offers no repair: repair does not do the WAL's work. */
    @Test
    void walOpenOnly_noRepairOffered() throws IOException {
        Path data = root.resolve("wo");
        Partitions.copyTree(GALLERY.resolve("wal-open"), data);
        assertEquals(1, Cli.run("repair", data, "--apply", "-y").exit(), "the WAL open's changes stay for the server");
        Cli.Result r = Cli.run("doctor", data);
        assertEquals(Cli.run("scan", "-q", data).exit(), r.exit(), r.toString());
        assertTrue(r.out().contains("the next boot would change files: the WAL's open first"), r.out());
        assertTrue(r.out().contains("segtool does not do the WAL's work: nothing to repair"), r.out());
        assertFalse(r.out().contains("next: segtool repair " + data.toAbsolutePath().normalize()
                + "/streams/0/topics/0/partitions/0 --apply"), r.out());
    }
}
