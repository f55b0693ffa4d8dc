package segtool.shell.options;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import segtool.analyzers.recovery.RecoveryOptions;

/**
 * {@code --threads N}: how many cores judging uses. A data directory judges up to N partitions at once; a single
 * partition (or fewer partitions than N) shares the N cores for verification. Never changes a verdict or a number.
 */
public final class ThreadsOption {
    /** The one description of the option, for --help and the man pages. */
    public static final String DESCRIPTION = "Cores to judge on (default: every available processor; "
            + "-Dsegtool.threads=N in SEGTOOL_JAVA_OPTS sets the default). A data directory judges up to N partitions "
            + "at once, one core each; a single partition is verified on N cores. Memory stays within about 2 x N "
            + "read windows of 1 MiB. The verdict is the same whatever N.";

    @Option(names = "--threads", paramLabel = "N", converter = Converter.class, description = DESCRIPTION)
    Integer threads;

    /** The cores asked for: the option's value, else {@link RecoveryOptions#defaultThreads()}. */
    public int count() {
        return threads != null ? threads : RecoveryOptions.defaultThreads();
    }

    /** {@code options} with this many cores. */
    public RecoveryOptions apply(RecoveryOptions options) {
        return options.withThreads(count());
    }

    /** A whole number from 1 to 4096. */
    public static final class Converter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String v = value.replace("_", "");
            // any whole number outside the range, negative or huge, is refused in the option's own terms (it was
            // "give a count of 0 or more" for -1 and "at most 2,147,483,647" for 5000000000, neither of which holds)
            if (v.length() > 1 && v.charAt(0) == '-' && v.substring(1).chars().allMatch(Character::isDigit)
                    || v.length() > 4 && v.chars().allMatch(Character::isDigit)) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a number of threads from 1 "
                        + "to 4096");
            }
            long n = Numbers.count(value, Integer.MAX_VALUE);
            if (n < 1 || n > 4096) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a number of threads from 1 "
                        + "to 4096");
            }
            return (int) n;
        }
    }
}
