package segtool.shell.options;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import segtool.formats.io.U64;

/** Converters for numbers operators type: unsigned 64-bit values (decimal or 0x hex) and timestamps. */
public final class Numbers {
    private Numbers() {
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
            if (parsed == null) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not an unsigned 64-bit number (decimal or 0x hex)");
            }
            return parsed;
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
