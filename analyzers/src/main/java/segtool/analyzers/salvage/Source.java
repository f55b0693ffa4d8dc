package segtool.analyzers.salvage;

import java.nio.file.Path;

/**
 * One run of bytes salvage reads: a live or fenced segment log, or a quarantined copy of a log range. Batch
 * positions are reported in the original log, so a copy of bytes {@code [base, ...)} of {@code origin} reports
 * {@code base + p} for a batch at {@code p} in the copy.
 *
 * @param kind     segment, fence or quarantine
 * @param file     the file read
 * @param origin   the log the bytes belong to (the file itself, except for quarantined copies)
 * @param start    the segment's start offset {@code S}, from the log's name
 * @param base     where the bytes sit in {@code origin}
 * @param fenceNumber the {@code n} of {@code .fenced.<n>}, or -1
 */
public record Source(Kind kind, Path file, Path origin, long start, long base, int fenceNumber) {
    public enum Kind {
        SEGMENT, FENCE, QUARANTINE;

        public String json() {
            return name().toLowerCase();
        }
    }
}
