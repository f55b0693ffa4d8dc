package segtool.analyzers.salvage;

import java.io.IOException;
import java.nio.ByteBuffer;
import segtool.analyzers.recovery.ChainVerifier;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.SegmentChannel;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.Defect;
import segtool.formats.log.RecordVerifier;

/**
 * One forward pass over the bytes of a log that finds every batch record that verifies, damage or not.
 *
 * <p>From byte 0 it walks as R() does (RECOVERY 4.6): a record that frames ({@code HeaderAt}) and verifies (F 2.5) is
 * taken and the walk moves on by its {@code batch_length}. Where a record does not, the bytes from there on are
 * searched for the next survivor by the candidate rules of the damage probe (RECOVERY 4.7): candidates one byte
 * apart from {@code damage + 1} while {@code c + 256 <= L}; a candidate is verified only when its header decodes,
 * {@code batch_length <= MAXB}, the record fits, it holds a message and its {@code base_offset} advances past the
 * last record found (or is at least {@code S} before any). The first candidate that verifies is taken and the walk
 * resumes at its end, so the search never restarts and no record is verified twice.
 *
 * <p>Unlike the probe it has no budget that refuses. Its work is still linear in the bytes: rejecting a candidate
 * reads its header in the window and costs O(1) (the reserved-byte check only for headers that pass every other
 * rule); verifying one costs at most its claimed length, and verifications that fail are charged to an allowance of
 * {@link #FAILED_VERIFY_BYTES_PER_BYTE} bytes per byte of the log. Honest damage never comes near it (a failing
 * verification needs a plausible header: a decodable, fitting, advancing record claim). Residue crafted with
 * overlapping plausible claims can exhaust it; the scan then says so, and the bytes from the candidate it stopped at
 * to the end are reported {@code unexamined}, never as lost or clean.
 *
 * <p>The walk's records are verified through the engine's {@link ChainVerifier}, ahead of the walk on every core
 * (the same answers as one check after another); the search's candidates on the calling thread. Memory is the
 * channel's window plus the verifier's ring (about 2 x threads windows).
 */
final class LogScan {
    /** Bytes that failing verifications may read, per byte of the log (the engine's probe allows 4, and refuses). */
    static final long FAILED_VERIFY_BYTES_PER_BYTE = 64;

    /** What a scan reports, in log order. Positions are positions in the channel. */
    interface Sink {
        /**
         * A record at {@code position}: {@code verified} true for a record that verifies (then {@code chain} says
         * whether it continues the unbroken byte-0 chain), false for a record that frames where one was expected
         * but does not verify ({@code defect} says why; reported only when asked for).
         */
        void batch(long position, BatchHeader header, boolean verified, boolean chain, Defect defect)
                throws IOException;

        /** Bytes {@code [from, to)} that no verifying record covers; {@code why} is the first problem at {@code from}. */
        void lost(long from, long to, String why) throws IOException;

        /** Bytes {@code [from, to)} the scan did not examine because the allowance ran out. */
        void unexamined(long from, long to, String why) throws IOException;
    }

    /** What one scan did, for the summary: records found, verification work. */
    record Stats(long verified, long unverified, long damageRegions, long candidates, long verifications,
                 long verifiedBytes, long failedVerifyBytes, boolean exhausted) {
    }

    private final SegmentChannel log;
    private final long start;
    private final Long partitionId;
    private final long maxBatchBytes;
    private final RecordVerifier verifier;
    private final long length;
    private final long allowance;
    private long spentOnFailures;
    private long candidates;
    private long verifications;
    private long verifiedBytes;

    /**
     * @param log            the bytes
     * @param start          the start offset {@code S} of the segment the bytes belong to
     * @param partitionId    the partition's id: the chain holds only records carrying it; null when unknown (any id).
     *                       Ids are u64: 2^63 and above are negative in a long and still known
     * @param maxBatchBytes  {@code MAXB}
     * @param verifier       the caller's verifier (one per thread)
     */
    LogScan(SegmentChannel log, long start, Long partitionId, long maxBatchBytes, RecordVerifier verifier) {
        this.log = log;
        this.start = start;
        this.partitionId = partitionId;
        this.maxBatchBytes = maxBatchBytes;
        this.verifier = verifier;
        this.length = log.size();
        this.allowance = U64.mulSat(length, (int) FAILED_VERIFY_BYTES_PER_BYTE);
    }

    /**
     * Scans the whole log. {@code chainEligible} false (a quarantined byte range, not a whole segment) reports no
     * record as part of the chain. {@code reportUnverified} reports the records that frame at a damage position.
     */
    Stats run(boolean chainEligible, boolean reportUnverified, Sink sink) throws IOException {
        try (ChainVerifier walk = ChainVerifier.open(log, maxBatchBytes)) {
            return run(chainEligible, reportUnverified, sink, walk);
        }
    }

    private Stats run(boolean chainEligible, boolean reportUnverified, Sink sink, ChainVerifier walk)
            throws IOException {
        long pos = 0;
        boolean chain = chainEligible;
        long expected = start;
        boolean found = false;
        long lastEnd = 0;
        long verified = 0;
        long unverified = 0;
        long regions = 0;
        BatchHeader known = null;   // a survivor the search already verified, at pos
        while (U64.lt(pos, length)) {
            Salvager.checkCancelled();
            BatchHeader h = known;
            Defect defect = null;
            if (h == null) {
                h = frameAt(pos);
                if (h != null) {
                    if (!charge(h.batchLength())) {
                        sink.unexamined(pos, length, allowanceText(pos));
                        return stats(verified, unverified, regions, true);
                    }
                    defect = walk.verify(pos, h.batchLength());
                    verifications++;
                    if (defect == null) {
                        refund(h.batchLength());
                    }
                }
            }
            known = null;
            if (h != null && defect == null) {
                boolean inChain = chain && (partitionId == null || h.partitionId() == partitionId)
                        && h.baseOffset() == expected;
                chain = inChain;
                sink.batch(pos, h, true, inChain, null);
                verified++;
                verifiedBytes = U64.addSat(verifiedBytes, h.batchLength());
                if (h.messageCount() > 0) {
                    lastEnd = h.endOffset();
                    found = true;
                }
                expected = h.nextOffset();
                pos = U64.addSat(pos, h.batchLength());
                continue;
            }
            // damage at pos: nothing that verifies starts here
            chain = false;
            regions++;
            String why = h == null ? whyNoRecord(pos) : defect.describe();
            if (h != null && reportUnverified) {
                sink.batch(pos, h, false, false, defect);
                unverified++;
            }
            Survivor s = search(pos, found, lastEnd);
            if (s.exhaustedAt >= 0) {
                if (s.exhaustedAt > pos) {
                    sink.lost(pos, s.exhaustedAt, why);
                }
                sink.unexamined(s.exhaustedAt, length, allowanceText(s.exhaustedAt));
                return stats(verified, unverified, regions, true);
            }
            if (s.position < 0) {
                sink.lost(pos, length, why);
                break;
            }
            sink.lost(pos, s.position, why);
            pos = s.position;
            known = s.header;
        }
        return stats(verified, unverified, regions, false);
    }

    private Stats stats(long verified, long unverified, long regions, boolean exhausted) {
        return new Stats(verified, unverified, regions, candidates, verifications, verifiedBytes, spentOnFailures,
                exhausted);
    }

    private String allowanceText(long at) {
        return "verification allowance of " + FAILED_VERIFY_BYTES_PER_BYTE + " bytes per log byte used up at "
                + U64.str(at) + " (residue packed with overlapping record claims)";
    }

    private boolean charge(long bytes) {
        long next = U64.addSat(spentOnFailures, bytes);
        if (U64.gt(next, allowance)) {
            return false;
        }
        spentOnFailures = next;
        return true;
    }

    private void refund(long bytes) {
        spentOnFailures -= bytes;
    }

    /** HeaderAt(p) of RECOVERY 2.3 with the record inside the log: the header, or null. */
    private BatchHeader frameAt(long pos) throws IOException {
        if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), length)) {
            return null;
        }
        int i = log.at(pos, BatchHeader.LENGTH);
        ByteBuffer b = log.buffer();
        if (!BatchHeader.decodes(b, i)) {
            return null;
        }
        BatchHeader h = BatchHeader.read(b, i);
        if (U64.gt(h.batchLength(), maxBatchBytes) || U64.gt(h.batchLength(), length - pos)) {
            return null;
        }
        return h;
    }

    private String whyNoRecord(long pos) throws IOException {
        if (U64.gt(U64.addSat(pos, BatchHeader.LENGTH), length)) {
            return "only " + (length - pos) + " bytes left at " + U64.str(pos) + ", too few for a header";
        }
        int i = log.at(pos, BatchHeader.LENGTH);
        Defect d = BatchHeader.check(log.buffer(), i, pos);
        if (d != null) {
            return d.describe();
        }
        BatchHeader h = BatchHeader.read(log.buffer(), i);
        if (U64.gt(h.batchLength(), maxBatchBytes)) {
            return "batch_length " + U64.str(h.batchLength()) + " at " + U64.str(pos)
                    + " exceeds MAX_RECOVERABLE_BATCH_BYTES";
        }
        return "the record at " + U64.str(pos) + " claims " + U64.str(h.batchLength()) + " bytes but only "
                + (length - pos) + " are left";
    }

    private record Survivor(long position, BatchHeader header, long exhaustedAt) {
    }

    /**
     * The lowest candidate after {@code dmg} that verifies, by the probe's rules (RECOVERY 4.7 step 3 without the
     * budget): position -1 when there is none; {@code exhaustedAt} set when the allowance ran out there.
     */
    private Survivor search(long dmg, boolean found, long lastEnd) throws IOException {
        long last = length - BatchHeader.LENGTH;
        if (length < BatchHeader.LENGTH) {
            return new Survivor(-1, null, -1);
        }
        long c = dmg + 1;
        while (c <= last) {
            int i = log.at(c, BatchHeader.LENGTH);
            ByteBuffer b = log.buffer();
            long stop = Math.min(last, log.windowEnd() - BatchHeader.LENGTH);
            long tried = -1;
            for (; c <= stop; c++, i++) {
                // runs of candidates that surely do not decode are passed at once (a zero-filled stretch in one
                // word scan, noise about 200 at a time); they count as candidates all the same
                long run = BatchHeader.undecodableRun(b, i, stop - c + 1);
                long before = candidates;
                candidates += Math.max(1, run);
                if ((before >>> 20) != (candidates >>> 20)) {
                    Salvager.checkCancelled();
                }
                if (run > 0) {
                    c += run - 1;
                    i += (int) run - 1;
                    continue;
                }
                // the header decodes (batch_length at least 256, reserved bytes zero)
                long len = LittleEndian.u64(b, i + BatchHeader.BATCH_LENGTH_OFFSET);
                if (U64.gt(len, maxBatchBytes) || U64.gt(len, length - c)) {
                    continue;
                }
                if (LittleEndian.u32(b, i + BatchHeader.MESSAGE_COUNT_OFFSET) == 0) {
                    continue;
                }
                long base = LittleEndian.u64(b, i + BatchHeader.BASE_OFFSET_OFFSET);
                if (found ? !U64.gt(base, lastEnd) : U64.lt(base, start)) {
                    continue;
                }
                BatchHeader h = BatchHeader.read(b, i);
                if (!charge(len)) {
                    return new Survivor(-1, null, c);
                }
                verifications++;
                if (verifier.verify(log, c, len) == null) {
                    refund(len);
                    return new Survivor(c, h, -1);
                }
                tried = c;
                break;   // the verification moved the window
            }
            if (tried >= 0) {
                c = tried + 1;
            }
        }
        return new Survivor(-1, null, -1);
    }
}
