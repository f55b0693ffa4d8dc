package segtool.analyzers.recovery;

import segtool.formats.io.U64;

/**
 * The shared work budget of RECOVERY.md 2.4: one per partition load, cumulative across segments. Only the damage
 * probe and the durable anchor search grow or charge it; a failing charge stays counted.
 */
public final class Budget {
    public static final int UNITS_PER_RESIDUE_BYTE = 2;
    public static final int VERIFY_BYTES_PER_RESIDUE_BYTE = 4;

    private long limitUnits;
    private long spentUnits;
    private long limitVerify;
    private long spentVerify;

    public void grow(long residue) {
        limitUnits = U64.addSat(limitUnits, U64.mulSat(residue, UNITS_PER_RESIDUE_BYTE));
        limitVerify = U64.addSat(limitVerify, U64.mulSat(residue, VERIFY_BYTES_PER_RESIDUE_BYTE));
    }

    public boolean chargeCandidate() {
        spentUnits = U64.addSat(spentUnits, 1);
        return U64.le(spentUnits, limitUnits);
    }

    /**
     * {@code count} calls of {@link #chargeCandidate()} at once, stopping at the first that fails. Returns how many
     * were charged (the failing one included); all succeeded iff that equals {@code count} and
     * {@code spentUnits() <= limitUnits()}.
     */
    public long chargeCandidates(long count) {
        long room = U64.le(spentUnits, limitUnits) ? limitUnits - spentUnits : 0;
        if (U64.le(count, room)) {
            spentUnits += count;
            return count;
        }
        long charged = room + 1;
        spentUnits = U64.addSat(spentUnits, charged);
        return charged;
    }

    public boolean chargeVerify(long bytes) {
        spentVerify = U64.addSat(spentVerify, bytes);
        return U64.le(spentVerify, limitVerify);
    }

    public long limitUnits() {
        return limitUnits;
    }

    public long spentUnits() {
        return spentUnits;
    }

    public long limitVerify() {
        return limitVerify;
    }

    public long spentVerify() {
        return spentVerify;
    }

    /**
     * UnverifiedResidue(dmg) of RECOVERY 2.4, built when a charge of {@code budget} fails in segment {@code start}
     * of log length {@code len}: all four counters at their current cumulative values.
     */
    static Refusal unverifiedResidue(Budget budget, long start, long dmg, long len) {
        return new Refusal.UnverifiedResidue(start, dmg, U64.subSat(len, dmg), budget.spentUnits(),
                budget.limitUnits(), budget.spentVerify(), budget.limitVerify());
    }

    /** The four counters as they stand now (RECOVERY 2.4). */
    public record Counters(long limitUnits, long spentUnits, long limitVerify, long spentVerify) {
    }

    public Counters counters() {
        return new Counters(limitUnits, spentUnits, limitVerify, spentVerify);
    }

    public Budget copy() {
        Budget b = new Budget();
        b.limitUnits = limitUnits;
        b.spentUnits = spentUnits;
        b.limitVerify = limitVerify;
        b.spentVerify = spentVerify;
        return b;
    }
}
