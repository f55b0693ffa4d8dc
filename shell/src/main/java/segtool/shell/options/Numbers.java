package segtool.shell.options;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import segtool.formats.io.U64;

/**
 * Converters for numbers operators type: unsigned 64-bit values (decimal or 0x hex), counts and sizes, the server
 * build's message-size ceiling, and timestamps. Every refusal speaks the spec's terms ("an unsigned 64-bit number",
 * "a count of 0 or more"), never the Java type behind the option.
 */
public final class Numbers {
    /** The smallest --max-message-size-upper accepted: below it ordinary batches would read as damage. */
    public static final long MIN_MESSAGE_SIZE_UPPER = 1L << 20;
    /** The largest accepted: 16 times the server's 256 MiB; a batch beyond it cannot sit in a 1 GiB segment. */
    public static final long MAX_MESSAGE_SIZE_UPPER = 1L << 32;

    private Numbers() {
    }

    /**
     * Makes every plain number option of {@code cmd} (and its subcommands) a count: a whole number of 0 or more.
     * Options with a converter of their own keep it.
     */
    public static void register(CommandLine cmd) {
        cmd.registerConverter(Long.class, new CountConverter());
        cmd.registerConverter(Long.TYPE, new CountConverter());
        cmd.registerConverter(Integer.class, new IntCountConverter());
        cmd.registerConverter(Integer.TYPE, new IntCountConverter());
    }

    /** A count or size: a whole number from 0 to 9,223,372,036,854,775,807 (decimal; '_' separators allowed). */
    public static final class CountConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return count(value, Long.MAX_VALUE);
        }
    }

    /** A count that fits the option: a whole number from 0 to 2,147,483,647. */
    public static final class IntCountConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) count(value, Integer.MAX_VALUE);
        }
    }

    static long count(String value, long max) {
        String v = value.replace("_", "");
        if (v.startsWith("-") && v.length() > 1 && v.substring(1).chars().allMatch(Character::isDigit)) {
            throw new CommandLine.TypeConversionException("'" + value + "' is negative; give a count of 0 or more");
        }
        Long parsed = v.chars().allMatch(Character::isDigit) ? U64.parse(v) : null;
        if (parsed == null) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number (0 or more, "
                    + "decimal digits)");
        }
        if (Long.compareUnsigned(parsed, max) > 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large (at most "
                    + String.format("%,d", max) + ")");
        }
        return parsed;
    }

    /**
     * The server build's MAX_MESSAGE_SIZE_UPPER_BYTES (FORMAT 5, RECOVERY 13.1): 256 MiB unless the build says
     * otherwise. Zero or a tiny value would make every healthy batch look like damage (and fence a segment), a huge
     * one would accept any garbage length; both are refused with the accepted range.
     */
    public static final class MessageSizeUpperConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.replace("_", "");
            boolean digits = !v.isEmpty() && v.chars().allMatch(Character::isDigit);
            boolean negative = v.startsWith("-") && v.length() > 1 && v.substring(1).chars()
                    .allMatch(Character::isDigit);
            Long parsed = digits ? U64.parse(v) : null;
            if (parsed == null && !(negative || digits)) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a byte count (decimal digits; "
                        + "the server's value is 268435456, 256 MiB)");
            }
            if (parsed == null || Long.compareUnsigned(parsed, MIN_MESSAGE_SIZE_UPPER) < 0
                    || Long.compareUnsigned(parsed, MAX_MESSAGE_SIZE_UPPER) > 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is outside 1048576 (1 MiB) .. "
                        + "4294967296 (4 GiB); the server's MAX_MESSAGE_SIZE_UPPER_BYTES is 268435456 (256 MiB) "
                        + "unless its build changed it");
            }
            return parsed;
        }
    }

    /** An unsigned 64-bit value: {@code 1048576}, {@code 0x100000}, {@code 18446744073709551615}. */
    public static final class U64Converter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.replace("_", "");
            try {
                if (v.startsWith("0x") || v.startsWith("0X")) {
                    return Long.parseUnsignedLong(v.substring(2), 16);
                }
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a hex number");
            }
            Long parsed = U64.parse(v);
            if (parsed != null) {
                return parsed;
            }
            if (v.startsWith("-") && v.length() > 1 && v.substring(1).chars().allMatch(Character::isDigit)) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative; give an unsigned 64-bit "
                        + "number, 0 to 18446744073709551615");
            }
            if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too large: an unsigned 64-bit "
                        + "number is at most 18446744073709551615 (2^64-1)");
            }
            throw new CommandLine.TypeConversionException("'" + value
                    + "' is not an unsigned 64-bit number (decimal or 0x hex)");
        }
    }

    /** Microseconds since the epoch, or an ISO-8601 instant such as {@code 2023-11-14T22:13:20.000123Z}. */
    public static final class TimestampConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            Long raw = U64.parse(value);
            if (raw != null) {
                return raw;
            }
            try {
                Instant i = Instant.parse(value);
                return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000L);
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is neither microseconds since the epoch nor an ISO-8601 instant (2023-11-14T22:13:20Z)");
            }
        }
    }
}
