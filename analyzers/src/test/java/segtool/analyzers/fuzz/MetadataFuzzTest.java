package segtool.analyzers.fuzz;

import static segtool.formats.fuzz.Fuzz.allocated;
import static segtool.formats.fuzz.Fuzz.check;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.fuzz.Fuzz;
import segtool.formats.metadata.Frontier;
import segtool.formats.metadata.JournalBodies;
import segtool.formats.metadata.JournalEntry;
import segtool.formats.metadata.JournalReader;
import segtool.formats.metadata.MetadataFormatException;
import segtool.formats.metadata.Snapshot;
import segtool.formats.metadata.SnapshotReader;
import segtool.formats.metadata.Superblock;

/**
 * formats' METADATA readers on any bytes: the snapshot, the journal and its bodies, the superblock pair and the
 * WAL frontier. Each input either decodes or fails with the readers' documented type
 * ({@link MetadataFormatException}, {@link JournalBodies.Malformed} for a body), never another exception; what they
 * report lies inside the file; heap use follows the bytes present, not a length read from them. The seeds are the
 * samples' metadata writers' files (MetadataSeedCorpus).
 */
class MetadataFuzzTest {

    private static boolean warm;
    /** Inputs are read as the content of these files, by the readers the CLI reads the files with. */
    private static final Path JOURNAL = Path.of("metadata", "journal.wal");
    private static final Path FRONTIER = Path.of("prepares-1", Frontier.FILE);

    /** Class loading and the decoders' first calls are not an input's: every target once on every seed first. */
    private void warmUp() {
        if (warm) {
            return;
        }
        warm = true;
        java.util.Map<String, byte[][]> seeds = MetadataSeedCorpus.seeds();
        Fuzz.warmUp(() -> {
            for (byte[] s : seeds.get("snapshot")) {
                snapshotOf(s);
                snapshotOf(damaged(s));   // the refusals format their messages: Formatter loads its locale data
            }
            for (byte[] s : seeds.get("journal")) {
                journalOf(s);
                journalOf(damaged(s));
            }
            for (byte[] s : seeds.get("journalBodies")) {
                bodies(s);
            }
        });
    }

    /** {@code s} with its last byte flipped. */
    private static byte[] damaged(byte[] s) {
        byte[] d = s.clone();
        if (d.length > 0) {
            d[d.length - 1] ^= 1;
        }
        return d;
    }

    /** Heap per input: the file itself a few times over and the decoded values, never a declared size. */
    private static long budget(byte[] data) {
        return (1L << 20) + 64L * data.length;
    }

    @FuzzTest(maxDuration = "12h")
    void snapshot(byte[] data) throws IOException {
        warmUp();
        snapshotOf(data);
    }

    private static void snapshotOf(byte[] data) throws IOException {
        Path file = Path.of("metadata", "snapshot");
        long before = allocated();
        try {
            Snapshot s = SnapshotReader.decode(file, data);
            check(s != null, "no snapshot and no refusal");
        } catch (MetadataFormatException refused) {
            checkRefusal(refused, data.length);
        }
        check(allocated() - before <= budget(data), "snapshot decode allocated past its budget");
    }

    @FuzzTest(maxDuration = "12h")
    void journal(byte[] data) throws IOException {
        warmUp();
        journalOf(data);
    }

    private static void journalOf(byte[] data) throws IOException {
        long before = allocated();
        try (JournalReader r = JournalReader.of(JOURNAL, data)) {
            JournalReader.Scan scan = r.scan();
            long next = 0;
            for (JournalEntry e : scan.entries()) {
                long after = next;
                check(e.position() == next && e.size() >= JournalEntry.HEADER_LENGTH, () -> "entry " + e + " after "
                        + after);
                next += e.size();
                byte[] body = r.body(e);
                check(body.length == e.size() - JournalEntry.HEADER_LENGTH, "body length");
                bodies(body);
            }
            long end = next;
            check(scan.endPosition() == end && end <= data.length, () -> "scan ends at " + scan.endPosition()
                    + " after entries ending at " + end + " of " + data.length);
            check((scan.end() == JournalReader.End.CLEAN) == (end == data.length)
                    && (scan.reason() == null) == (scan.end() == JournalReader.End.CLEAN), () -> "end " + scan.end()
                    + " at " + end + " of " + data.length + ": " + scan.reason());
        } catch (MetadataFormatException refused) {
            checkRefusal(refused, data.length);
        }
        check(allocated() - before <= budget(data), "journal scan allocated past its budget");
    }

    /** Every body decoder on any body: a value or {@code Malformed}, with the byte inside the body. */
    @FuzzTest(maxDuration = "12h")
    void journalBodies(byte[] data) {
        warmUp();
        long before = allocated();
        bodies(data);
        check(allocated() - before <= budget(data) * 7, "body decoders allocated past their budget");
    }

    private static void bodies(byte[] body) {
        List<BodyDecoder> decoders = List.of(JournalBodies::createPartitions, JournalBodies::deletePartitions,
                JournalBodies::createTopic, JournalBodies::updateTopic, JournalBodies::createStream,
                JournalBodies::deleteStream, JournalBodies::topicRef);
        for (BodyDecoder d : decoders) {
            try {
                check(d.decode(body) != null, "no value and no Malformed");
            } catch (JournalBodies.Malformed m) {
                check(m.position >= 0 && m.position <= body.length && m.getMessage() != null, () -> "Malformed at "
                        + m.position + " of " + body.length);
            }
        }
    }

    @FunctionalInterface
    private interface BodyDecoder {
        Object decode(byte[] body) throws JournalBodies.Malformed;
    }

    /**
     * The input as slot a alone (no {@code superblock.b}), then as both slots, decoded as {@link Superblock#read}
     * decodes the files' bytes: the pair is judged, and a winner is a valid slot.
     */
    @FuzzTest(maxDuration = "12h")
    void superblock(byte[] data) {
        pair(Superblock.slot(Superblock.A, data), Superblock.slot(Superblock.B, null), data);
        pair(Superblock.slot(Superblock.A, data), Superblock.slot(Superblock.B, data), data);
    }

    private static void pair(Superblock.Slot a, Superblock.Slot b, byte[] data) {
        check(a.name().equals(Superblock.A) && b.name().equals(Superblock.B), "slot names");
        check(a.status() != Superblock.Slot.Status.VALID || a.payload() != null
                && a.payload().length == data.length - Superblock.HEADER_LENGTH - 8, () -> "slot " + a.reason());
        Superblock.Pair p = Superblock.pair(a, b);
        check(p.result() != null && p.a() == a && p.b() == b, () -> "pair " + p);
        if (p.result() == Superblock.Pair.Result.VALID) {
            check(p.state() != null && p.winner() != null, () -> "a valid pair without a winner: " + p);
        }
    }

    @FuzzTest(maxDuration = "12h")
    void frontier(byte[] data) throws IOException {
        try {
            Frontier.File f = Frontier.decode(FRONTIER, data);
            check((f == null) == (data.length == 0), () -> "frontier " + f + " from " + data.length + " bytes");
            if (f != null) {
                check(f.slots().size() == data.length / Frontier.SLOT, "slots");
                check(f.winner() == null || f.winner().verified() && f.slots().contains(f.winner()), "winner");
            }
        } catch (MetadataFormatException refused) {
            checkRefusal(refused, data.length);
        }
    }

    private static void checkRefusal(MetadataFormatException e, long length) {
        check(e.getMessage() != null && e.getMessage().indexOf('\n') < 0, "refusal is not one line: "
                + e.getMessage());
        check(e.position() >= -1 && e.position() <= Math.max(length, 0), () -> "refusal at " + e.position() + " of "
                + length);
    }

}
