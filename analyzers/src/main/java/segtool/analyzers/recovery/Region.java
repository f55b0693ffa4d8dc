package segtool.analyzers.recovery;

/** A byte range {@code [from, to)} of a log, what recovery makes of it, and a note. */
public record Region(Kind kind, long from, long to, String note) {
    /** What recovery makes of a range of a log. */
    public enum Kind {
        /** Records that verify (F 2.5) on the path recovery took. */
        VERIFIED,
        /** Accepted at boot without a checksum: durable mode below the last entry (RECOVERY 11.1). */
        UNREAD,
        /** After the last record kept: the probe found no survivor, pass C cuts it (4.7 step 4). */
        TORN_TAIL,
        /**
         * Past the WAL checkpoint's length in its segment: recovery neither reads nor cuts it; the bytes belong to the
         * partition WAL (RECOVERY 9, METADATA 6.7).
         */
        PAST_CHECKPOINT,
        /** The record a walk stopped at: as far as its header claims, or one header's worth. */
        DAMAGED,
        /** A record that verifies but carries another partition's id (ForeignBatch). */
        FOREIGN_BATCH,
        /** A record that verifies but is out of the offset chain: stale, duplicate or past a gap. */
        STALE_BATCH,
        /** After the damage, not classified: the probe refused or its budget ran out. */
        RESIDUE,
        /** Records that verify after the damage (InteriorDamage's survivor and what follows it). */
        SURVIVOR,
        /** A recovered-empty segment's bytes: pass C moves them into a fence directory (6.2). */
        FENCED,
        /** Recovery never read it: an earlier refusal ended the load. */
        UNEXAMINED
    }

    /** A region boot accepts without re-reading it (RECOVERY 11.1). */
    public static Region unread(long from, long to, String note) {
        return new Region(Kind.UNREAD, from, to, note);
    }

    public long bytes() {
        return to - from;
    }
}
