package segtool.analyzers.inputs;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import segtool.formats.metadata.HeaderKinds;
import segtool.formats.metadata.TopicOption;

/**
 * A topic as metadata recovery leaves it: its slab key, name, stored option map, partitions (id to
 * {@code created_revision}) and their purge generations, and where its {@code durability} entry was last written ({@code snapshot} or
 * {@code journal}).
 */
public final class TopicState {
    public final long streamKey;
    public final long key;
    public String name;
    /** Key text to entry; a later entry for the same key replaces the earlier one. */
    public final Map<String, TopicOption> options = new TreeMap<>();
    public final Map<Long, Long> partitions = new TreeMap<>();
    /** Partition id to {@code purge_generation} (METADATA 2.6), as the snapshot holds it and PurgeTopic bumps it. */
    public final Map<Long, Long> purgeGenerations = new TreeMap<>();
    public DurabilitySource optionsFrom;

    TopicState(long streamKey, long key, String name, DurabilitySource from) {
        this.streamKey = streamKey;
        this.key = key;
        this.name = name;
        this.optionsFrom = from;
    }

    void put(List<TopicOption> opts) {
        for (TopicOption o : opts) {
            options.put(o.keyText(), o);
        }
    }

    private static final byte[] PERSISTED = "persisted".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = {1};

    /**
     * {@code D} as METADATA 3.4 steps 3-5 decide it: true iff the {@code durability} entry is of kind string with
     * exactly the bytes {@code persisted}; anything else (absent, {@code replicated}, another kind or text) is false.
     */
    public boolean durable() {
        TopicOption d = options.get("durability");
        return d != null && d.valueIs(HeaderKinds.STRING, PERSISTED);
    }

    public boolean hasDurabilityKey() {
        return options.containsKey("durability");
    }

    /** The legacy key whose value {@code bool 1} stops the node from booting (METADATA 3.3). */
    public boolean legacyEnforceFsync() {
        TopicOption e = options.get("enforce_fsync");
        return e != null && e.valueIs(HeaderKinds.BOOL, TRUE);
    }

    /** {@code durability = string "persisted" (explicit)}, or a note that the key is absent. */
    public String durabilityEntry() {
        TopicOption d = options.get("durability");
        return d == null ? "no durability key" : d.describe();
    }
}
