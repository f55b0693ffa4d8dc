package segtool.shell.render;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Timestamps are microseconds since the epoch (F conventions); shown as UTC with microseconds. */
public final class Times {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    /** 9999-12-31: anything later is not a plausible clock and is shown raw. */
    private static final long MAX_MICROS = 253_402_300_799_999_999L;

    private Times() {
    }

    /** {@code 2023-11-14T22:13:20.000000Z}, or the raw number in brackets when it is not a plausible time. */
    public static String iso(long micros) {
        if (micros < 0 || micros > MAX_MICROS) {
            return "[" + Long.toUnsignedString(micros) + "]";
        }
        return ISO.format(Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000));
    }

    /** A span of microseconds in words: {@code 1h 2m 3.000456s}. */
    public static String span(long micros) {
        if (micros < 0) {
            return "-" + span(-micros);
        }
        long s = micros / 1_000_000;
        long us = micros % 1_000_000;
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long sec = s % 60;
        StringBuilder b = new StringBuilder();
        if (h > 0) {
            b.append(h).append("h ");
        }
        if (h > 0 || m > 0) {
            b.append(m).append("m ");
        }
        b.append(sec);
        if (us != 0) {
            b.append('.').append(String.format("%06d", us));
        }
        return b.append('s').toString();
    }
}
