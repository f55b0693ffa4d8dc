package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import segtool.analyzers.recovery.PartitionReport;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.SegmentReport;
import segtool.formats.naming.PartitionPath;

/** Snapshots, copies and comparisons of directory trees, and the "every original byte is somewhere" check. */
final class Trees {
    private Trees() {
    }

    /**
     * Every regular file under {@code root} by relative path (directories as {@code name/} with no content),
     * quarantine directories left out unless {@code withQuarantine}. The lock file beside a partition is left out:
     * it holds only the PID of the last run that changed files, and is not part of the data.
     */
    static Map<String, byte[]> snapshot(Path root, boolean withQuarantine) {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String rel = root.relativize(p).toString();
                if (rel.isEmpty() || (!withQuarantine && rel.contains(Quarantine.MARKER))
                        || rel.endsWith(PartitionLock.SUFFIX)) {
                    continue;
                }
                out.put(Files.isDirectory(p) ? rel + "/" : rel, Files.isDirectory(p) ? new byte[0]
                        : Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static void assertSame(Map<String, byte[]> expected, Map<String, byte[]> actual, String context) {
        assertEquals(expected.keySet(), actual.keySet(), context);
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), actual.get(e.getKey()), context + ": " + e.getKey());
        }
    }

    static void copy(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> all = new ArrayList<>();
            walk.forEach(all::add);
            all.sort(Comparator.reverseOrder());
            for (Path p : all) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Asserts that every file of the original partition ({@code original}: name -> bytes) can be put together from
     * what is now on disk: the file itself, a fenced copy, or a prefix of it plus the ranges a committed quarantine
     * holds (checked byte for byte and by each entry's XXH3).
     */
    static void assertAllBytesHeld(Map<String, byte[]> original, Path partition, String context) throws IOException {
        Path parent = partition.getParent();
        String name = partition.getFileName().toString();
        List<Quarantine> quarantines = new ArrayList<>();
        for (Path q : Quarantine.of(partition)) {
            if (Quarantine.hasManifest(q)) {
                quarantines.add(Quarantine.open(q));
            }
        }
        for (Map.Entry<String, byte[]> f : original.entrySet()) {
            byte[] want = f.getValue();
            if (want.length == 0) {
                continue; // an empty file holds no byte to lose (its existence is the manifest's, for restore)
            }
            List<byte[]> candidates = new ArrayList<>();
            Path now = partition.resolve(f.getKey());
            byte[] current = Files.isRegularFile(now) ? Files.readAllBytes(now) : new byte[0];
            candidates.add(current);
            try (Stream<Path> s = Files.list(parent)) {
                for (Path d : (Iterable<Path>) s::iterator) {
                    if (d.getFileName().toString().startsWith(name + ".fenced.")
                            && Files.isRegularFile(d.resolve(f.getKey()))) {
                        candidates.add(Files.readAllBytes(d.resolve(f.getKey())));
                    }
                }
            }
            for (Quarantine q : quarantines) {
                List<QuarantineEntry> es = new ArrayList<>();
                for (QuarantineEntry e : q.manifest().entries()) {
                    if (e.file().equals(f.getKey())) {
                        es.add(e);
                    }
                }
                if (es.isEmpty()) {
                    continue;
                }
                long start = es.get(0).offset();
                byte[] assembled = new byte[(int) es.get(0).originalLength()];
                if (start > current.length) {
                    continue;
                }
                System.arraycopy(current, 0, assembled, 0, (int) start);
                for (QuarantineEntry e : es) {
                    byte[] copy = Files.readAllBytes(q.copy(e));
                    assertEquals(Hashing.parse(e.xxh3()), segtool.formats.hash.Xxh3.hash(copy),
                            context + ": copy " + e.copy() + " hash");
                    System.arraycopy(copy, 0, assembled, (int) e.offset(), copy.length);
                }
                candidates.add(assembled);
            }
            boolean held = candidates.stream().anyMatch(c -> java.util.Arrays.equals(c, want));
            assertTrue(held, context + ": the original bytes of " + f.getKey() + " (" + want.length
                    + " bytes) are neither in place, fenced, nor in a quarantine");
        }
    }

    /** The files of the partition directory itself (no subdirectories), name -> bytes. */
    static Map<String, byte[]> partitionFiles(Path partition) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(partition)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    out.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    /** Scan's view: exit 0 and every segment clean, or recovered empty with empty files. */
    static void assertClean(PartitionPath p, boolean durable, String context) throws IOException {
        PartitionReport r = new RecoveryEngine().judge(p, durable);
        assertEquals(PartitionReport.Outcome.ACCEPTED, r.outcome(), () -> context + ": " + r.refusal() + r.ioError());
        assertEquals(0, r.severity(), () -> context + ": still planned " + r.operations());
        for (SegmentReport s : r.segments()) {
            assertTrue(s.status() == SegmentReport.Status.CLEAN || (s.status() == SegmentReport.Status.RECOVERED_EMPTY
                    && Files.size(s.log()) == 0 && Files.size(s.index()) == 0), context + ": segment " + s.start() + " is "
                    + s.status());
        }
    }

    /**
     * On a copy of {@code root}: restores every committed quarantine of the partition, then asserts the tree is
     * {@code originalTree} again. The copy is removed after.
     */
    static void assertRestoresOriginal(Path root, Path copy, Map<String, byte[]> originalTree, String context)
            throws IOException {
        delete(copy);
        copy(root, copy);
        for (Path q : Quarantine.of(Shapes.partitionDir(copy))) {
            if (Quarantine.hasManifest(q)) {
                Repairer.RestoreOutcome r = FixpointTest.repairer().restore(q, true, false);
                assertEquals(0, r.exitCode(), () -> context + ": restore " + r.error() + " " + r.result());
            }
        }
        assertSame(originalTree, snapshot(copy, false), context + ", then restore");
        delete(copy);
    }
}
