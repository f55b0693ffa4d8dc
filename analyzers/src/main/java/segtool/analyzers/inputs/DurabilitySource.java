package segtool.analyzers.inputs;

/** Where a partition's durable-mode flag {@code D} came from (issue 11, METADATA 3.4). */
public enum DurabilitySource {
    /** The topic's stored {@code durability} option in {@code metadata/snapshot.bin}. */
    SNAPSHOT("snapshot"),
    /** The option as created or updated by a committed entry of {@code metadata/journal.wal} after the snapshot. */
    JOURNAL("journal"),
    /** The topic's stored map has no {@code durability} key (a topic from before #4092): D is false. */
    NO_DURABILITY_KEY("no durability key"),
    /** {@code --durability} (or no metadata to read it from). */
    COMMAND_LINE("command line");

    private final String json;

    DurabilitySource(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
