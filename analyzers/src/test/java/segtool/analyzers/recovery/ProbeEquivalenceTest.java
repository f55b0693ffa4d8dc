package segtool.analyzers.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import segtool.formats.io.Bytes;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;

/**
 * The engine's damage probe (which rejects zero runs in bulk and walks its window directly) against a literal
 * transcription of RECOVERY.md 4.7 over the same bytes: the same survivor, the same refusal fields, the same
 * number of candidates, over random residues mixing zero runs, noise, plausible headers and real records, read
 * through small windows so runs and headers straddle window boundaries.
 */
class ProbeEquivalenceTest {
    @TempDir
    Path root;

    private static final long TS = 1_700_000_000_000_000L;

    private static byte[] record(long base, int messages, int payload, Random r) {
        List<Message> m = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            byte[] p = new byte[payload];
            r.nextBytes(p);
            m.add(Message.of(base + i + 1, p));
        }
        return RecordEncoder.encode(1, base, TS + base, TS, m);
    }

    private static byte[] residue(Random r) {
        List<byte[]> parts = new ArrayList<>();
        int pieces = 1 + r.nextInt(8);
        for (int k = 0; k < pieces; k++) {
            switch (r.nextInt(5)) {
                case 0:
                    parts.add(new byte[r.nextInt(3000)]);
                    break;
                case 1: {
                    byte[] noise = new byte[r.nextInt(600)];
                    r.nextBytes(noise);
                    parts.add(noise);
                    break;
                }
                case 2: {
                    byte[] h = new byte[256];
                    LittleEndian.putU64(h, 8, r.nextInt(20));
                    LittleEndian.putU64(h, 32, 256 + r.nextInt(4000));
                    LittleEndian.putU32(h, 48, r.nextInt(3));
                    parts.add(h);
                    break;
                }
                case 3:
                    parts.add(record(2 + r.nextInt(10), 1 + r.nextInt(2), r.nextInt(200), r));
                    break;
                default: {
                    byte[] rec = record(5 + r.nextInt(5), 1, 50 + r.nextInt(100), r);
                    rec[rec.length - 1] ^= 1;
                    parts.add(rec);
                }
            }
        }
        return Bytes.concat(parts.toArray(new byte[0][]));
    }

    /** RECOVERY 4.7 with a fresh budget, transcribed literally: the expected refusal, or null for a torn tail. */
    private static Refusal reference(byte[] log, long s, long dmg, boolean hasChainEnd, long chainEnd,
                                     long[] candidatesOut) throws IOException {
        long len = log.length;
        Budget budget = new Budget();
        budget.grow(len - dmg);
        ByteBuffer b = ByteBuffer.wrap(log);
        long maxb = RecoveryEngine.MAX_MESSAGE_SIZE_UPPER_BYTES + 256;
        long candidates = 0;
        try (RecordVerifier verifier = new RecordVerifier()) {
            for (long c = dmg + 1; c + 256 <= len; c++) {
                candidates++;
                candidatesOut[0] = candidates;
                if (!budget.chargeCandidate()) {
                    return ur(s, dmg, len, budget);
                }
                if (!BatchHeader.decodes(b, (int) c)) {
                    continue;
                }
                BatchHeader h = BatchHeader.read(b, (int) c);
                boolean advances = hasChainEnd ? U64.gt(h.baseOffset(), chainEnd) : U64.ge(h.baseOffset(), s);
                boolean fits = U64.le(h.batchLength(), maxb) && U64.le(U64.addSat(c, h.batchLength()), len);
                if (advances && fits && h.messageCount() > 0) {
                    if (!budget.chargeVerify(h.batchLength())) {
                        return ur(s, dmg, len, budget);
                    }
                    if (verifier.verify(b, (int) c, h.batchLength(), c) == null) {
                        return new Refusal.InteriorDamage(s, dmg, c);
                    }
                }
            }
        }
        return null;
    }

    private static Refusal ur(long s, long dmg, long len, Budget b) {
        return new Refusal.UnverifiedResidue(s, dmg, len - dmg, b.spentUnits(), b.limitUnits(), b.spentVerify(),
                b.limitVerify());
    }

    @ParameterizedTest(name = "window {0}")
    @ValueSource(ints = {300, 1024, 4 << 20})
    void engineProbe_equalsLiteralTranscription(int window) throws IOException {
        for (long seed = 1; seed <= 150; seed++) {
            Random r = new Random(seed * 31 + window);
            byte[] head = record(0, 2, 20, r);
            byte[] log = Bytes.concat(head, residue(r));
            // the byte-0 walk accepts A (offsets 0..1) and stops at the residue unless the residue continues the
            // chain exactly; start the residue with a byte that cannot do that
            log[head.length + 8] = (byte) 0xEE;
            Fixture f = new Fixture(root.resolve("s" + seed + "w" + window), 1).log(0, log);
            PartitionReport got = new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)
                    .withWindow(window)).judge(f.partition, false);
            long[] candidates = new long[1];
            Refusal want = reference(log, 0, head.length, true, 1, candidates);
            String where = "seed " + seed + ", window " + window + ", log " + log.length;
            if (want == null) {
                assertEquals(PartitionReport.Outcome.ACCEPTED, got.outcome(), where + ": " + got.refusal());
                assertEquals(head.length, got.segments().get(0).size(), where);
            } else {
                assertEquals(PartitionReport.Outcome.REFUSED, got.outcome(), where);
                assertEquals(want, got.refusal(), where);
            }
            ProbeResult p = got.segments().get(0).probes().get(0);
            assertEquals(candidates[0], p.candidates(), where);
        }
    }
}
