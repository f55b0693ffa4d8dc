package segtool.shell.options;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.recovery.Checkpoint;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.io.U64;

/**
 * Options that change the verdict: the topic's durability (read from the data directory's metadata unless given),
 * the WAL checkpoint (read from the partition's frontier unless given), the partition id, the server build's
 * limits.
 */
public final class VerdictOptions {
    @Option(names = "--durability", arity = "1", paramLabel = "persisted|replicated", converter = DurabilityConverter.class,
            completionCandidates = DurabilityConverter.Values.class,
            description = "The topic's durability (RECOVERY 1 durable mode D: persisted = durable). Default: read "
                    + "from the data directory's metadata/ per topic; without metadata/, replicated. A value that "
                    + "contradicts the metadata is refused unless --override-durability. The value used and where "
                    + "it came from are printed on every verdict.")
    public Mode durability;

    /** The two stored values of the topic option {@code durability}. */
    public enum Mode {
        PERSISTED, REPLICATED
    }

    @Option(names = "--enforce-fsync", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
            description = "The #3970 name of --durability: true = persisted, false = replicated.")
    public Boolean enforceFsyncAlias;

    @Option(names = "--override-durability",
            description = "Judge with --durability even where it contradicts the topic's stored durability; the "
                    + "override is printed on every verdict.")
    public boolean overrideDurability;

    @Option(names = "--partition-id", paramLabel = "N", converter = Numbers.U64Converter.class,
            description = "Partition id to check batches against, instead of the one taken from the path "
                    + "(an unsigned 64-bit number, as batch headers store it).")
    public Long partitionId;

    @Option(names = "--max-message-size-upper", paramLabel = "BYTES", defaultValue = "268435456",
            converter = Numbers.MessageSizeUpperConverter.class,
            description = "The server build's MAX_MESSAGE_SIZE_UPPER_BYTES (default ${DEFAULT-VALUE}).")
    public long maxMessageSizeUpper;

    @Option(names = "--wal-checkpoint", paramLabel = "START:LENGTH:NEXT", converter = CheckpointConverter.class,
            description = "Judge as a boot that the partition's prepare WAL hands a checkpoint (RECOVERY 9): segment "
                    + "START is rebuilt from its first LENGTH bytes, segments from NEXT on are left out. Default: "
                    + "the checkpoint of the partition's prepares-<created_revision>/frontier, if any; a value that "
                    + "contradicts it is refused.")
    public Checkpoint checkpoint;

    /** The durability the command line gives (null: neither --durability nor --enforce-fsync). */
    public Boolean commandLineDurable() {
        Boolean d = durability == null ? null : durability == Mode.PERSISTED;
        if (d != null && enforceFsyncAlias != null && !d.equals(enforceFsyncAlias)) {
            throw new IllegalArgumentException("--durability and --enforce-fsync disagree");
        }
        return d != null ? d : enforceFsyncAlias;
    }

    /** The durable mode for commands that judge with one value: the command line's, else replicated (false). */
    public boolean durable() {
        Boolean d = commandLineDurable();
        return d != null && d;
    }

    /** The note {@code --enforce-fsync} prints, or null when it was not used. */
    public String aliasNote() {
        return enforceFsyncAlias == null ? null : "--enforce-fsync is the #3970 name; today's option is --durability="
                + (enforceFsyncAlias ? "persisted" : "replicated");
    }

    /**
     * The partitions of {@code targets} as these options name them: {@code --partition-id} applies to a single
     * partition (a usage error otherwise), and without it every directory name must be a partition id. What every
     * command that judges (scan, explain, doctor, repair, rebuild-index) takes.
     */
    public java.util.List<segtool.formats.naming.PartitionPath> partitions(CommandLine.Model.CommandSpec spec,
            segtool.analyzers.layout.Targets targets) {
        java.util.List<segtool.formats.naming.PartitionPath> out = new java.util.ArrayList<>(targets.partitions());
        if (partitionId != null) {
            if (out.size() != 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--partition-id applies to a single "
                        + "partition, but " + targets.path() + " holds " + out.size());
            }
            out.set(0, out.get(0).withPartitionId(partitionId));
        }
        for (segtool.formats.naming.PartitionPath p : out) {
            if (partitionId == null && !p.hasPartitionId()) {
                throw new CommandLine.ParameterException(spec.commandLine(), p.directory()
                        + ": the directory name is not a partition id; pass --partition-id N");
            }
        }
        return out;
    }

    /** What the command line says, for the inputs resolver. */
    public InputsResolver.CommandLine inputs() {
        return new InputsResolver.CommandLine(commandLineDurable(), overrideDurability, checkpoint);
    }

    /**
     * {@link #inputs()} for command {@code spec}: options that disagree are a usage error, and {@code --enforce-fsync}
     * prints its note (today's name) on stderr first.
     */
    public InputsResolver.CommandLine inputs(CommandLine.Model.CommandSpec spec) {
        InputsResolver.CommandLine cli;
        try {
            cli = inputs();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (aliasNote() != null) {
            spec.commandLine().getErr().println("segtool: note: " + aliasNote());
            spec.commandLine().getErr().flush();
        }
        return cli;
    }

    /**
     * The options given that change a verdict, spelled as typed (today's names), for a next command that must judge
     * as this one did: the durability and its override, the checkpoint, and {@link #recordFlags()}.
     */
    public String flags() {
        StringBuilder b = new StringBuilder();
        Boolean d = commandLineDurable();
        if (d != null) {
            b.append(" --durability=").append(d ? "persisted" : "replicated");
        }
        if (overrideDurability) {
            b.append(" --override-durability");
        }
        if (checkpoint != null) {
            b.append(" --wal-checkpoint=").append(checkpoint.spelled());
        }
        return b + recordFlags();
    }

    /** The options given that change which records verify: the partition id and the server build's size limit. */
    public String recordFlags() {
        StringBuilder b = new StringBuilder();
        if (partitionId != null) {
            b.append(" --partition-id=").append(Long.toUnsignedString(partitionId));
        }
        if (maxMessageSizeUpper != segtool.analyzers.recovery.RecoveryEngine.MAX_MESSAGE_SIZE_UPPER_BYTES) {
            b.append(" --max-message-size-upper=").append(maxMessageSizeUpper);
        }
        return b.toString();
    }

    /** The engine options these flags ask for (the checkpoint is per partition, from {@link #inputs}). */
    public RecoveryOptions engineOptions() {
        RecoveryOptions o = RecoveryOptions.defaults().withMaxMessageSizeUpper(maxMessageSizeUpper);
        return checkpoint == null ? o : o.withCheckpoint(checkpoint);
    }

    /** {@code persisted} or {@code replicated}, exactly as the server spells them (case-sensitive). */
    public static final class DurabilityConverter implements CommandLine.ITypeConverter<Mode> {
        /** The values completion offers: the two the converter takes (not the enum's upper-case names). */
        public static final class Values extends java.util.ArrayList<String> {
            public Values() {
                super(java.util.List.of("persisted", "replicated"));
            }
        }

        @Override
        public Mode convert(String value) {
            if (value.equals("persisted")) {
                return Mode.PERSISTED;
            }
            if (value.equals("replicated")) {
                return Mode.REPLICATED;
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not persisted or replicated");
        }
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
