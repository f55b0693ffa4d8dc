package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.exit.ExitCode;
import segtool.formats.index.IndexEntry;
import segtool.formats.io.LittleEndian;
import segtool.formats.writer.PartitionWriter;

/** {@code find}: its exit code agrees with what it reports, damage and inconsistencies met on the way included. */
class FindCommandTest {
    private static final Path HEALTHY = Path.of("..", "samples", "gallery", "healthy").toAbsolutePath().normalize();
    private static final String PARTITION = "streams/1/topics/1/partitions/1";

    @TempDir
    Path root;

    /** A copy of the gallery's healthy sample (offsets 0..4 in one segment, 3 index entries), its partition. */
    private Path healthyCopy(String name) throws IOException {
        Path copy = root.resolve(name);
        Partitions.copyTree(HEALTHY, copy);
        return copy.resolve(PARTITION);
    }

    private static void setPosition(Path index, int entry, long position) throws IOException {
        byte[] v = new byte[8];
        LittleEndian.putU64(v, 0, position);
        Partitions.write(index, (long) entry * IndexEntry.LENGTH + IndexEntry.POSITION_OFFSET, v);
    }

    /**
     * Index entry 1's position set to 10^12: find still answers (it walks from byte 0, as the server's readers do
     * when the entry does not match), but it reports the inconsistency, so it exits 1 as {@code index} does on the
     * same file. It exited 0 while printing the mismatch.
     */
    @Test
    void anIndexEntryThatDoesNotMatchItsBatch_isReportedAndExits1() throws IOException {
        Path p = healthyCopy("entry-mismatch");
        Path index = p.resolve("00000000000000000000.index");
        setPosition(index, 1, 1_000_000_000_000L);
        Path log = p.resolve("00000000000000000000.log");

        Cli.Result r = Cli.run("find", "--offset", "3", p);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        assertEquals("offset 3 -> segment 00000000000000000000\n"
                + "  index entry 1 does not match its batch (position 1000000000000 leaves no room for a header in a "
                + "log of 1145 bytes); walked from byte 0\n"
                + "  batch at byte 315: offsets 1..3, 3 message(s), 467 bytes, 2023-11-14T22:13:20.000123Z, "
                + "verifies\n"
                + "  walked 2 batch header(s) from byte 0\n"
                + "  message 2 of the batch: frame at byte 702, id 3, payload 5 bytes\n"
                + "  show it: segtool messages " + log + " --offset 3 --limit 1\n", r.out());
        assertEquals("", r.err(), r.toString());
        assertEquals(ExitCode.CHANGES, Cli.run("index", index).exit(), "index says the same of the file");

        Cli.Result json = Cli.run("find", "--offset", "3", "--json", p);
        assertEquals(ExitCode.CHANGES, json.exit(), json.toString());
        assertTrue(json.out().contains("\"found\" : true"), json.out());
        assertTrue(json.out().endsWith("\"problem\" : null,\n  \"exit_code\" : 1\n}\n"), json.out());

        // by timestamp the walk starts from the same entry
        Cli.Result ts = Cli.run("find", "--timestamp", "1700000000000200", p);
        assertEquals(ExitCode.CHANGES, ts.exit(), ts.toString());
        assertTrue(ts.out().contains("  index entry 1 does not match its batch (position 1000000000000 leaves no "
                + "room for a header in a log of 1145 bytes); walked from byte 0\n"), ts.out());
        assertTrue(ts.out().contains("  batch at byte 782: offsets 4..4, 1 message(s), 363 bytes, "), ts.out());

        // the index's other entries still match: offsets found through them are clean
        assertEquals(ExitCode.CLEAN, Cli.run("find", "--offset", "0", p).exit());
        assertEquals(ExitCode.CLEAN, Cli.run("find", "--offset", "4", p).exit());
    }

    /** A target below the first index entry's is not an inconsistency: the walk from byte 0 is the normal one. */
    @Test
    void noEntryAtOrBelowTheTarget_isOnlyANote() throws IOException {
        Path p = healthyCopy("no-entry");
        Cli.Result r = Cli.run("find", "--timestamp", "0", p);
        assertEquals(ExitCode.CLEAN, r.exit(), r.toString());
        assertTrue(r.out().contains("  no index entry at or below the target; walked from byte 0\n"), r.out());
    }

    /**
     * A timestamp in the second segment, with the first segment's last batch torn: the walk through the first
     * segment stops at the damage, which find reports in its note, so it exits 1 (it exited 0).
     */
    @Test
    void aWalkStoppedByDamageInAnEarlierSegment_exits1() throws IOException {
        Partitions p = Partitions.healthy(root, "earlier-damage");
        PartitionWriter.SegmentLayout first = p.segment(0);
        PartitionWriter.BatchInfo last = first.batch(first.batches().size() - 1);
        Partitions.truncate(first.log(), last.position() + 100);
        long ts = p.segment(1).batch(1).baseTimestamp();

        Cli.Result r = Cli.run("find", "--timestamp", ts, p.dir);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        // (the cut also leaves the last index entry past the log's end: that mismatch is reported first)
        assertTrue(r.out().contains("segment 0: walk stopped at byte " + last.position() + ": "), r.out());
        assertTrue(r.out().contains("  batch at byte " + p.segment(1).batch(1).position() + ": "), r.out());
        assertEquals(ExitCode.CLEAN, Cli.run("find", "--timestamp", ts, Partitions.healthy(root, "clean").dir).exit());
    }

    /**
     * A timestamp in the second segment, with an index entry of the first that does not match its batch: the seek in
     * the first segment walks from byte 0 past it, and the mismatch met on the way is still reported (exit 1); it was
     * dropped once the walk went on to the next segment, and find exited 0.
     */
    @Test
    void aMismatchInAnEarlierSegmentWalkedPast_isReported() throws IOException {
        Partitions p = Partitions.healthy(root, "earlier-mismatch");
        Path index = p.segment(0).index();
        int last = (int) (java.nio.file.Files.size(index) / IndexEntry.LENGTH) - 1;   // the entry the seek starts from
        setPosition(index, last, 1_000_000_000_000L);
        long ts = p.segment(1).batch(1).baseTimestamp();
        Cli.Result r = Cli.run("find", "--timestamp", ts, p.dir);
        assertEquals(ExitCode.CHANGES, r.exit(), r.toString());
        assertTrue(r.out().contains("  segment 0: index entry " + last + " does not match its batch"), r.out());
        assertTrue(r.out().contains("  batch at byte " + p.segment(1).batch(1).position() + ": "), r.out());
    }

    /**
     * An offset past the end is a usage error: one line on stderr, saying the offset once (it said "offset 99: offset
     * 99 is past the end ..."), and with --json no document (docs/json.md; it printed one with "exit_code": 64).
     * The text answer still says where the search went.
     */
    @Test
    void pastTheEnd_oneLineOnStderr_noJsonDocument() {
        Path p = HEALTHY.resolve(PARTITION);
        String line = "segtool: offset 99 is past the end of segment 0 (its log ends at byte 1145)\n";
        Cli.Result json = Cli.run("find", "--json", "--offset", "99", p);
        assertEquals(ExitCode.USAGE, json.exit(), json.toString());
        assertEquals("", json.out(), json.toString());
        assertEquals(line, json.err(), json.toString());

        Cli.Result text = Cli.run("find", "--offset", "99", p);
        assertEquals(ExitCode.USAGE, text.exit(), text.toString());
        assertEquals(line, text.err(), text.toString());
        assertEquals("offset 99 -> segment 00000000000000000000\n"
                + "  index entry 2: offset 4, 2023-11-14T22:13:20.000456Z, position 782\n"
                + "  offset 99 is past the end of segment 0 (its log ends at byte 1145)\n", text.out());

        Cli.Result late = Cli.run("find", "--json", "--timestamp", "2030-01-01T00:00:00Z", p);
        assertEquals(ExitCode.USAGE, late.exit(), late.toString());
        assertEquals("", late.out(), late.toString());
        assertEquals("segtool: timestamp 2030-01-01T00:00:00.000000Z (1893456000000000): no batch at or after it\n",
                late.err(), late.toString());

        Cli.Result found = Cli.run("find", "--json", "--offset", "4", p);
        assertEquals(ExitCode.CLEAN, found.exit(), found.toString());
        assertTrue(found.out().endsWith("\"exit_code\" : 0\n}\n"), found.out());
    }
}
