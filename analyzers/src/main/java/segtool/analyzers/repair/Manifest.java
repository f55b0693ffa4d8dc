package segtool.analyzers.repair;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.List;

/**
 * {@code manifest.json} of a quarantine directory (schema {@code segtool.quarantine/1}): what was planned, every byte
 * range copied aside, and how far things got. Written once, complete, before the first mutation; rewritten (always
 * atomically) only to change {@code state}: {@code applying} -> {@code complete}, and {@code restored} after a
 * restore. Which operations finished is in the {@code journal} file beside it.
 */
public record Manifest(String schema, String segtoolVersion, String command, String partition, long partitionId,
                       boolean enforceFsync, String created, String state, String completed, String restored,
                       List<RepairOp> operations, List<QuarantineEntry> entries) {
    public static final String SCHEMA = "segtool.quarantine/1";
    public static final String APPLYING = "applying";
    public static final String COMPLETE = "complete";
    public static final String RESTORED = "restored";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    public Manifest withState(String newState, String completedAt, String restoredAt) {
        return new Manifest(schema, segtoolVersion, command, partition, partitionId, enforceFsync, created, newState,
                completedAt, restoredAt, operations, entries);
    }

    public byte[] toBytes() throws IOException {
        return MAPPER.writeValueAsBytes(this);
    }

    public static Manifest parse(byte[] json) throws IOException {
        Manifest m = MAPPER.readValue(json, Manifest.class);
        if (!SCHEMA.equals(m.schema())) {
            throw new IOException("manifest schema is " + m.schema() + ", expected " + SCHEMA);
        }
        return m;
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
