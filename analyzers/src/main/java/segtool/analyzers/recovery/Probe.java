package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;

/**
 * The damage probe Probe(dmg, chain_end) of RECOVERY 4.7: classifies the residue {@code [dmg, L)} a walk left as a
 * torn tail, or refuses with InteriorDamage (a survivor verifies) or UnverifiedResidue (a budget charge failed).
 * Every run is recorded as a {@link ProbeResult}, a refused one included.
 */
final class Probe {
    private final SegmentLog log;
    private final Budget budget;
    private final List<ProbeResult> findings;
    // the counts of the run in progress: candidates examined, verifications, bytes verified
    private long candidates;
    private long verifications;
    private long verified;

    /** A probe over {@code log} charging {@code budget}; each run's result is added to {@code findings}. */
    Probe(SegmentLog log, Budget budget, List<ProbeResult> findings) {
        this.log = log;
        this.budget = budget;
        this.findings = findings;
    }

    /** Probe(dmg, chain_end); {@code hasChainEnd} false stands for chain end "none". */
    void run(long dmg, boolean hasChainEnd, long chainEnd) throws IOException, Refusal.Raised {
        long len = log.length();
        if (U64.ge(dmg, len)) {
            return;
        }
        long residue = len - dmg;
        budget.grow(residue);
        // Candidates are examined one byte apart, in order, every one charged as the spec requires. The loop reads
        // the window directly and rejects in bulk the runs of candidates that surely do not decode
        // (BatchHeader.undecodableRun: a zero-filled stretch in one word scan, noise about 200 at a time),
        // charging every candidate of the run.
        SegmentChannel window = log.window();
        long lastCandidate = len - BatchHeader.LENGTH;
        long c = dmg + 1;
        candidates = 0;
        verifications = 0;
        verified = 0;
        while (c <= lastCandidate) {
            int i = window.at(c, BatchHeader.LENGTH);
            ByteBuffer b = window.buffer();
            long stop = Math.min(lastCandidate, window.windowEnd() - BatchHeader.LENGTH);
            boolean moved = false;
            while (c <= stop && !moved) {
                long run = BatchHeader.undecodableRun(b, i, stop - c + 1);
                if (run > 0) {
                    charge(dmg, residue, run);
                    c += run;
                    i += (int) run;
                    continue;
                }
                charge(dmg, residue, 1);
                // the reserved bytes are zero and batch_length is at least 256: the header decodes
                BatchHeader h = BatchHeader.read(b, i);
                moved = examine(dmg, residue, c, h, hasChainEnd, chainEnd);
                if (moved) {
                    verifications++;
                    verified = U64.addSat(verified, h.batchLength());
                }
                c++;
                i++;
            }
        }
        findings.add(new ProbeResult(dmg, residue, candidates, verifications, verified, -1, false));
    }

    /**
     * Charges {@code n} candidates at once (as {@code n} single charges, stopping at the first that fails) and counts
     * them; an exhausted budget records the run and refuses with UnverifiedResidue.
     */
    private void charge(long dmg, long residue, long n) throws Refusal.Raised {
        long before = candidates;
        long charged = budget.chargeCandidates(n);
        candidates += charged;
        if (charged != n || U64.gt(budget.spentUnits(), budget.limitUnits())) {
            findings.add(new ProbeResult(dmg, residue, candidates, verifications, verified, -1, true));
            throw new Refusal.Raised(unverifiedResidue(dmg));
        }
        if ((before >>> 16) != (candidates >>> 16)) {
            RecoveryEngine.checkCancelled();
        }
    }

    /**
     * Steps 3.3-3.4 of RECOVERY 4.7 for a candidate whose header decodes: charge and verify it when it advances the
     * chain, fits and holds messages. Returns true when it was verified (and failed), which moves the window; a
     * survivor or an exhausted budget refuses.
     */
    private boolean examine(long dmg, long residue, long c, BatchHeader h, boolean hasChainEnd, long chainEnd)
            throws IOException, Refusal.Raised {
        long s = log.start();
        long len = log.length();
        boolean advances = hasChainEnd ? U64.gt(h.baseOffset(), chainEnd) : U64.ge(h.baseOffset(), s);
        boolean fits = U64.le(h.batchLength(), log.maxBatchBytes()) && U64.le(U64.addSat(c, h.batchLength()), len);
        if (!(advances && fits && h.messageCount() > 0)) {
            return false;
        }
        long nowVerifications = verifications + 1;
        long nowVerified = U64.addSat(verified, h.batchLength());
        if (!budget.chargeVerify(h.batchLength())) {
            findings.add(new ProbeResult(dmg, residue, candidates, nowVerifications, nowVerified, -1, true));
            throw new Refusal.Raised(unverifiedResidue(dmg));
        }
        if (log.verifyAside(c, h.batchLength()) == null) {
            findings.add(new ProbeResult(dmg, residue, candidates, nowVerifications, nowVerified, c, false));
            throw new Refusal.Raised(new Refusal.InteriorDamage(s, dmg, c));
        }
        return true;
    }

    private Refusal unverifiedResidue(long dmg) {
        return Budget.unverifiedResidue(budget, log.start(), dmg, log.length());
    }
}
