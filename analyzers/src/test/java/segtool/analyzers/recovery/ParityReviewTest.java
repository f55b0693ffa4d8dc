package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static segtool.formats.Vectors.TA;
import static segtool.formats.Vectors.TB;
import static segtool.formats.Vectors.TC;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.analyzers.recovery.PartitionReport.Outcome;
import segtool.analyzers.recovery.SegmentReport.Status;
import segtool.formats.Vectors;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.naming.SegmentFiles;

/**
 * A line-by-line parity review of the engine against RECOVERY.md: one test per divergence found (each fixed in the
 * commit that added it), and the edge cases the other suites leave out (u64 values near 2^64-1 and across the sign
 * bit, batch_length at MAXB and MAXB+1, probe residues of 256 and 257 bytes, the anchor search cap, non-canonical
 * and duplicate start offsets, a budget shared across segments, the W/R order of checks, I/O errors).
 */
class ParityReviewTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, TA, 0);
    private static final IndexEntry EB = new IndexEntry(1, TB, 315);
    private static final IndexEntry EC = new IndexEntry(4, TC, 782);
    private static final long MAX = U64.MAX;
    private static final long MAXB = BatchHeader.MAX_RECOVERABLE_BATCH_BYTES;

    private static void assertRefusal(PartitionReport r, Refusal.Variant variant, Map<String, Long> fields) {
        assertEquals(Outcome.REFUSED, r.outcome(), () -> "expected " + variant + ", got " + r.outcome() + " "
                + r.ioError() + " " + r.segments().stream().map(s -> s.status().json()).toList());
        assertEquals(variant, r.refusal().variant());
        assertEquals(fields, r.refusal().fields());
    }

    private static void assertAccepted(PartitionReport r) {
        assertEquals(Outcome.ACCEPTED, r.outcome(), () -> "expected accepted, got " + r.outcome() + " " + r.refusal()
                + " " + r.ioError());
    }

    /** The four budget counters: candidates_examined, budget_units, verified_bytes, verify_budget_bytes. */
    private static List<Long> budget(PartitionReport r) {
        return List.of(r.budget().spentUnits(), r.budget().limitUnits(), r.budget().spentVerify(), r.budget().limitVerify());
    }

    private static Map<String, Long> fields(Object... namesAndValues) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], ((Number) namesAndValues[i + 1]).longValue());
        }
        return m;
    }

    private static byte[] batch(long pid, long base, long ts, int messages) {
        Message[] m = new Message[messages];
        for (int i = 0; i < messages; i++) {
            m[i] = Message.of(base + i + 1, ("message " + (base + i)).getBytes());
        }
        return RecordEncoder.encode(pid, base, ts, ts - 5, List.of(m));
    }

    /** A 256-byte header that decodes (F 2.2) with the given fields and nothing behind it. */
    private static byte[] header(long pid, long base, long ts, long batchLength, long count) {
        byte[] h = new byte[BatchHeader.LENGTH];
        new BatchHeader(pid, base, ts, 0, batchLength, 0, count).write(h, 0);
        return h;
    }

    private static byte[] flip(byte[] b, int at) {
        byte[] out = b.clone();
        out[at] ^= 0x01;
        return out;
    }

    /** Writes {@code head} at 0 and extends the file to {@code length} bytes without writing them (sparse). */
    private static void sparse(Path p, byte[] head, long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.write(head);
            f.setLength(length);
        }
    }

    // ==== divergences ===============================================================================================

    /**
     * RECOVERY 3, steps 2-4: the sweep deletes orphan {@code .index}/{@code .anchor} files and {@code .staging}
     * files by name; deleting a symlink removes the link (it is not followed). The engine tested "is a directory"
     * through the link, kept a link to a directory as if the deletion had failed, and then read the canonical
     * index through it: an I/O error where the server sees no index at all.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void sweep_symlinkToADirectoryIsUnlinkedNotFollowed(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC).file("5.log", new byte[0]);
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        // 00000000000000000005.index is an orphan beside 5.log (stems are compared as strings)
        Files.createSymbolicLink(SegmentFiles.index(f.dir, 5), elsewhere);
        Files.createSymbolicLink(f.dir.resolve("00000000000000000000.index.staging"), elsewhere);
        PartitionReport r = f.judge(durable);
        assertEquals(List.of("00000000000000000000.index.staging", "00000000000000000005.index"),
                r.swept().stream().map(d -> d.path().getFileName().toString()).sorted().toList());
        assertAccepted(r);
        SegmentReport tail = r.segments().get(1);
        assertEquals(0, tail.indexLength());
        assertEquals(Status.RECOVERED_EMPTY, tail.status());
        assertEquals(List.of(), tail.operations(), "nothing to fence: both files are absent after the sweep");
    }

    /**
     * RECOVERY 6.2 Fence, step 1: the directory is created for the first {@code k} whose creation succeeds; a
     * name that exists in any form (here a dangling symlink) makes creation fail with "exists" and the next
     * {@code k} is tried. The engine followed the link, found nothing, and planned {@code .fenced.0}.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void fence_aDanglingSymlinkTakesTheName(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.filled(300, 0xAB)).rawIndex(0, Fixture.filled(10, 0xAB));
        Files.createSymbolicLink(f.dir.resolveSibling("1.fenced.0"), root.resolve("nowhere"));
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        PlannedOp.Fence fence = assertInstanceOf(PlannedOp.Fence.class, r.segments().get(0).operations().get(0));
        assertEquals(f.dir.resolveSibling("1.fenced.1"), fence.fenceDirectory());
    }

    /**
     * RECOVERY 6.2 Fence step 1 and 7.3: when all 1,000 fence names are taken, pass C fails with "cannot write to
     * file": the boot fails, a transient failure, not an accepted chain. The engine reported the partition as
     * accepted with a fence into no directory.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void fence_allThousandNamesTaken_isAnIoError(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .log(5, Fixture.filled(300, 0xAB));
        for (int k = 0; k < RecoveryEngine.FENCED_DIR_PROBE_LIMIT; k++) {
            Files.createDirectory(f.dir.resolveSibling("1.fenced." + k));
        }
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.IO_ERROR, r.outcome(), () -> r.outcome() + " " + r.refusal());
        assertTrue(r.ioError().contains("fence"), r.ioError());
        assertEquals(IoFailure.CREATE, r.ioFailure().operation(), "pass C cannot create a fence directory");
        assertEquals(Status.IO_ERROR, r.segments().get(1).status(), "the failure is the segment's to fence (issue 10)");
    }

    /** ... but only pass C fences: a pass-B refusal comes first, and a fence with nothing to move needs no name. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void fence_allThousandNamesTaken_passBFirstAndNothingToMove(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.filled(300, 0xAB)).log(4, Vectors.c());
        for (int k = 0; k < RecoveryEngine.FENCED_DIR_PROBE_LIMIT; k++) {
            Files.createDirectory(f.dir.resolveSibling("1.fenced." + k));
        }
        assertRefusal(f.judge(durable), Refusal.Variant.EmptyNonTailSegment,
                fields("empty_start", 0, "next_start", 4, "recoverable_bytes", 363));
        Fixture g = new Fixture(root.resolve("b"), 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .file("+5.log", new byte[7]);
        for (int k = 0; k < RecoveryEngine.FENCED_DIR_PROBE_LIMIT; k++) {
            Files.createDirectory(g.dir.resolveSibling("1.fenced." + k));
        }
        PartitionReport r = g.judge(durable);
        assertAccepted(r);
        assertEquals(Status.RECOVERED_EMPTY, r.segments().get(1).status());
    }

    /**
     * RECOVERY 3 (duplicates are not removed) and 5: {@code 5.log} beside {@code 00000000000000000005.log} makes
     * two segments with S = 5, both read at the canonical path; the pair overlaps, so the chain guard refuses a
     * Hole about the later one. The engine marked the earlier segment (the first with that start offset) as the
     * refused one, so the report pinned the refusal on the wrong segment.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void duplicateStartOffset_holeIsAboutTheLaterSegment(boolean durable) throws Exception {
        byte[] five = batch(1, 5, TA, 1);
        Fixture f = new Fixture(root, 1).log(5, five).file("5.log", new byte[0]);
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.Hole, fields("previous_start", 5, "previous_end", 5, "next_start", 5,
                "recoverable_bytes", 2L * five.length));
        assertEquals(List.of(Status.INDEX_REBUILT, Status.REFUSED), r.segments().stream().map(s -> s.status()).toList());
        assertEquals(2, r.operations().stream().filter(op -> op instanceof PlannedOp.StageIndex).count(),
                "pass A stages the canonical index once per duplicate");
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("more than one .log")), r.warnings()::toString);
    }

    /**
     * RECOVERY 4.1 step 2: an index of nonzero length is opened even when it holds no whole entry, and an open
     * failure is transient. The engine opened it only when it held a whole entry, so an unreadable 10-byte index
     * sent the segment to R(). Needs a user that permissions apply to (skipped as root).
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void partialIndexThatCannotBeOpened_isAnIoError(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).rawIndex(0, new byte[10]);
        Path index = SegmentFiles.index(f.dir, 0);
        Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(index), "permissions do not apply to this user (root)");
            PartitionReport r = f.judge(durable);
            assertEquals(Outcome.IO_ERROR, r.outcome(), () -> r.outcome() + " " + r.segments().get(0).status());
            assertTrue(r.ioError().contains("00000000000000000000.index"), r.ioError());
        } finally {
            Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /**
     * Parallel verification must answer exactly as a sequential check. The parallel verifier followed the header
     * chain up to 64 MiB ahead and verified those records on other cores; a read error there (a file that shrank,
     * a bad sector) failed the record the walk had asked for, which a sequential check reads without error. Records
     * verified ahead are hints: an error ahead is raised only if the walk asks for that record.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "mapped windows: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void parallelVerifier_errorAheadIsNotTheAnswerForThisRecord(boolean mapped) throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            records.add(RecordEncoder.encode(1, i, TA + i, TA, List.of(Message.of(i + 1, new byte[700]))));
        }
        byte[] log = Fixture.concat(records.toArray(new byte[0][]));
        int len0 = records.get(0).length;
        Path p = Files.write(root.resolve("00000000000000000000.log"), log);
        try (SegmentChannel seqLog = SegmentChannel.open(p, 4096, log.length);
             SegmentChannel parLog = SegmentChannel.open(p, 4096, log.length);
             WalkVerifier seq = new WalkVerifier.Sequential(seqLog);
             WalkVerifier par = new ParallelWalkVerifier(parLog, 2, 4096, MAXB, mapped)) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                ch.truncate(100_000);
            }
            seq.startWalk(0);
            par.startWalk(0);
            assertNull(seq.verify(0, len0));
            assertNull(par.verify(0, len0), "the record asked for is whole on disk");
            assertNull(par.verify(len0, records.get(1).length));
            long beyond = (long) len0 * 150;
            assertThrows(IOException.class, () -> seq.verify(beyond, len0));
            assertThrows(IOException.class, () -> par.verify(beyond, len0));
        }
    }

    /**
     * RECOVERY 4.3 A4 / 4.8 / 8: lenient mode never runs the anchor search; the engine runs it anyway, for
     * evidence, on a copy of the budget. Its reads must not decide the outcome: here a read it makes (the header at
     * entry 1, beyond everything the server reads) fails, and the engine reported an I/O error where the server's
     * byte-0 walk finds InteriorDamage. The failure is injected by shrinking the log when W(last) accepts the empty
     * record at the last entry (the progress hook runs on the judging thread). In durable mode the server does
     * search, reads there, and fails the boot.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void lenientEvidenceSearch_readErrorIsNotTheVerdict(boolean durable) throws Exception {
        byte[] entry1 = batch(1, 5, TB, 1);
        byte[] last = RecordEncoder.encode(1, 9, TC, 0, List.of());
        byte[] log = new byte[80_000 + last.length];
        byte[] head = Fixture.concat(Vectors.a(), Fixture.filled(10, 0xAB), batch(1, 1, TB, 1));
        System.arraycopy(head, 0, log, 0, head.length);
        System.arraycopy(entry1, 0, log, 60_000, entry1.length);
        System.arraycopy(last, 0, log, 80_000, last.length);
        Fixture f = new Fixture(root, 1).log(0, log)
                .index(0, EA, new IndexEntry(5, TB, 60_000), new IndexEntry(9, TC, 80_000));
        Path p = SegmentFiles.log(f.dir, 0);
        boolean[] shrunk = {false};
        RecoveryEngine engine = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1).withWindow(4096)
                .withProgress(bytes -> {
                    if (!shrunk[0]) {
                        shrunk[0] = true;
                        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                            ch.truncate(50_000);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                }));
        PartitionReport r = engine.judge(f.partition, durable);
        assertTrue(shrunk[0]);
        if (durable) {
            assertEquals(Outcome.IO_ERROR, r.outcome(), () -> r.outcome() + " " + r.refusal());
        } else {
            assertRefusal(r, Refusal.Variant.InteriorDamage,
                    fields("start_offset", 0, "damage_position", 315, "survivor_position", 325));
        }
    }

    // ==== u64 edges (RECOVERY 2.2) =================================================================================

    /**
     * S = 2^64-1: the record at the top of the range proves end_offset 2^64-1, and {@code expected} saturates at
     * 2^64-1, so a second record with base_offset 2^64-1 continues the chain (spec-literal; see the review notes).
     * The probe's chain end is 2^64-1, which nothing can exceed: a verified record in the residue is no survivor.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void u64Max_topOfRange_saturatesAndNothingAdvancesPastIt(boolean durable) throws Exception {
        byte[] r1 = batch(1, MAX, TA, 1);
        byte[] r2 = batch(1, MAX, TB, 1);
        byte[] survivor = batch(1, MAX, TC, 1);
        byte[] log = Fixture.concat(r1, r2, new byte[]{(byte) 0xEE}, survivor);
        Fixture f = new Fixture(root, 1).log(MAX, log).index(MAX, new IndexEntry(MAX, TA, 0));
        assertEquals("18446744073709551615.log", SegmentFiles.log(f.dir, MAX).getFileName().toString());
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        SegmentReport s = r.segments().get(0);
        assertEquals(Status.TRUNCATED, s.status());
        assertEquals(MAX, s.endOffset());
        assertEquals(r1.length + r2.length, s.size());
        assertEquals(TB, s.endTimestamp());
        ProbeResult probe = s.probes().get(s.probes().size() - 1);
        assertEquals(r1.length + r2.length, probe.damagePosition());
        assertEquals(0, probe.verifications(), "base_offset > 2^64-1 never holds: no candidate is verified");
    }

    /**
     * RECOVERY 2.2 / 5 step 2: an end offset of 2^64-1 never matches the next start, even where saturating
     * "+ 1" would equal it. {@code +18446744073709551615.log} duplicates the top segment.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void u64Max_endOffsetMaxNeverContiguous(boolean durable) throws Exception {
        byte[] top = batch(1, MAX, TA, 1);
        Fixture f = new Fixture(root, 1).log(MAX, top).file("+18446744073709551615.log", new byte[0]);
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.Hole, fields("previous_start", MAX, "previous_end", MAX, "next_start", MAX,
                "recoverable_bytes", 2L * top.length));
    }

    /** Start offsets across the sign bit sort unsigned and chain: 2^63-2 (two messages) then 2^63 then 2^63+1. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void signBoundary_unsignedOrderAndContinuity(boolean durable) throws Exception {
        long a = Long.MAX_VALUE - 1;
        long b = Long.MIN_VALUE;
        long c = Long.MIN_VALUE + 1;
        Fixture f = new Fixture(root, 1)
                .log(c, batch(1, c, TC, 3)).index(c, new IndexEntry(c, TC, 0))
                .log(b, batch(1, b, TB, 1)).index(b, new IndexEntry(b, TB, 0))
                .log(a, batch(1, a, TA, 2)).index(a, new IndexEntry(a, TA, 0));
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        assertEquals(List.of(a, b, c), r.segments().stream().map(s -> s.start()).toList());
        assertEquals(List.of(Long.MAX_VALUE, b, c + 2), r.segments().stream().map(s -> s.endOffset()).toList());
        assertEquals(List.of(Status.CLEAN, Status.CLEAN, Status.CLEAN),
                r.segments().stream().map(s -> s.status()).toList());
    }

    /**
     * {@code end_offset = base_offset + message_count - 1}, saturating. The engine computes
     * {@code base + (count - 1)}: a record based at 2^64-2 with five messages ends at 2^64-1. (Saturating
     * {@code base + count} first and then subtracting 1 would give 2^64-2; RECOVERY 2.2 does not say which; see the
     * review notes.) Pinned here so that a change is deliberate.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void u64_endOffsetSaturatesAtTheTop(boolean durable) throws Exception {
        long s = MAX - 1;
        Fixture f = new Fixture(root, 1).log(s, batch(1, s, TA, 5)).index(s, new IndexEntry(s, TA, 0));
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        assertEquals(MAX, r.segments().get(0).endOffset());
    }

    // ==== MAXB (RECOVERY 2.1, 2.3, 4.7) ===========================================================================

    /**
     * HeaderAt and Matches at batch_length = MAXB and MAXB + 1 (sparse log of MAXB + 513 bytes). At MAXB the header
     * is plausible: the entry matches, and the walk tries to verify the record (it fails); at MAXB + 1 the header
     * is "none" and the entry does not match. Either way an intact record right behind the header survives.
     */
    @ParameterizedTest(name = "batch_length=MAXB+{0}")
    @ValueSource(longs = {0, 1})
    void maxb_headerAtAndMatches(long over) throws Exception {
        long x = MAXB + over;
        byte[] survivor = batch(1, 0, TB, 1);
        Fixture f = new Fixture(root, 1).index(0, new IndexEntry(0, TA, 0));
        sparse(SegmentFiles.log(f.dir, 0), Fixture.concat(header(1, 0, TA, x, 1), survivor), MAXB + 513);
        for (boolean durable : new boolean[]{false, true}) {
            PartitionReport r = f.judge(durable);
            assertRefusal(r, Refusal.Variant.InteriorDamage,
                    fields("start_offset", 0, "damage_position", 0, "survivor_position", 256));
            SegmentReport s = r.segments().get(0);
            assertEquals(over == 0, s.scan().mappings(), () -> String.valueOf(s.scan().mappingReason()));
            assertEquals(over == 0 ? Stop.Kind.VERIFY_FAILED : Stop.Kind.LENGTH_OVER_MAX, s.fromLast().stop().kind());
            assertEquals(over == 0 ? Stop.Kind.VERIFY_FAILED : Stop.Kind.LENGTH_OVER_MAX, s.rebuild().stop().kind());
        }
    }

    /**
     * The probe decodes a candidate by F 2.2 alone and applies the MAXB filter afterwards (4.7 step 3.3): a
     * candidate claiming MAXB bytes that fit is charged MAXB verify bytes; one claiming MAXB + 1 is examined (it
     * costs a candidate unit) but never charged or verified.
     */
    @Test
    void maxb_probeChargesMaxbButNotMaxbPlusOne() throws Exception {
        byte[] survivor = batch(1, 0, TB, 1);
        List<List<Long>> budgets = new ArrayList<>();
        for (long over = 0; over <= 1; over++) {
            Fixture f = new Fixture(root.resolve("over" + over), 1);
            byte[] head = Fixture.concat(new byte[]{(byte) 0xFF}, header(1, 0, TA, MAXB + over, 1), survivor);
            sparse(SegmentFiles.log(f.dir, 0), head, MAXB + 2);
            PartitionReport r = f.judge(false);
            assertRefusal(r, Refusal.Variant.InteriorDamage,
                    fields("start_offset", 0, "damage_position", 0, "survivor_position", 257));
            budgets.add(budget(r));
        }
        assertEquals(257L, budgets.get(0).get(0));
        assertEquals(257L, budgets.get(1).get(0));
        assertEquals(MAXB, budgets.get(0).get(2) - budgets.get(1).get(2));
        assertEquals(2 * (MAXB + 2), budgets.get(0).get(1));
        assertEquals(4 * (MAXB + 2), budgets.get(0).get(3));
    }

    // ==== probe bounds (RECOVERY 4.7) =============================================================================

    /**
     * A residue of 256 bytes has no candidate; 257 bytes has exactly one, at dmg + 1. The candidate here claims one
     * message in 256 bytes: it fits and advances, so it is charged 256 verify bytes and fails to verify.
     */
    @ParameterizedTest(name = "residue={0}")
    @ValueSource(ints = {256, 257})
    void probe_residueOf256HasNoCandidate_257HasOne(int residue) throws Exception {
        byte[] tail = Fixture.concat(new byte[]{(byte) 0xFF}, header(1, 5, TB, 256, 1));
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.a(), Fixture.prefix(tail, residue)));
        for (boolean durable : new boolean[]{false, true}) {
            PartitionReport r = f.judge(durable);
            assertAccepted(r);
            SegmentReport s = r.segments().get(0);
            assertEquals(Status.TRUNCATED, s.status());
            assertEquals(315, s.size());
            long candidates = residue - 256;
            assertEquals(List.of(candidates, 2L * residue, 256 * candidates, 4L * residue), budget(r));
        }
    }

    /** 11.2: the survivor test ignores partition_id: a verified foreign record after damage is InteriorDamage. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void probe_foreignSurvivorIsInteriorDamage(boolean durable) throws Exception {
        byte[] log = Fixture.concat(Vectors.a(), Fixture.filled(10, 0xAB), batch(7, 9, TC, 1));
        Fixture f = new Fixture(root, 1).log(0, log);
        assertRefusal(f.judge(durable), Refusal.Variant.InteriorDamage,
                fields("start_offset", 0, "damage_position", 315, "survivor_position", 325));
    }

    // ==== anchor search (RECOVERY 4.8) ============================================================================

    /**
     * The search probes at most 4,096 entries. With n = 4,097 the 4,096th probe is entry 0, which proves; with
     * n = 4,098 the search stops at entry 1 and proves nothing. Entries at or past L are counted but not read and
     * do not grow the budget; entry 0 grows it by L - 0 and is charged A's length.
     */
    @ParameterizedTest(name = "entries={0}")
    @ValueSource(ints = {4097, 4098})
    void anchorSearch_capsAt4096Probes(int n) throws Exception {
        List<IndexEntry> entries = new ArrayList<>();
        entries.add(EA);
        for (int k = 1; k < n; k++) {
            entries.add(new IndexEntry(k, TA + k, 315 + k));
        }
        Fixture f = new Fixture(root, 1).log(0, Vectors.a())
                .rawIndex(0, IndexFile.encode(entries));
        PartitionReport r = f.judge(true);
        boolean reachesEntry0 = n == 4097;
        assertRefusal(r, Refusal.Variant.FsyncedLogLoss, fields("start_offset", 0, "entry_count", n,
                "provable_entries", reachesEntry0 ? 1 : 0, "provable_position", 0, "searched_entries", 4096));
        assertEquals(reachesEntry0 ? List.of(0L, 630L, 315L, 1260L) : List.of(0L, 0L, 0L, 0L), budget(r));
        PartitionReport lenient = f.judge(false);
        assertAccepted(lenient);
        assertEquals(Status.INDEX_REBUILT, lenient.segments().get(0).status());
        assertEquals(List.of(0L, 0L, 0L, 0L), budget(lenient), "lenient mode never searches");
    }

    /**
     * The search walks down from L: each entry below L grows the budget by the distance from the previous probed
     * position ({@code down}), and a matching header is charged its batch_length before it is verified. Entries
     * 2 and 1 have intact headers over flipped payloads; entry 3 sits at L and is skipped without a read.
     */
    @Test
    void anchorSearch_growsByTheDistanceDown_andSkipsEntriesAtOrPastL() throws Exception {
        byte[] log = flip(flip(Vectors.abc(), 620), 1100);
        Fixture f = new Fixture(root, 1).log(0, log)
                .index(0, EA, EB, EC, new IndexEntry(5, TC + 1, 1145), new IndexEntry(6, TC + 2, 1200));
        PartitionReport r = f.judge(true);
        assertRefusal(r, Refusal.Variant.FsyncedLogLoss, fields("start_offset", 0, "entry_count", 5,
                "provable_entries", 1, "provable_position", 0, "searched_entries", 4));
        assertEquals(List.of(0L, 2290L, 1145L, 4580L), budget(r));
    }

    // ==== names (RECOVERY 3, 11.2) =================================================================================

    /**
     * Every spelling u64::from_str accepts names the same start offset: {@code 5.log}, {@code +5.log} and
     * {@code 0000000000000000000000005.log} (25 digits) each add S = 5 beside the canonical file, all read at the
     * canonical path. Four segments with S = 5; the first overlapping pair refuses.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void nonCanonicalSpellings_allNameTheCanonicalSegment(boolean durable) throws Exception {
        byte[] five = batch(1, 5, TA, 2);
        Fixture f = new Fixture(root, 1).log(5, five).file("5.log", new byte[3]).file("+5.log", new byte[3])
                .file("0000000000000000000000005.log", new byte[3]).file("-5.log", new byte[3])
                .file("+.log", new byte[3]).file("18446744073709551616.log", new byte[3]);
        PartitionReport r = f.judge(durable);
        assertEquals(List.of(5L, 5L, 5L, 5L), r.segments().stream().map(s -> s.start()).toList());
        assertEquals(List.of(6L, 6L, 6L, 6L), r.segments().stream().map(s -> s.endOffset()).toList());
        assertRefusal(r, Refusal.Variant.Hole, fields("previous_start", 5, "previous_end", 6, "next_start", 5,
                "recoverable_bytes", 4L * five.length));
        assertEquals(3, r.warnings().stream().filter(w -> w.contains("not a start offset")).count(),
                r.warnings()::toString);
    }

    /**
     * {@code +5.log} alone: S = 5, read at {@code 00000000000000000005.log}, which does not exist, so the tail
     * segment is recovered empty with nothing to fence; {@code +5.index} shares the log's stem, so it is no orphan,
     * and it is never read.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void plusSignNameAlone_readsTheMissingCanonicalFile(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC)
                .file("+5.log", Fixture.filled(400, 0xAB)).file("+5.index", Fixture.filled(24, 0xAB));
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        assertEquals(List.of(), r.swept());
        SegmentReport tail = r.segments().get(1);
        assertEquals(5, tail.start());
        assertEquals(0, tail.logLength());
        assertEquals(Status.RECOVERED_EMPTY, tail.status());
        assertEquals(List.of(), r.operations());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("+5.log: non-canonical")
                && w.endsWith("which does not exist")), r.warnings()::toString);
    }

    // ==== W and R (RECOVERY 4.5, 4.6, 11.2) ========================================================================

    /**
     * 4.5: the partition check (step 4) precedes the offset check (step 5). The last entry names offset 1 but the
     * verified record at its position is partition 7's offset 9: ForeignBatch. (Checking the offset first would stop
     * silently and the byte-0 walk, stopping at the flipped A, would report InteriorDamage at 315.)
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void w_partitionCheckPrecedesOffsetCheckAtTheAnchor(boolean durable) throws Exception {
        byte[] log = Fixture.concat(flip(Vectors.a(), 310), batch(7, 9, TB, 1));
        Fixture f = new Fixture(root, 1).log(0, log).index(0, EA, new IndexEntry(1, TB, 315));
        assertRefusal(f.judge(durable), Refusal.Variant.ForeignBatch,
                fields("start_offset", 0, "batch_partition_id", 7, "position", 315));
    }

    /** 11.2: an empty record that verifies at the anchor makes the expectation the log's own. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void w_emptyRecordAtTheAnchorThenAGapRefuses(boolean durable) throws Exception {
        byte[] empty = RecordEncoder.encode(1, 1, TB, 0, List.of());
        byte[] log = Fixture.concat(Vectors.a(), empty, batch(1, 5, TC, 1));
        Fixture f = new Fixture(root, 1).log(0, log).index(0, EA, new IndexEntry(1, TB, 315));
        assertRefusal(f.judge(durable), Refusal.Variant.OffsetDiscontinuity, fields("start_offset", 0,
                "expected_offset", 1, "found_offset", 5, "position", 315 + empty.length));
    }

    /**
     * 11.2: a lone entry over a torn log never refuses in durable mode (step-back 1, shortfall against position 0):
     * recovered empty, both files fenced.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void loneEntryOverATornLog_recoveredEmptyAndFenced(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Fixture.prefix(Vectors.a(), 300)).index(0, EA);
        PartitionReport r = f.judge(durable);
        assertAccepted(r);
        SegmentReport s = r.segments().get(0);
        assertEquals(Status.RECOVERED_EMPTY, s.status());
        assertEquals(List.of(new PlannedOp.Fence(s.log(), 0, f.dir.resolveSibling("1.fenced.0"), 300, 24)),
                s.operations());
    }

    // ==== budget shared across segments (RECOVERY 2.4, 11.2) ======================================================

    /**
     * Segment 0's torn tail (300 zero bytes: 44 candidates) grows the budget by 600 units and 1,200 verify bytes;
     * segment 1's residue of ten overlapping headers (2,560 bytes) adds 5,120 and 10,240. Its verifications cost
     * 2,304, 2,048, ..., 256 bytes: cumulative 11,520 at the ninth, which is the first to exceed 11,440. On a fresh
     * budget the seventh (10,752 > 10,240) would already fail.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void budget_isCumulativeAcrossSegments(boolean durable) throws Exception {
        byte[] g = batch(1, 1, TB, 1);
        int m = 10;
        byte[] seg1 = Fixture.concat(g, new byte[256 * m]);
        for (int j = 0; j < m; j++) {
            int at = g.length + 256 * j;
            System.arraycopy(header(1, j + 2, 0, seg1.length - at, 1), 0, seg1, at, 256);
        }
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(Vectors.a(), new byte[300])).log(1, seg1);
        PartitionReport r = f.judge(durable);
        assertRefusal(r, Refusal.Variant.UnverifiedResidue, fields("start_offset", 1, "damage_position", g.length,
                "residue_bytes", 2560, "candidates_examined", 44 + 2304, "budget_units", 600 + 5120,
                "verified_bytes", 11520, "verify_budget_bytes", 1200 + 10240));
        assertEquals(Status.TRUNCATED, r.segments().get(0).status());
    }

    // ==== I/O errors are never damage (RECOVERY 7.3) ===============================================================

    /** The anchor is read for every non-contiguous pair, overlaps included: an unreadable anchor fails the boot. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void anchorReadForAnOverlap_ioErrorBeatsHole(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC).log(3, batch(1, 3, TC + 9, 1));
        Path anchor = SegmentFiles.anchor(f.dir, 3);
        Files.createSymbolicLink(anchor, anchor);
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.IO_ERROR, r.outcome(), () -> r.outcome() + " " + r.refusal());
        assertTrue(r.ioError().contains("00000000000000000003.anchor"), r.ioError());
    }

    /** ...and not read at all for a contiguous pair. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void anchorOfAContiguousPairIsNotRead(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA, EB, EC).log(5, batch(1, 5, TC + 9, 1));
        Path anchor = SegmentFiles.anchor(f.dir, 5);
        Files.createSymbolicLink(anchor, anchor);
        assertAccepted(f.judge(durable));
    }

    /** A stat that fails (a symlink loop) is transient for the log and for the index alike. */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void symlinkLoops_areIoErrors(boolean durable) throws Exception {
        Fixture f = new Fixture(root, 1).index(0, EA);
        Files.createSymbolicLink(SegmentFiles.log(f.dir, 0), SegmentFiles.log(f.dir, 0));
        PartitionReport r = f.judge(durable);
        assertEquals(Outcome.IO_ERROR, r.outcome());
        assertTrue(r.ioError().contains("metadata"), r.ioError());
        Fixture g = new Fixture(root.resolve("b"), 1).log(0, Vectors.abc());
        Files.createSymbolicLink(SegmentFiles.index(g.dir, 0), SegmentFiles.index(g.dir, 0));
        PartitionReport q = g.judge(durable);
        assertEquals(Outcome.IO_ERROR, q.outcome());
        assertTrue(q.ioError().contains("00000000000000000000.index"), q.ioError());
    }

    // ==== parallel = sequential ===================================================================================

    /**
     * The same verdict, bounds, evidence and budget with 1 thread and with 4, with a small window so that the
     * parallel read-ahead spans many windows: 300 records, the 200th with a flipped payload byte.
     */
    @ParameterizedTest(name = "durable={0}")
    @ValueSource(booleans = {false, true})
    void parallelVerification_equalsSequential(boolean durable) throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            records.add(RecordEncoder.encode(1, i, TA + i, TA, List.of(Message.of(i + 1, new byte[600 + i]))));
        }
        int at = 0;
        for (int i = 0; i < 199; i++) {
            at += records.get(i).length;
        }
        records.set(199, flip(records.get(199), 256 + 48 + 100));
        Fixture f = new Fixture(root, 1).log(0, Fixture.concat(records.toArray(new byte[0][])))
                .index(0, EA);
        List<String> seen = new ArrayList<>();
        for (int threads : new int[]{1, 4}) {
            RecoveryEngine engine = new RecoveryEngine(RecoveryOptions.defaults().withThreads(threads)
                    .withWindow(4096));
            PartitionReport r = engine.judge(f.partition, durable);
            SegmentReport s = r.segments().get(0);
            seen.add(r.outcome() + " " + r.refusal() + " " + budget(r) + " " + s.fromLast().position() + " "
                    + s.fromLast().stop().kind() + " " + (s.rebuild() == null ? "-" : s.rebuild().position()));
        }
        assertEquals(seen.get(0), seen.get(1));
        assertTrue(seen.get(0).contains("InteriorDamage {start_offset: 0, damage_position: " + at), seen.get(0));
    }
}
