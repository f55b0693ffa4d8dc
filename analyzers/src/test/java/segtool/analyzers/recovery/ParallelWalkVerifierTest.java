package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static segtool.formats.Vectors.TA;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;

/**
 * The ring of window slots answers exactly as a sequential check, in the walk's order: records of every size (many
 * per window, one straddling two windows, one larger than any window), damaged records, a chain that breaks, walks
 * that start again elsewhere, and the walk's header reads served from the ring's windows.
 */
class ParallelWalkVerifierTest {
    private static final long MAXB = BatchHeader.MAX_RECOVERABLE_BATCH_BYTES;

    @TempDir
    Path root;

    /** Records of random sizes: mostly small, some near a window, a few larger than the largest window tested. */
    private static List<byte[]> records(long seed, int count) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int messages = 1 + r.nextInt(6);
            List<Message> ms = new ArrayList<>();
            for (int m = 0; m < messages; m++) {
                int size = switch (r.nextInt(10)) {
                    case 0 -> 3_000 + r.nextInt(3_000);
                    case 1 -> 17;
                    case 2 -> r.nextInt(9) == 0 ? 20_000 : 900;
                    default -> r.nextInt(200);
                };
                byte[] payload = new byte[size];
                r.nextBytes(payload);
                ms.add(Message.of(i * 10L + m + 1, payload));
            }
            out.add(RecordEncoder.encode(1, i * 10L, TA + i, TA, ms));
        }
        return out;
    }

    private record Log(Path path, byte[] bytes, long[] starts, long[] lengths) {
    }

    private Log write(List<byte[]> records, String name) throws IOException {
        byte[] bytes = Fixture.concat(records.toArray(new byte[0][]));
        long[] starts = new long[records.size()];
        long[] lengths = new long[records.size()];
        long at = 0;
        for (int i = 0; i < records.size(); i++) {
            starts[i] = at;
            lengths[i] = records.get(i).length;
            at += lengths[i];
        }
        return new Log(Files.write(root.resolve(name), bytes), bytes, starts, lengths);
    }

    /** Walks every record in order through {@code v} as Walks does, header first; the answers in order. */
    private static List<Defect> walk(WalkVerifier v, Log log, int from) throws IOException {
        List<Defect> out = new ArrayList<>();
        v.startWalk(log.starts()[from]);
        for (int k = from; k < log.starts().length; k++) {
            long p = log.starts()[k];
            int i = v.walkHeader(p);
            ByteBuffer b = v.walkHeaderBuffer();
            if (i < 0) {
                SegmentChannel ch = v.walkHeaders();
                i = ch.at(p, BatchHeader.LENGTH);
                b = ch.buffer();
            }
            // the header the walk reads is the file's, whichever window serves it
            assertEquals(LittleEndian.u64(log.bytes(), (int) p + BatchHeader.BATCH_LENGTH_OFFSET),
                    LittleEndian.u64(b, i + BatchHeader.BATCH_LENGTH_OFFSET), "header at " + p);
            assertEquals(LittleEndian.u64(log.bytes(), (int) p + BatchHeader.BASE_OFFSET_OFFSET),
                    LittleEndian.u64(b, i + BatchHeader.BASE_OFFSET_OFFSET), "header at " + p);
            out.add(v.verify(p, log.lengths()[k]));
        }
        return out;
    }

    private static List<Defect> sequential(Log log, int from) throws IOException {
        try (SegmentChannel ch = SegmentChannel.open(log.path(), 4096, log.bytes().length);
             WalkVerifier seq = new WalkVerifier.Sequential(ch)) {
            return walk(seq, log, from);
        }
    }

    @ParameterizedTest(name = "threads={0} window={1} mapped={2}")
    @CsvSource({"1,4096,false", "2,4096,false", "3,4096,false", "2,1024,false", "4,65536,false", "2,300,false",
        "1,4096,true", "2,4096,true", "3,8192,true", "4,65536,true"})
    void answersEqualASequentialCheck_inWalkOrder(int threads, int window, boolean mapped) throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            List<byte[]> recs = records(seed, 120);
            // damage: a payload byte of record 7, the batch checksum of record 40, a frame's reserved bytes of 90
            recs.get(7)[BatchHeader.LENGTH + 60] ^= 1;
            recs.get(40)[BatchHeader.CHECKSUM_OFFSET] ^= 0x10;
            recs.get(90)[BatchHeader.LENGTH] = 1;
            Log log = write(recs, "s" + seed + ".log");
            List<Defect> want = sequential(log, 0);
            assertNotNull(want.get(7));
            assertNotNull(want.get(40));
            assertNotNull(want.get(90));
            assertNull(want.get(0));
            try (SegmentChannel ch = SegmentChannel.open(log.path(), window, log.bytes().length);
                 ParallelWalkVerifier par = new ParallelWalkVerifier(ch, threads, window, MAXB, mapped)) {
                assertEquals(want, walk(par, log, 0), "seed " + seed);
                // a second walk from the middle, then from the start again (W, then R): the ring starts over
                assertEquals(want.subList(55, want.size()), walk(par, log, 55));
                assertEquals(want, walk(par, log, 0));
            }
        }
    }

    @Test
    void aWalkThatStopsEarly_andRecordsAskedForOutOfChain_getSequentialAnswers() throws Exception {
        List<byte[]> recs = records(9, 60);
        Log log = write(recs, "stop.log");
        List<Defect> want = sequential(log, 0);
        try (SegmentChannel ch = SegmentChannel.open(log.path(), 4096, log.bytes().length);
             ParallelWalkVerifier par = new ParallelWalkVerifier(ch, 2, 4096, MAXB, false)) {
            par.startWalk(0);
            for (int k = 0; k < 10; k++) {
                assertEquals(want.get(k), par.verify(log.starts()[k], log.lengths()[k]));
            }
            // skipping ahead (the walk was told nothing): answered, and the ring follows from there
            assertEquals(want.get(30), par.verify(log.starts()[30], log.lengths()[30]));
            assertEquals(want.get(31), par.verify(log.starts()[31], log.lengths()[31]));
            // a length that is not the chain's: the sequential answer for that claim
            Defect odd = par.verify(log.starts()[32], log.lengths()[32] + log.lengths()[33]);
            try (SegmentChannel c2 = SegmentChannel.open(log.path(), 4096, log.bytes().length);
                 WalkVerifier seq = new WalkVerifier.Sequential(c2)) {
                assertEquals(seq.verify(log.starts()[32], log.lengths()[32] + log.lengths()[33]), odd);
            }
            assertEquals(want.get(33), par.verify(log.starts()[33], log.lengths()[33]));
        }
        // closed while answers were in flight: nothing hangs, and the windows went back whole (next use reads well)
        assertEquals(want, sequential(log, 0));
    }

    @Test
    void theChainEndsWhereAHeaderBreaks_andTheWalkReadsThatHeaderItself() throws Exception {
        List<byte[]> recs = records(11, 40);
        recs.get(25)[BatchHeader.LENGTH - 8] = 5;   // a reserved header byte: the header no longer decodes
        Log log = write(recs, "broken.log");
        try (SegmentChannel ch = SegmentChannel.open(log.path(), 4096, log.bytes().length);
             ParallelWalkVerifier par = new ParallelWalkVerifier(ch, 2, 4096, MAXB, false)) {
            par.startWalk(0);
            for (int k = 0; k < 25; k++) {
                assertTrue(par.walkHeader(log.starts()[k]) >= 0, "record " + k + " is in the ring");
                assertNull(par.verify(log.starts()[k], log.lengths()[k]));
            }
            assertEquals(-1, par.walkHeader(log.starts()[25]), "the ring stops before the broken header");
            // a verification asked for there anyway is a sequential one
            assertNotNull(par.verify(log.starts()[25], log.lengths()[25]));
        }
    }

    /** The sequential verifier through a mapped window that follows the walk answers as the one that reads. */
    @ParameterizedTest(name = "window={0}")
    @CsvSource({"4096", "8192", "65536", "300"})
    void aMappedSequentialWindow_answersAsAReadOne(int window) throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            List<byte[]> recs = records(seed, 120);
            recs.get(7)[BatchHeader.LENGTH + 60] ^= 1;
            recs.get(40)[BatchHeader.CHECKSUM_OFFSET] ^= 0x10;
            Log log = write(recs, "m" + seed + ".log");
            List<Defect> want = sequential(log, 0);
            assertNotNull(want.get(7));
            assertNotNull(want.get(40));
            try (SegmentChannel ch = SegmentChannel.open(log.path(), window, log.bytes().length);
                 WalkVerifier mapped = WalkVerifier.Sequential.mapped(ch, window)) {
                assertEquals(want, walk(mapped, log, 0), "seed " + seed);
                assertEquals(want.subList(55, want.size()), walk(mapped, log, 55));
                // records out of walk order, through the read window
                assertEquals(want.get(40), mapped.verifyAside(log.starts()[40], log.lengths()[40]));
                assertEquals(want.get(3), mapped.verifyAside(log.starts()[3], log.lengths()[3]));
                assertEquals(want, walk(mapped, log, 0));
            }
        }
    }

    /**
     * A file cut short under a mapped window (a concurrent truncate): the read of the window faults (SIGBUS). Met
     * by interpreted code, the JVM raises it at once as an InternalError, which the window's verification turns into
     * an I/O error naming the file and the window; met by compiled code, it is raised later in the thread (here at
     * the next native call), and counted, by the engine, which then judges again (MappedJudgeTest).
     */
    @Test
    void aFileCutUnderAMappedWindow_isAnIoErrorNamingIt_orALateFault() throws Exception {
        List<byte[]> recs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            recs.add(RecordEncoder.encode(1, i, TA + i, TA, List.of(Message.of(i + 1, new byte[700]))));
        }
        Log log = write(recs, "cut.log");
        try (SegmentChannel ch = SegmentChannel.open(log.path(), 16384, log.bytes().length);
             WalkVerifier mapped = WalkVerifier.Sequential.mapped(ch, 16384)) {
            mapped.startWalk(0);
            assertEquals(-1, mapped.walkHeader(0), "nothing is mapped before the first verification");
            assertNull(mapped.verify(0, log.lengths()[0]));
            assertTrue(mapped.walkHeader(log.starts()[1]) > 0, "the next header is in the mapped window");
            assertTrue(mapped.walkHeaderChannel().buffer() == mapped.walkHeaderBuffer(),
                    "a header fault is named by the mapped window's channel");
            try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(log.path(),
                    java.nio.file.StandardOpenOption.WRITE)) {
                f.truncate(0);
            }
            long before = SegmentChannel.mappedFaults();
            IOException now = null;
            boolean late = false;
            try {
                try {
                    mapped.verify(log.starts()[1], log.lengths()[1]);
                } catch (IOException e) {
                    now = e;
                }
                Thread.sleep(1);
            } catch (InternalError e) {
                late = true;   // met by compiled code: raised later, wherever the JVM delivers it
            }
            assertTrue(now != null || late, "the fault is raised, at the read or later");
            if (now != null) {
                assertTrue(now.getMessage().startsWith(log.path() + " @ 0: read failed: an I/O error on the mapped"
                        + " range [0, 16384)"), now.getMessage());
                assertTrue(SegmentChannel.mappedFaults() > before);
            }
            long beforeClose = SegmentChannel.mappedFaults();
            mapped.close();
            // closing a mapped window over a file now shorter than its view counts a fault whatever was delivered
            assertEquals(beforeClose + 1, SegmentChannel.mappedFaults());
        }
    }
}
