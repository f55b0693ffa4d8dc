package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.naming.PartitionPath;

/** Issue 16.1 and 17.5: the lock, the in-use check repeated before the commit point, disk space, symlinks. */
class ApplySafetyTest {
    @TempDir(factory = FastTempDir.class)
    Path tmp;

    private PartitionPath composite(Path root) throws IOException {
        Path dir = Shapes.partitionDir(root);
        Files.createDirectories(dir);
        Shapes.composite(dir);
        return PartitionPath.of(dir);
    }

    private static Repairer repairer(Function<Path, ServerGuard.Report> guard, StepHook hook) {
        return new Repairer(FixpointTest.ENGINE, guard, new Applier(hook, "test"), p -> true);
    }

    private static ServerGuard.Report busy(Path scope) {
        return new ServerGuard.Report(scope, true, List.of(new ServerGuard.Holder(4242, "iggy-server",
                scope + "/x.log", "has open")), List.of(), 0, List.of());
    }

    @Test
    void aServerStartedWhileTheCopiesAreMade_isSeenBeforeTheCommitPoint_andThePreparationIsRemoved()
            throws Exception {
        PartitionPath p = composite(tmp);
        Map<String, byte[]> before = Trees.snapshot(tmp, true);
        AtomicInteger calls = new AtomicInteger();
        Repairer.Outcome o = repairer(scope -> calls.getAndIncrement() == 0 ? ServerGuard.Report.idle(scope)
                : busy(scope), StepHook.NONE).repair(p, false, true, false);
        assertEquals(Repairer.Status.IN_USE, o.status(), () -> o.error() + " " + o.notes());
        assertEquals(4, o.exitCode());
        assertEquals(4242, o.server().holders().get(0).pid());
        assertEquals(2, calls.get(), "checked when the run starts and again just before the commit point");
        Trees.assertSame(before, Trees.snapshot(tmp, true), "nothing changed, no preparation left");
    }

    /**
     * Review finding: the link-count rule (METADATA 6.7: never truncate a WAL-linked log in place) is asked again at
     * the truncation itself, not only when the plan is made: a link that appears in between stops the run there,
     * with the log whole and the quarantine holding what it copied.
     */
    @Test
    void aHardLinkMadeAfterThePlan_stopsTheTruncation_andTheLogStaysWhole() throws Exception {
        PartitionPath p = Shapes.make(tmp, Shapes.repairable().get(0)); // a torn tail: the log is cut
        Path log = p.directory().resolve("00000000000000000000.log");
        byte[] before = Files.readAllBytes(log);
        Path link = tmp.resolve("wal-retained.log");
        Repairer linking = new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle, new Applier(StepHook.NONE,
                "test"), plan -> {
                    try {
                        Files.createLink(link, log);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return true;
                });
        Repairer.Outcome o = linking.repair(p, false, true, false);
        assertEquals(Repairer.Status.IO_ERROR, o.status(), () -> o.status() + " " + o.error() + " " + o.notes());
        assertTrue(o.error().contains(log + ": at the truncation: has 2 hard links"), o.error());
        assertArrayEquals(before, Files.readAllBytes(log), "the shared inode was not truncated");
        Files.delete(link);
        Repairer.Outcome rerun = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, rerun.exitCode(), () -> rerun.error() + " " + rerun.notes());
        Trees.assertClean(p, false, "a re-run without the link finishes the repair");
    }

    @Test
    void restoreAndRebuildIndex_areExcludedByAHeldLock_evenWithForce() throws Exception {
        PartitionPath p = composite(tmp);
        Repairer.Outcome applied = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, applied.exitCode(), () -> applied.error() + " " + applied.notes());
        Map<String, byte[]> repaired = Trees.snapshot(tmp, true);
        try (PartitionLock held = PartitionLock.acquire(p.directory())) {
            Repairer.RestoreOutcome r = FixpointTest.repairer().restore(applied.quarantine(), true, true);
            assertEquals(4, r.exitCode(), () -> String.valueOf(r));
            assertEquals(ProcessHandle.current().pid(), r.server().holders().get(0).pid());
            Repairer.Outcome again = FixpointTest.repairer().repair(p, false, true, true);
            assertEquals(Repairer.Status.IN_USE, again.status());
            assertEquals("segtool", again.server().holders().get(0).command());
        }
        Trees.assertSame(repaired, Trees.snapshot(tmp, true), "nothing changed while the lock was held");
        Repairer.RestoreOutcome r = FixpointTest.repairer().restore(applied.quarantine(), true, false);
        assertEquals(0, r.exitCode(), () -> String.valueOf(r));
    }

    @Test
    void aSymlinkedLockFile_isRefused_neverFollowed() throws Exception {
        PartitionPath p = composite(tmp);
        Path elsewhere = Files.writeString(tmp.resolve("victim"), "keep", StandardCharsets.US_ASCII);
        Files.createSymbolicLink(PartitionLock.fileFor(p.directory()), elsewhere);
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(Repairer.Status.IO_ERROR, o.status());
        assertTrue(o.error().contains("is a symlink"), o.error());
        assertEquals("keep", Files.readString(elsewhere));
        assertTrue(Quarantine.of(p.directory()).isEmpty());
    }

    @Test
    void repairingThroughASymlinkedPartitionPath_putsQuarantineAndFenceBesideTheRealDirectory() throws Exception {
        PartitionPath real = composite(tmp.resolve("data"));
        Path links = Files.createDirectories(tmp.resolve("links"));
        Path link = Files.createSymbolicLink(links.resolve("1"), real.directory());
        Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(link), false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        try (Stream<Path> s = Files.list(links)) {
            assertEquals(List.of(link), s.toList(), "nothing beside the link");
        }
        assertEquals(real.directory().getParent(), o.quarantine().getParent());
        assertEquals(1, Quarantine.of(real.directory()).size());
        try (Stream<Path> s = Files.list(real.directory().getParent())) {
            assertTrue(s.anyMatch(x -> x.getFileName().toString().startsWith("1.fenced.")));
        }
        Trees.assertClean(real, false, "after repairing through the link");
    }

    @Test
    void aDamagedSiblingQuarantine_isNamed_andBlocksNothing() throws Exception {
        PartitionPath p = composite(tmp);
        Path damaged = Files.createDirectories(p.directory().resolveSibling("1" + Quarantine.MARKER
                + "20260101T000000.000Z"));
        Files.writeString(damaged.resolve(Quarantine.MANIFEST), "{not json", StandardCharsets.UTF_8);
        Repairer.Outcome dry = FixpointTest.repairer().repair(p, false, false, false);
        assertEquals(Repairer.Status.PLANNED, dry.status(), () -> dry.error() + " " + dry.notes());
        assertTrue(dry.notes().stream().anyMatch(n -> n.startsWith(damaged.getFileName() + ": damaged quarantine")),
                dry.notes()::toString);
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        assertTrue(Files.isRegularFile(damaged.resolve(Quarantine.MANIFEST)), "left alone");
    }

    @Test
    void aQuarantineNameTakenByASymlink_isNeverFollowed() throws Exception {
        PartitionPath p = composite(tmp);
        java.time.Instant now = java.time.Instant.parse("2026-01-02T03:04:05.678Z");
        java.time.Clock clock = java.time.Clock.fixed(now, java.time.ZoneOffset.UTC);
        Path planted = Files.createDirectories(tmp.resolve("planted"));
        Path link = Files.createSymbolicLink(Quarantine.directoryFor(p.directory(), now, 0), planted);
        Repairer.Outcome o = new Repairer(FixpointTest.ENGINE, ServerGuard.Report::idle,
                new Applier(StepHook.NONE, "test", clock), x -> true).repair(p, false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        assertEquals(Quarantine.directoryFor(p.directory(), now, 1), o.quarantine());
        assertTrue(Files.isSymbolicLink(link));
        try (Stream<Path> s = Files.list(planted)) {
            assertEquals(0, s.count(), "nothing written through the link");
        }
    }

    @Test
    void aSymlinkNamedLikeAQuarantine_isNotFollowed() throws Exception {
        PartitionPath p = composite(tmp);
        Path planted = Files.createDirectories(tmp.resolve("planted"));
        Files.createDirectories(planted.resolve(Quarantine.BYTES));
        Files.writeString(planted.resolve(Quarantine.BYTES).resolve("x"), "keep", StandardCharsets.US_ASCII);
        Path link = Files.createSymbolicLink(p.directory().resolveSibling("1" + Quarantine.MARKER
                + "20260101T000000.000Z"), planted);
        Repairer.Outcome o = FixpointTest.repairer().repair(p, false, true, false);
        assertEquals(0, o.exitCode(), () -> o.error() + " " + o.notes());
        assertTrue(o.discarded().isEmpty());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("keep", Files.readString(planted.resolve(Quarantine.BYTES).resolve("x")));
    }

    // ---- a real, small file system -------------------------------------------------------------------------

    @Test
    void notEnoughSpaceForTheCopies_isRefusedBeforeAnythingIsWritten() throws Exception {
        Path mnt = tmp.resolve("small");
        try (SmallFs fs = SmallFs.mount(mnt, "6m")) {
            Path dir = Shapes.partitionDir(mnt);
            Files.createDirectories(dir);
            KillNineTest.build(dir);
            SmallFs.fill(mnt, 2 << 20);
            Map<String, byte[]> before = Trees.snapshot(mnt, true);
            Repairer.Outcome o = FixpointTest.repairer().repair(PartitionPath.of(dir), false, true, false);
            assertEquals(Repairer.Status.IO_ERROR, o.status());
            assertEquals(3, o.exitCode());
            assertTrue(o.error().contains("not enough free space for the quarantine"), o.error());
            assertFalse(o.error().contains("\n"));
            Trees.assertSame(before, Trees.snapshot(mnt, true), "nothing written");
        }
    }

    @Test
    void aDiskThatFillsWhileCopying_leavesNoPartialCopies() throws Exception {
        Path mnt = tmp.resolve("small");
        try (SmallFs fs = SmallFs.mount(mnt, "8m")) {
            Path dir = Shapes.partitionDir(mnt);
            Files.createDirectories(dir);
            KillNineTest.build(dir);
            Map<String, byte[]> before = Trees.snapshot(mnt, true);
            // the space check passes; then something else takes the space while segtool copies
            StepHook hog = (step, action) -> {
                if (action.startsWith("write ") && action.contains(Quarantine.BYTES + "/0002-")) {
                    SmallFs.fill(mnt.resolve("streams"), 0);
                }
            };
            Repairer.Outcome o = repairer(ServerGuard.Report::idle, hog).repair(PartitionPath.of(dir), false, true,
                    false);
            assertEquals(Repairer.Status.IO_ERROR, o.status(), () -> o.error() + " " + o.notes());
            assertTrue(Quarantine.of(dir).isEmpty(), "the partial preparation is removed");
            Map<String, byte[]> after = Trees.snapshot(mnt, true);
            after.keySet().removeIf(k -> k.startsWith("streams/filler"));
            Trees.assertSame(before, after, "the partition is unchanged");
        }
    }
}
