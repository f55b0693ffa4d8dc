package segtool.analyzers.salvage;

/** Where a salvaged batch was found. */
public enum Location {
    /** In a live segment, reached by the unbroken byte-0 walk: verifying, this partition's id, offsets continuing. */
    CHAIN,
    /** In a live segment, after the chain broke (damage, a verified gap, a foreign record) and found by the search. */
    PAST_DAMAGE,
    /** In a {@code <partition>.fenced.<n>/} directory the server moved a recovered-empty segment into. */
    FENCED,
    /** In a byte range a segtool repair copied into a {@code <partition>.segtool-quarantine.<time>/} directory. */
    QUARANTINE;

    public String json() {
        return name().toLowerCase();
    }
}
