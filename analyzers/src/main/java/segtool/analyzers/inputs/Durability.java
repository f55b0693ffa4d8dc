package segtool.analyzers.inputs;

/**
 * The durable-mode flag {@code D} a partition is judged with, where it came from, the file or flag that says so,
 * and whether {@code --override-durability} replaced the metadata's value ({@code metadataDurable} is then what the
 * metadata said).
 */
public record Durability(boolean durable, DurabilitySource source, String from, String detail, boolean overridden,
                         Boolean metadataDurable) {
    public String value() {
        return durable ? "persisted" : "replicated";
    }

    /** {@code durability=persisted (from metadata/snapshot.bin)}, with the override or the fallback said. */
    public String text() {
        StringBuilder sb = new StringBuilder("durability=").append(value()).append(" (from ").append(from);
        if (detail != null) {
            sb.append("; ").append(detail);
        }
        sb.append(')');
        if (overridden) {
            sb.append(" OVERRIDE: metadata says ").append(metadataDurable ? "persisted" : "replicated");
        }
        return sb.toString();
    }
}
