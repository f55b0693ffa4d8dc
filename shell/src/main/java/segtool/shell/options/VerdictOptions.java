package segtool.shell.options;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.io.U64;

/** Options that change the verdict: the topic's enforce_fsync, the partition id, the server build's limits. */
public final class VerdictOptions {
    @Option(names = "--enforce-fsync", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
            description = "The topic's enforce_fsync (recovery's durable mode). Default: false, the server default."
                    + " It changes the verdict; the value used is always printed.")
    public boolean enforceFsync;

    @Option(names = "--partition-id", paramLabel = "N",
            description = "Partition id to check batches against, instead of the one taken from the path.")
    public Long partitionId;

    @Option(names = "--max-message-size-upper", paramLabel = "BYTES", defaultValue = "268435456",
            description = "The server build's MAX_MESSAGE_SIZE_UPPER_BYTES (default ${DEFAULT-VALUE}).")
    public long maxMessageSizeUpper;

    @Option(names = "--wal-checkpoint", paramLabel = "START:LENGTH:NEXT", converter = CheckpointConverter.class,
            description = "Judge as a boot that the partition's prepare WAL hands a checkpoint (RECOVERY 9): segment "
                    + "START is rebuilt from its first LENGTH bytes, segments from NEXT on are left out.")
    public Checkpoint checkpoint;

    /** The engine options these flags ask for. */
    public RecoveryOptions engineOptions() {
        RecoveryOptions o = RecoveryOptions.defaults().withMaxMessageSizeUpper(maxMessageSizeUpper);
        return checkpoint == null ? o : o.withCheckpoint(checkpoint);
    }

    /** {@code START:LENGTH:NEXT}, three unsigned decimals. */
    public static final class CheckpointConverter implements CommandLine.ITypeConverter<Checkpoint> {
        @Override
        public Checkpoint convert(String value) {
            String[] parts = value.split(":", -1);
            Long[] v = new Long[3];
            for (int i = 0; parts.length == 3 && i < 3; i++) {
                v[i] = U64.parse(parts[i]);
            }
            if (parts.length != 3 || v[0] == null || v[1] == null || v[2] == null) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not START:LENGTH:NEXT (three unsigned decimals)");
            }
            return new Checkpoint(v[0], v[1], v[2]);
        }
    }
}
