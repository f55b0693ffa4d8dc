package segtool.shell.options;

import picocli.CommandLine.Option;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.formats.log.BatchHeader;

/** Options of the commands that read bytes without judging: the partition id to check, the batch size ceiling. */
public final class ReadOptions {
    @Option(names = "--partition-id", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "Partition id to check batches against, instead of the one taken from the path "
                    + "(an unsigned 64-bit number, as batch headers store it).")
    public Long partitionId;

    @Option(names = "--max-message-size-upper", paramLabel = "BYTES", defaultValue = "268435456",
            converter = Numbers.MessageSizeUpperConverter.class,
            description = "The server build's MAX_MESSAGE_SIZE_UPPER_BYTES (default ${DEFAULT-VALUE}); a batch_length "
                    + "above it plus 256 is treated as damage.")
    public long maxMessageSizeUpper = RecoveryEngine.MAX_MESSAGE_SIZE_UPPER_BYTES;

    public long maxBatchBytes() {
        return maxMessageSizeUpper + BatchHeader.LENGTH;
    }
}
