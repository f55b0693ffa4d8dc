package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.formats.naming.PartitionPath;

/**
 * Issue 17.2: a planted or damaged quarantine cannot make {@code restore} or {@code repair --apply} read, write,
 * rename or delete anything outside the partition, its fence directories and the quarantine. Each case starts from
 * a real finished repair of the composite partition, plants one change, and checks that the whole quarantine is
 * refused with one line, that the file outside is untouched, and that the data directory is unchanged.
 */
class ConfinementTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    Path data;
    Path partition;
    Path quarantine;
    Path victim;
    byte[] victimBytes;

    @BeforeEach
    void repaired() throws IOException {
        data = tmp.resolve("data");
        Path dir = Shapes.partitionDir(data);
        Files.createDirectories(dir);
        Shapes.composite(dir);
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        partition = dir;
        quarantine = o.quarantine();
        // outside the data directory, with the bytes a truncated log would want back, so hashes would not stop it
        victim = tmp.resolve("victim");
        victimBytes = "precious bytes outside the partition\n".getBytes(StandardCharsets.US_ASCII);
        Files.write(victim, victimBytes);
    }

    interface Plant {
        void plant(ConfinementTest t, ObjectNode manifest) throws IOException;
    }

    record Case(String name, Plant plant) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static ObjectNode op(ObjectNode m, String kind) {
        for (JsonNode op : m.get("operations")) {
            if (op.get("op").asText().equals(kind)) {
                return (ObjectNode) op;
            }
        }
        throw new IllegalStateException("no " + kind + " in the plan");
    }

    /** Renames a partition file in an operation and in its entries, so only confinement stops it. */
    private static void rename(ObjectNode m, ObjectNode op, String to) {
        String from = op.get("file").asText();
        op.put("file", to);
        for (JsonNode e : m.get("entries")) {
            if (e.get("op").asInt() == op.get("seq").asInt() && e.get("file").asText().equals(from)) {
                ((ObjectNode) e).put("file", to);
            }
        }
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        out.add(new Case("truncate_log of ../../victim", (t, m) -> rename(m, op(m, "truncate_log"),
                "../../../../../../victim")));
        out.add(new Case("truncate_log of an absolute path", (t, m) -> rename(m, op(m, "truncate_log"),
                t.victim.toString())));
        out.add(new Case("delete of /etc/hostname", (t, m) -> rename(m, op(m, "delete"), "/etc/hostname")));
        out.add(new Case("install_index staging ..", (t, m) -> op(m, "install_index").put("staging", "..")));
        out.add(new Case("copy path bytes/../../victim", (t, m) ->
                ((ObjectNode) m.get("entries").get(0)).put("copy", "bytes/../../victim")));
        out.add(new Case("copy path /etc/passwd", (t, m) ->
                ((ObjectNode) m.get("entries").get(0)).put("copy", "/etc/passwd")));
        out.add(new Case("new content ../victim", (t, m) -> op(m, "install_index").put("content",
                "new/../../victim")));
        out.add(new Case("fence directory outside", (t, m) -> op(m, "fence").put("directory", "../../1.fenced.0")));
        out.add(new Case("fence directory of another partition", (t, m) -> op(m, "fence").put("directory",
                "2.fenced.0")));
        out.add(new Case("bytes/ a symlink to an identical copy", (t, m) -> {
            Path real = t.tmp.resolve("elsewhere");
            Trees.copy(t.quarantine.resolve(Quarantine.BYTES), real);
            Trees.delete(t.quarantine.resolve(Quarantine.BYTES));
            Files.createSymbolicLink(t.quarantine.resolve(Quarantine.BYTES), real);
        }));
        out.add(new Case("a copy a symlink to an identical file", (t, m) -> {
            Path copy = t.quarantine.resolve(m.get("entries").get(0).get("copy").asText());
            Path real = Files.copy(copy, t.tmp.resolve("copy-elsewhere"));
            Files.delete(copy);
            Files.createSymbolicLink(copy, real);
        }));
        out.add(new Case("an operation and its entries removed", (t, m) -> {
            ObjectNode trunc = op(m, "truncate_log");
            int seq = trunc.get("seq").asInt();
            var ops = (com.fasterxml.jackson.databind.node.ArrayNode) m.get("operations");
            var entries = (com.fasterxml.jackson.databind.node.ArrayNode) m.get("entries");
            for (int i = entries.size() - 1; i >= 0; i--) {
                if (entries.get(i).get("op").asInt() == seq) {
                    entries.remove(i);
                }
            }
            ops.remove(seq);
            for (int i = seq; i < ops.size(); i++) {
                ((ObjectNode) ops.get(i)).put("seq", i);
            }
            for (JsonNode e : entries) {
                if (e.get("op").asInt() > seq) {
                    ((ObjectNode) e).put("op", e.get("op").asInt() - 1);
                }
            }
        }));
        out.add(new Case("an operation without entries", (t, m) -> {
            int seq = op(m, "truncate_log").get("seq").asInt();
            var entries = (com.fasterxml.jackson.databind.node.ArrayNode) m.get("entries");
            for (JsonNode e : entries) {
                if (e.get("op").asInt() == seq) {
                    ((ObjectNode) e).put("op", 0);
                }
            }
        }));
        out.add(new Case("a garbled journal", (t, m) -> Files.writeString(t.quarantine.resolve(Quarantine.JOURNAL),
                "done 0 delete\nrm -rf /\n", StandardCharsets.US_ASCII)));
        out.add(new Case("a journal line of another kind", (t, m) -> Files.writeString(
                t.quarantine.resolve(Quarantine.JOURNAL), "done 0 truncate_log\n", StandardCharsets.US_ASCII)));
        out.add(new Case("the partition directory replaced by a symlink", (t, m) -> {
            Path moved = t.tmp.resolve("moved-partition");
            Files.move(t.partition, moved);
            Files.createSymbolicLink(t.partition, moved);
        }));
        return out;
    }

    private void write(ObjectNode m) throws IOException {
        Files.write(quarantine.resolve(Quarantine.MANIFEST), Manifest.mapper().writeValueAsBytes(m));
    }

    private ObjectNode manifest() throws IOException {
        return (ObjectNode) Manifest.mapper().readTree(quarantine.resolve(Quarantine.MANIFEST).toFile());
    }

    private Map<String, byte[]> everything() {
        Map<String, byte[]> out = new java.util.TreeMap<>(Trees.snapshot(data, true));
        out.put("victim", victimBytes);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aPlantedQuarantine_isRefusedWhole_byRestoreAndByRepair(Case c) throws Exception {
        ObjectNode m = manifest();
        c.plant().plant(this, m);
        write(m);
        Map<String, byte[]> before = everything();

        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(quarantine, true, false);
        assertEquals(3, r.exitCode(), () -> c + ": " + r);
        assertNotNull(r.error(), c::toString);
        assertFalse(r.error().contains("\n"), r.error());
        assertTrue(r.error().contains("segtool refuses this quarantine") || r.error().contains("never follows"),
                r.error());
        assertEquals(new String(victimBytes, StandardCharsets.US_ASCII), Files.readString(victim), c::toString);
        Trees.assertSame(before, everything(), c + ": restore changed nothing");

        // the same quarantine, planted as an interrupted repair: repair --apply must not finish it
        m.put("state", Manifest.APPLYING);
        write(m);
        if (!c.name().contains("journal")) {
            Files.deleteIfExists(quarantine.resolve(Quarantine.JOURNAL));
        }
        before = everything();
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(partition), false, true, false);
        assertTrue(o.resumed().isEmpty(), c::toString);
        // a partition directory that is a symlink is repaired at its real path, where this quarantine is not beside it
        if (o.error() == null && !Files.isSymbolicLink(partition)) {
            assertTrue(o.notes().stream().anyMatch(n -> n.startsWith(quarantine.getFileName()
                    + ": damaged quarantine")), () -> c + ": " + o.notes());
        }
        assertEquals(new String(victimBytes, StandardCharsets.US_ASCII), Files.readString(victim), c::toString);
        Trees.assertSame(before, everything(), c + ": repair --apply changed nothing");
    }

    @Test
    void aSymlinkWhereRestoreWouldAppend_isRefused_notFollowed() throws Exception {
        Path log = partition.resolve(op(manifest(), "truncate_log").get("file").asText());
        Path copy = Files.copy(log, tmp.resolve("truncated-log-elsewhere"));
        Files.delete(log);
        Files.createSymbolicLink(log, copy);
        byte[] elsewhere = Files.readAllBytes(copy);
        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(quarantine, true, false);
        assertEquals(3, r.exitCode(), () -> String.valueOf(r));
        assertTrue(r.error().contains("is a symlink"), r.error());
        assertTrue(java.util.Arrays.equals(elsewhere, Files.readAllBytes(copy)));
        assertTrue(Files.isSymbolicLink(log));
    }
}
