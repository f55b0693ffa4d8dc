package segtool.analyzers.recovery;

import segtool.formats.log.BatchHeader;

/**
 * The answer of HeaderAt(p), RECOVERY 2.3: the batch header at log position {@code position}, or none, with the
 * {@link Stop} that says why (fewer than 256 bytes left, a header that does not decode under F 2.2, or a
 * {@code batch_length} over {@code MAXB}). Exactly one of {@code header} and {@code none} is set. Obtained from
 * {@link SegmentLog#headerAt(long)}.
 */
public record HeaderAt(long position, BatchHeader header, Stop none) {
    public boolean found() {
        return header != null;
    }
}
