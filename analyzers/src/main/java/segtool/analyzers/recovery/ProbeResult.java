package segtool.analyzers.recovery;

/**
 * One run of the damage probe (RECOVERY.md 4.7) over {@code [damagePosition, L)}: the candidates it examined, the
 * records it tried to verify, and the survivor if one was found ({@code -1} otherwise). {@code exhausted} is set
 * when a budget charge failed.
 */
public record ProbeResult(long damagePosition, long residue, long candidates, long verifications,
                          long verifiedBytes, long survivor, boolean exhausted) {
    public boolean hasSurvivor() {
        return survivor >= 0;
    }
}
