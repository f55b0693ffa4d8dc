package segtool.analyzers.recovery;

/** A byte range {@code [from, to)} of a log with a note, e.g. a region boot recovery does not re-read. */
public record Region(long from, long to, String note) {
}
