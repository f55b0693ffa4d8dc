package segtool.analyzers.recovery;

/**
 * The records that verify from an InteriorDamage survivor onward (headers and checksums, F 2.2 and 2.5; no offset or
 * partition check): {@code [from, to)}, how many, their first and last offsets ({@code -1} if none holds a message),
 * and where the run ended, in words.
 */
public record Survivors(long from, long to, long records, long firstOffset, long lastOffset, String stop) {
}
