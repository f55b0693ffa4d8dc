package segtool.analyzers.recovery;

/**
 * The step of RECOVERY 4.3 that decided a segment's result, or the path taken instead of the table. A refusal met
 * in A3 (the walk from the last entry) leaves no step.
 */
public enum DecisionStep {
    /** 4.1 step 3: no whole index entry; R() or empty. */
    NO_ENTRIES("no-entries"),
    /** The index scan found the index inconsistent: R(). */
    A2("A2"),
    /** W(last) accepted no non-empty record: the anchor search in durable mode, then R(). */
    A4("A4"),
    /** An entry does not describe its batch: R(). */
    A5("A5"),
    /** Lenient mode: W(first) over the whole log, KEEP or R(). */
    A6("A6"),
    /** Durable mode: probe after W(last), KEEP. */
    A7("A7"),
    /** The WAL-checkpoint segment of section 9. */
    CHECKPOINT("checkpoint"),
    /** R() alone, for rebuild-index. */
    REBUILD_ONLY("R()");

    private final String label;

    DecisionStep(String label) {
        this.label = label;
    }

    /** The name used in JSON ({@code evidence.step}) and text: {@code A2}, {@code no-entries}, {@code R()}. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
