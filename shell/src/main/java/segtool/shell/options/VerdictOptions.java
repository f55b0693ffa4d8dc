package segtool.shell.options;

import picocli.CommandLine.Option;

/** Options that change the verdict: the topic's enforce_fsync and the partition id. */
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
}
