package segtool.analyzers.salvage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
import segtool.formats.hash.Xxh3;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Message;
import segtool.formats.naming.PartitionPath;
import segtool.formats.naming.SegmentFiles;
import segtool.formats.writer.PartitionWriter;
import segtool.formats.writer.PartitionWriter.BatchInfo;
import segtool.formats.writer.PartitionWriter.SegmentLayout;
import segtool.samples.Damage;

/**
 * salvage over the gallery's refusal shapes and over partitions damaged in several places: every record that
 * verifies is exported with its exact position and offsets, and the summary's archived and lost offsets are exact.
 * The gallery's records are those of FORMAT 8: A (315 bytes at 0, offset 0), B (467 at 315, offsets 1-3), C (363 at
 * 782, offset 4).
 */
class SalvagerTest {
    private static final Path GALLERY = Path.of("..", "samples", "gallery");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Path galleryPartition(String shape) {
        return GALLERY.resolve(shape).resolve("streams/1/topics/1/partitions/1");
    }

    /** Each exported record as {@code location@segment:position=base+count}, in archive order. */
    static List<String> exported(Path archive) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode b : lines(archive.resolve(Salvager.BATCHES_NDJSON))) {
            out.add((b.get("verified").asBoolean() ? "" : "unverified ") + b.get("location").asText() + "@"
                    + b.get("segment_start_offset").asLong() + ":" + b.at("/source/position").asLong() + "="
                    + b.get("base_offset").asLong() + "+" + b.get("message_count").asLong()
                    + (b.get("foreign").asBoolean() ? " foreign" : ""));
        }
        return out;
    }

    static List<JsonNode> lines(Path ndjson) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(ndjson)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    static String ranges(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(r -> out.add(r.get("first").asLong() == r.get("last").asLong() ? r.get("first").asText()
                : r.get("first").asText() + ".." + r.get("last").asText()));
        return out.toString();
    }

    Salvager.Result salvage(Path partition, Path out, Salvager.Options options) throws IOException {
        return new Salvager(options).salvage(PartitionPath.of(partition), out, new ArrayList<>());
    }

    static Stream<Arguments> refusalShapes() {
        return Stream.of(
                // the chain stops at B's flipped byte; the search finds C at 782
                Arguments.of("interior-damage", List.of("chain@0:0=0+1", "past_damage@0:782=4+1"), "[0, 4]", "[1..3]",
                        "[315-782]"),
                Arguments.of("interior-damage-below-last-entry", List.of("chain@0:0=0+1", "past_damage@0:782=4+1"),
                        "[0, 4]", "[1..3]", "[315-782]"),
                // one 400-byte record, then 16,384 bytes of header-only claims that never verify
                Arguments.of("unverified-residue", List.of("chain@0:0=0+2"), "[0..1]", "[]", "[400-16784]"),
                // C restamped to offset 7 verifies: exported, past the break in the chain; 4..6 never existed on disk
                Arguments.of("offset-discontinuity", List.of("chain@0:0=0+1", "chain@0:315=1+3",
                        "past_damage@0:782=7+1"), "[0..3, 7]", "[4..6]", "[]"),
                // C carries partition 2: exported and marked, but its offset is not this partition's
                Arguments.of("foreign-batch", List.of("chain@0:0=0+1", "chain@0:315=1+3",
                        "past_damage@0:782=4+1 foreign"), "[0..3]", "[4]", "[]"),
                // the index names offsets 1 and 4 (and up to 4); the log holds A and 185 bytes
                Arguments.of("fsynced-log-loss", List.of("chain@0:0=0+1"), "[0]", "[1..4]", "[315-500]"),
                Arguments.of("fsynced-rebuild-shortfall", List.of("chain@0:0=0+1", "chain@0:315=1+3"), "[0..3]",
                        "[4..5]", "[782-900]"),
                // segment 0 holds A and 100 bytes of B; segment 4 holds C
                Arguments.of("hole", List.of("chain@0:0=0+1", "chain@4:0=4+1"), "[0, 4]", "[1..3]", "[315-415]"),
                Arguments.of("empty-non-tail-segment", List.of("chain@4:0=4+1"), "[4]", "[0..3]", "[]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusalShapes")
    void galleryRefusal_exportsEveryVerifyingRecord(String shape, List<String> records, String archived,
                                                    String lost, String lostBytes) throws IOException {
        Path out = tmp.resolve(shape);
        Salvager.Result r = salvage(galleryPartition(shape), out, Salvager.Options.defaults("test"));
        assertEquals(records, exported(out), shape);
        JsonNode summary = JSON.readTree(out.resolve(Salvager.SUMMARY).toFile());
        assertEquals(Salvager.SCHEMA, summary.get("schema").asText());
        assertEquals(archived, ranges(summary.get("archived_offsets")), shape);
        assertEquals(lost, ranges(summary.get("lost_offsets")), shape);
        List<String> bytes = new ArrayList<>();
        summary.get("sources").forEach(s -> s.get("lost_bytes").forEach(b -> bytes.add(b.get("from").asLong() + "-"
                + b.get("to").asLong())));
        assertEquals(lostBytes, bytes.toString(), shape);
        assertFalse(r.complete(), shape);
        assertEquals(r.batches(), records.size());
        assertBytesMatchSources(out);
    }

    @Test
    void healthy_isComplete() throws IOException {
        Path out = tmp.resolve("healthy");
        Salvager.Result r = salvage(galleryPartition("healthy"), out, Salvager.Options.defaults("test"));
        assertEquals(List.of("chain@0:0=0+1", "chain@0:315=1+3", "chain@0:782=4+1"), exported(out));
        assertTrue(r.complete());
        assertEquals("[0..4]", r.archived().toString());
        assertEquals(1145, Files.size(out.resolve(Salvager.BATCHES_LOG)));
        assertArrayEquals(Files.readAllBytes(SegmentFiles.log(galleryPartition("healthy"), 0)),
                Files.readAllBytes(out.resolve(Salvager.BATCHES_LOG)));
    }

    /** Every manifest line's bytes in batches.log are the bytes at its source position, with the XXH3 it states. */
    static void assertBytesMatchSources(Path archive) throws IOException {
        byte[] data = Files.readAllBytes(archive.resolve(Salvager.BATCHES_LOG));
        long expectedAt = 0;
        for (JsonNode b : lines(archive.resolve(Salvager.BATCHES_NDJSON))) {
            int at = (int) b.at("/archive/position").asLong();
            int len = (int) b.get("batch_length").asLong();
            assertEquals(expectedAt, at);
            expectedAt += len;
            Path src = Path.of(b.at("/source/" + (b.has("copy") || b.at("/source/copy").isMissingNode()
                    ? "file" : "copy")).asText());
            long base = b.at("/source/kind").asText().equals("quarantine") ? b.at("/source/position").asLong()
                    - quarantineBase(b) : b.at("/source/position").asLong();
            byte[] original = Files.readAllBytes(src);
            assertArrayEquals(Arrays.copyOfRange(original, (int) base, (int) base + len),
                    Arrays.copyOfRange(data, at, at + len));
            assertEquals(Xxh3.hex(Xxh3.hash(data, at, len)), b.get("xxh3").asText());
        }
        assertEquals(expectedAt, data.length);
    }

    private static long quarantineBase(JsonNode b) {
        String copy = b.at("/source/copy").asText();
        return Long.parseLong(copy.substring(copy.lastIndexOf('@') + 1));
    }

    // ---- several damages --------------------------------------------------------------------------------------

    @Test
    void damageInSeveralPlaces_everyVerifyingRecordFound() throws IOException {
        damageInSeveralPlaces(tmp);
    }

    /**
     * The same damage and the same answers when the forward pass verifies ahead on 3 threads through 4 KiB windows
     * (the engine's ring, several records and window hand-overs per segment), as a large log does by default.
     */
    @Test
    void damageInSeveralPlaces_sameAnswers_verifiedAheadOnSeveralThreads() throws IOException {
        String threads = System.getProperty("segtool.threads");
        String window = System.getProperty("segtool.window");
        try {
            System.setProperty("segtool.threads", "3");
            System.setProperty("segtool.window", "4096");
            damageInSeveralPlaces(tmp);
        } finally {
            restore("segtool.threads", threads);
            restore("segtool.window", window);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private void damageInSeveralPlaces(Path tmp) throws IOException {
        Path p = tmp.resolve("p/streams/1/topics/1/partitions/3");
        List<SegmentLayout> layout = PartitionWriter.fill(p, PartitionWriter.Config.of(3)
                .messagesRequiredToSave(1).segmentSize(20_000), 120, 2, 300, 42);
        assertTrue(layout.size() >= 2, "two segments at least: " + layout.size());
        SegmentLayout s0 = layout.get(0);
        SegmentLayout s1 = layout.get(1);
        // segment 0: a bit flip inside batch 3, zeros over batches 7 and 8, garbage over batch 12's header
        Damage.flipByte(s0.log(), s0.batch(3).position() + 300);
        Damage.overwrite(s0.log(), s0.batch(7).position(), new byte[(int) (s0.batch(8).end()
                - s0.batch(7).position())]);
        byte[] junk = new byte[256];
        new java.util.Random(7).nextBytes(junk);
        Damage.overwrite(s0.log(), s0.batch(12).position(), junk);
        // segment 1: cut inside its last batch
        BatchInfo tail = s1.batches().get(s1.batches().size() - 1);
        Damage.truncate(s1.log(), tail.position() + 100);

        Path out = tmp.resolve("out");
        Salvager.Result r = salvage(p, out, Salvager.Options.defaults("test"));

        List<String> want = new ArrayList<>();
        OffsetRanges archived = new OffsetRanges();
        for (int i = 0; i < s0.batches().size(); i++) {
            if (i == 3 || i == 7 || i == 8 || i == 12) {
                continue;
            }
            BatchInfo b = s0.batch(i);
            want.add((i < 3 ? "chain" : "past_damage") + "@" + s0.startOffset() + ":" + b.position() + "="
                    + b.baseOffset() + "+" + b.messageCount());
            archived.add(b.baseOffset(), b.baseOffset() + b.messageCount() - 1);
        }
        for (int i = 0; i < s1.batches().size() - 1; i++) {
            BatchInfo b = s1.batch(i);
            want.add("chain@" + s1.startOffset() + ":" + b.position() + "=" + b.baseOffset() + "+" + b.messageCount());
            archived.add(b.baseOffset(), b.baseOffset() + b.messageCount() - 1);
        }
        for (int k = 2; k < layout.size(); k++) {
            for (BatchInfo b : layout.get(k).batches()) {
                want.add("chain@" + layout.get(k).startOffset() + ":" + b.position() + "=" + b.baseOffset() + "+"
                        + b.messageCount());
                archived.add(b.baseOffset(), b.baseOffset() + b.messageCount() - 1);
            }
        }
        assertEquals(want, exported(out));
        assertEquals(archived.list(), r.archived().list());
        List<String> lost = new ArrayList<>();
        for (int i : new int[]{3, 7, 12}) {
            BatchInfo b = s0.batch(i);
            BatchInfo last = i == 7 ? s0.batch(8) : b;
            lost.add(b.baseOffset() + ".." + (last.baseOffset() + last.messageCount() - 1));
        }
        if (layout.size() == 2) {
            // the cut batch was the partition's last: nothing on disk proves its offsets beyond the index
            assertTrue(r.lost().size() >= 3);
        }
        assertEquals(lost, r.lost().subList(0, 3).stream().map(Object::toString).toList());
        List<String> lostBytes = new ArrayList<>();
        r.sources().forEach(s -> s.lost().forEach(b -> lostBytes.add(s.source().start() + ":" + b.from() + "-"
                + b.to())));
        assertEquals(List.of(
                s0.startOffset() + ":" + s0.batch(3).position() + "-" + s0.batch(3).end(),
                s0.startOffset() + ":" + s0.batch(7).position() + "-" + s0.batch(8).end(),
                s0.startOffset() + ":" + s0.batch(12).position() + "-" + s0.batch(12).end(),
                s1.startOffset() + ":" + tail.position() + "-" + (tail.position() + 100)), lostBytes);
        assertBytesMatchSources(out);
    }

    @Test
    void includeUnverified_exportsTheDamagedRecordMarked() throws IOException {
        Path out = tmp.resolve("u");
        Salvager.Result r = salvage(galleryPartition("interior-damage"), out,
                Salvager.Options.defaults("test").withUnverified(true).withMessages(true));
        assertEquals(List.of("chain@0:0=0+1", "unverified past_damage@0:315=1+3", "past_damage@0:782=4+1"),
                exported(out));
        assertEquals("[0, 4]", r.archived().toString());
        assertEquals("[1..3]", r.unverified().toString());
        assertEquals("[1..3]", r.lost().toString(), "unverified records never count as archived");
        List<JsonNode> messages = lines(out.resolve(Salvager.MESSAGES_NDJSON));
        assertEquals(5, messages.size());
        for (JsonNode m : messages) {
            long offset = m.get("offset").asLong();
            assertEquals(offset >= 1 && offset <= 3, !m.get("verified").asBoolean(), m.toString());
        }
        // byte 620 lies in B's first message: its checksum fails, the other two still match
        assertFalse(messages.get(1).get("checksum_matches").asBoolean());
        assertTrue(messages.get(2).get("checksum_matches").asBoolean());
    }

    // ---- the linear bound -------------------------------------------------------------------------------------

    @Test
    void overlappingClaims_exhaustTheAllowance_andSayWhere() throws IOException {
        Path p = tmp.resolve("crafted/streams/1/topics/1/partitions/1");
        try (PartitionWriter w = new PartitionWriter(p, PartitionWriter.Config.of(1))) {
            w.append(List.of(Message.of(1, "first".getBytes())));
        }
        Path log = SegmentFiles.log(p, 0);
        long first = Files.size(log);
        int residue = 128 * 1024;
        byte[] crafted = new byte[residue];
        for (int at = 0; at + 256 <= residue; at += 256) {
            // a header claiming every byte to the end, with one message and an offset past the chain: plausible
            new BatchHeader(1, 100 + at, 0, 0, residue - at, 0, 1).write(crafted, at);
        }
        Damage.appendBytes(log, crafted);
        Files.delete(SegmentFiles.index(p, 0));
        Path out = tmp.resolve("out");
        Salvager.Result r = salvage(p, out, Salvager.Options.defaults("test"));
        Salvager.SourceResult s = r.sources().get(0);
        long length = first + residue;
        assertTrue(Long.compareUnsigned(s.stats().failedVerifyBytes(), LogScan.FAILED_VERIFY_BYTES_PER_BYTE * length)
                <= 0, "failed verifications stay within the allowance: " + s.stats());
        assertEquals(1, s.unexamined().size());
        Salvager.ByteRange u = s.unexamined().get(0);
        assertEquals(length, u.to());
        assertTrue(u.from() > first && (u.from() - first) % 256 == 0, "stops at a crafted header: " + u);
        assertEquals(first, s.lost().get(0).from());
        assertEquals(u.from(), s.lost().get(0).to());
        assertFalse(r.complete());
        assertEquals(List.of("chain@0:0=0+1"), exported(out));
    }

    // ---- fences and quarantines -------------------------------------------------------------------------------

    @Test
    void fencesAndQuarantines_areSources(@TempDir Path root) throws IOException {
        Path p = root.resolve("d/streams/1/topics/1/partitions/1");
        Files.createDirectories(p.getParent());
        copyTree(galleryPartition("interior-damage"), p);
        // a fence holding the healthy segment's bytes, as the server leaves one
        Path fence = SegmentFiles.fence(p, 0);
        Files.createDirectories(fence);
        Files.copy(SegmentFiles.log(galleryPartition("healthy"), 0), SegmentFiles.log(fence, 0));
        // a second partition whose torn tail holds a stale copy of A one byte in: the probe does not count it as a
        // survivor (offset 0 does not advance past 4), so a real repair truncates it into a quarantine
        Path q2 = root.resolve("e/streams/1/topics/1/partitions/1");
        Files.createDirectories(q2.getParent());
        copyTree(galleryPartition("healthy"), q2);
        byte[] a = Arrays.copyOfRange(Files.readAllBytes(SegmentFiles.log(q2, 0)), 0, 315);
        Damage.appendBytes(SegmentFiles.log(q2, 0), new byte[]{1});
        Damage.appendBytes(SegmentFiles.log(q2, 0), a);
        Repairer repairer = new Repairer(new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)),
                ServerGuard.Report::idle, new Applier(StepHook.NONE, "test"), plan -> true);
        Repairer.Outcome applied = repairer.repair(PartitionPath.of(q2), false, true, false);
        assertEquals(Repairer.Status.APPLIED, applied.status(), () -> applied.error() + " " + applied.notes());
        assertEquals(1145, Files.size(SegmentFiles.log(q2, 0)));

        Path out = root.resolve("out");
        Salvager.Result r = salvage(p, out, Salvager.Options.defaults("test"));
        assertEquals(List.of("chain@0:0=0+1", "past_damage@0:782=4+1", "fenced@0:0=0+1", "fenced@0:315=1+3",
                "fenced@0:782=4+1"), exported(out));
        assertEquals("[0..4]", r.archived().toString());
        assertEquals(List.of(), r.lost());
        List<JsonNode> b = lines(out.resolve(Salvager.BATCHES_NDJSON));
        assertEquals(0, b.get(2).at("/source/fence").asInt());
        assertBytesMatchSources(out);

        Path out2 = root.resolve("out2");
        salvage(q2, out2, Salvager.Options.defaults("test"));
        assertEquals(List.of("chain@0:0=0+1", "chain@0:315=1+3", "chain@0:782=4+1", "quarantine@0:1146=0+1"),
                exported(out2));
        JsonNode stale = lines(out2.resolve(Salvager.BATCHES_NDJSON)).get(3);
        assertTrue(stale.at("/source/copy").asText().startsWith(applied.quarantine().toString()), stale.toString());
        assertBytesMatchSources(out2);
    }

    // ---- output ----------------------------------------------------------------------------------------------

    @Test
    void output_isRefusedWhenItExistsIsASymlinkOrLiesInThePartition(@TempDir Path root) throws IOException {
        Path p = root.resolve("streams/1/topics/1/partitions/1");
        Files.createDirectories(p.getParent());
        copyTree(galleryPartition("interior-damage"), p);
        Path existing = Files.createDirectory(root.resolve("existing"));
        Path link = Files.createSymbolicLink(root.resolve("link"), root.resolve("nowhere"));
        for (Path bad : List.of(existing, link, p.resolve("inside"), p.resolveSibling("1.fenced.0"))) {
            var before = listing(root);
            assertThrows(Salvager.OutputRefused.class, () -> salvage(p, bad, Salvager.Options.defaults("t")),
                    bad.toString());
            assertEquals(before, listing(root), "nothing written for " + bad);
        }
        Path ok = root.resolve("fresh");
        salvage(p, ok, Salvager.Options.defaults("t"));
        try (Stream<Path> s = Files.list(root)) {
            assertTrue(s.noneMatch(x -> x.getFileName().toString().contains("segtool-salvage-tmp")));
        }
        assertTrue(Files.isRegularFile(ok.resolve(Salvager.SUMMARY)));
    }

    static List<String> listing(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(Path::toString).sorted().toList();
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path f : s.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
    }

    /** A killed salvage leaves its temporary directory; the next salvage into the same OUT removes it (16.5). */
    @Test
    void theTemporaryOfAKilledSalvage_isRemovedByTheNext_aLiveOnesIsNot() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path out = tmp.resolve("out");
        Path abandoned = Files.createDirectories(tmp.resolve(".out.segtool-salvage-tmp." + gone.pid()));
        Files.write(abandoned.resolve("batches.log"), new byte[100]);
        Path live = Files.createDirectories(tmp.resolve(".out.segtool-salvage-tmp.1"));
        salvage(galleryPartition("interior-damage"), out, Salvager.Options.defaults("test"));
        assertTrue(Files.isRegularFile(out.resolve(Salvager.SUMMARY)));
        assertFalse(Files.exists(abandoned), "the dead owner's temporary is gone");
        assertTrue(Files.isDirectory(live), "pid 1 is alive: its temporary is not segtool's to remove");
    }

    @Test
    void partitionId2Pow64Minus1_isKnown_aForeignBatchIsNotInItsChain() throws IOException {
        // the foreign-batch shape under partition id 2^64-1 (-1 in a long): A and B re-stamped for it, C for 2
        Path p = tmp.resolve("max/streams/1/topics/1/partitions/18446744073709551615");
        Files.createDirectories(p);
        try (var files = Files.list(galleryPartition("foreign-batch"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, p.resolve(f.getFileName()));
            }
        }
        Path log = p.resolve(SegmentFiles.stem(0) + SegmentFiles.LOG);
        for (long at : new long[] {0, 315}) {
            segtool.samples.Damage.overwriteU64(log, at + BatchHeader.PARTITION_ID_OFFSET, -1L);
            segtool.samples.Damage.restampBatch(log, at);
        }
        PartitionPath path = PartitionPath.of(p);
        assertTrue(path.hasPartitionId());
        assertEquals(-1L, path.partitionId());
        Path out = tmp.resolve("max-out");
        salvage(p, out, Salvager.Options.defaults("test"));
        assertEquals(List.of("chain@0:0=0+1", "chain@0:315=1+3", "past_damage@0:782=4+1 foreign"), exported(out));
        JsonNode summary = JSON.readTree(out.resolve(Salvager.SUMMARY).toFile());
        assertEquals("[0..3]", ranges(summary.get("archived_offsets")));
    }
}
