package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static segtool.formats.Vectors.TA;
import static segtool.formats.Vectors.TB;
import static segtool.formats.Vectors.TC;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.formats.Vectors;
import segtool.formats.anchor.AnchorRecord;
import segtool.formats.index.IndexEntry;
import segtool.formats.index.IndexFile;
import segtool.formats.log.Defect;
import segtool.formats.naming.SegmentFiles;

/** The public primitives the inspection commands build on: the sweep's classification, 2.3, 4.2 and 5. */
class PrimitivesTest {
    @TempDir
    Path root;

    private static final IndexEntry EA = new IndexEntry(0, TA, 0);
    private static final IndexEntry EB = new IndexEntry(1, TB, 315);
    private static final IndexEntry EC = new IndexEntry(4, TC, 782);

    private static Sweep.Entry entry(Sweep sweep, String name) {
        return sweep.entries().stream().filter(e -> e.path().getFileName().toString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no entry " + name));
    }

    @Test
    void sweep_classifiesLikeTheServer_withoutDeleting() throws Exception {
        Fixture f = new Fixture(root, 1).log(0, Vectors.abc()).index(0, EA)
                .file("00000000000000000000.anchor", new byte[0])
                .file("00000000000000000007.index", new byte[24])
                .file("5.log", new byte[0])
                .file("notes.log", new byte[0])
                .file("00000000000000000000.index.staging", new byte[3])
                .file("readme.txt", new byte[1]);
        Files.createDirectory(f.dir.resolve("offsets"));
        Files.createDirectory(f.dir.resolve("x.staging"));
        Path elsewhere = Files.createDirectory(root.resolve("elsewhere"));
        Files.createSymbolicLink(f.dir.resolve("link.staging"), elsewhere);
        Files.createSymbolicLink(f.dir.resolve("00000000000000000009.index"), elsewhere);

        Sweep sweep = Sweep.of(f.dir);

        assertEquals(List.of(0L, 5L), sweep.startOffsets());
        assertEquals(Sweep.Kind.SEGMENT_LOG, entry(sweep, "00000000000000000000.log").kind());
        assertEquals(5L, entry(sweep, "5.log").startOffset());
        assertEquals(Sweep.Kind.UNNAMED_LOG, entry(sweep, "notes.log").kind());
        assertEquals(Sweep.Kind.COMPANION, entry(sweep, "00000000000000000000.index").kind());
        assertEquals(Sweep.Kind.COMPANION, entry(sweep, "00000000000000000000.anchor").kind());
        assertEquals(Sweep.Kind.ORPHAN, entry(sweep, "00000000000000000007.index").kind());
        assertEquals(Sweep.Kind.IGNORED, entry(sweep, "offsets").kind());
        assertEquals(Sweep.Kind.IGNORED, entry(sweep, "readme.txt").kind());
        // remove_file unlinks a symlink to a directory, and fails on a real directory
        assertTrue(entry(sweep, "link.staging").deleted());
        assertFalse(entry(sweep, "x.staging").deleted());
        assertTrue(entry(sweep, "00000000000000000009.index").deleted());
        assertEquals(List.of("00000000000000000000.index.staging", "link.staging", "00000000000000000007.index",
                        "00000000000000000009.index"),
                sweep.deletions().stream().map(d -> d.path().getFileName().toString()).toList());
        assertTrue(sweep.deletes(f.dir.resolve("00000000000000000007.index")));
        assertEquals(List.of("5.log: non-canonical segment name; the server reads 00000000000000000005.log instead,"
                + " which does not exist", "notes.log: log name is not a start offset; the server ignores it"),
                sweep.warnings());
        assertTrue(Files.exists(f.dir.resolve("00000000000000000007.index")), "the sweep deletes nothing");
    }

    @Test
    void sweep_missingDirectoryHasNoSegments() throws Exception {
        assertTrue(Sweep.of(root.resolve("absent")).entries().isEmpty());
    }

    @Test
    void headerAt_verify_matches() throws Exception {
        byte[] abc = Vectors.abc();
        Fixture f = new Fixture(root, 1).log(0, Fixture.prefix(abc, abc.length - 1));
        long len = abc.length - 1;
        try (SegmentLog log = SegmentLog.open(SegmentFiles.log(f.dir, 0), 0, 1, len, RecoveryOptions.defaults())) {
            HeaderAt b = log.headerAt(315);
            assertTrue(b.found());
            assertEquals(1, b.header().baseOffset());
            HeaderAt mid = log.headerAt(1);
            assertFalse(mid.found());
            assertEquals(Stop.Kind.HEADER_INVALID, mid.none().kind());
            assertEquals(Stop.Kind.HEADER_TRUNCATED, log.headerAt(len - 255).none().kind());

            assertNull(log.verify(0, 315));
            assertEquals(Defect.Code.RUNS_PAST_EOF, log.verify(782, abc.length - 782).code());

            assertNull(log.mismatch(EB));
            assertEquals("batch at 315 has base_offset 1, entry says 2", log.mismatch(new IndexEntry(2, TB, 315)));
            assertEquals("batch at 782 runs past the end of the log", log.mismatch(EC));
        }
        try (SegmentLog other = SegmentLog.open(SegmentFiles.log(f.dir, 0), 0, 2, len, RecoveryOptions.defaults())) {
            assertEquals("batch at 0 carries partition_id 1", other.mismatch(EA));
        }
    }

    @Test
    void verify_findsAFlippedPayloadByte() throws Exception {
        byte[] abc = Vectors.abc();
        abc[314] ^= 1; // the last payload byte of A
        Fixture f = new Fixture(root, 1).log(0, abc);
        try (SegmentLog log = SegmentLog.open(SegmentFiles.log(f.dir, 0), 0, 1, abc.length,
                RecoveryOptions.defaults().withThreads(1))) {
            assertTrue(log.headerAt(0).found(), "the header still decodes");
            assertEquals(Defect.Code.MESSAGE_CHECKSUM_MISMATCH, log.verify(0, 315).code());
            assertNull(log.verify(315, 467));
            assertNull(log.mismatch(EA), "Matches computes no checksum");
        }
    }

    @Test
    void indexScan_structureStopsAndMappingsKeepScanning() throws Exception {
        byte[] abc = Vectors.abc();
        Fixture f = new Fixture(root, 1).log(0, abc)
                .index(0, EA, new IndexEntry(1, TA, 315), EC, new IndexEntry(4, TC, 700));
        try (SegmentLog log = SegmentLog.open(SegmentFiles.log(f.dir, 0), 0, 1, abc.length,
                RecoveryOptions.defaults()); IndexFile index = IndexFile.open(SegmentFiles.index(f.dir, 0))) {
            IndexScan three = IndexScan.of(index, 3, log);
            assertTrue(three.structural());
            assertFalse(three.mappings());
            assertEquals(1, three.firstUnmatched());
            IndexScan four = IndexScan.of(index, 4, log);
            assertFalse(four.structural());
            assertEquals(3, four.firstBadEntry());
        }
    }

    @Test
    void anchorAdmission() throws Exception {
        AnchorRecord a = new AnchorRecord(10, 0, 4);
        assertTrue(ChainGuard.admits(0, 4, 10, a));
        assertFalse(ChainGuard.admits(0, 4, 10, null));
        assertFalse(ChainGuard.admits(0, 5, 10, a), "sealed_end must be the previous end");
        assertFalse(ChainGuard.admits(0, 12, 10, new AnchorRecord(10, 0, 12)), "an overlap is never admitted");
        assertTrue(ChainGuard.contiguous(4, 5));
        assertFalse(ChainGuard.contiguous(-1L, 0));
        Path p = root.resolve("00000000000000000010.anchor");
        assertNull(ChainGuard.readAnchor(p));
        Files.write(p, a.encode());
        assertEquals(a, ChainGuard.readAnchor(p));
        Files.write(p, new byte[40]);
        assertNull(ChainGuard.readAnchor(p));
    }
}
