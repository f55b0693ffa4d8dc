package segtool.analyzers.archive;

/**
 * What opening an archive may cost. Every bound is checked before bytes are written where the archive declares a
 * size (tar headers), and while streaming where it does not (a bare compressed file).
 *
 * @param maxTotalBytes      bytes extracted over all entries
 * @param maxEntryBytes      bytes of any one extracted file
 * @param maxEntries         tar entries of any kind, directories and the manifest included
 * @param maxExpansionRatio  extracted bytes per byte of archive, enforced once past {@code ratioFloorBytes}; lz4
 *                           cannot exceed about 255:1 and deflate about 1032:1, so the default refuses no archive a
 *                           real compressor can make and is there to be tightened
 * @param ratioFloorBytes    extracted bytes always allowed whatever the ratio (small archives of zero-filled tails)
 * @param maxHeaderBytes     bytes of tar metadata (PAX records, GNU long names) in front of one entry; commons-compress
 *                           holds these in memory, so they are capped where they are read, with one 10 KiB tar block
 *                           of slack (after the end-of-archive marker the parser reads on to the end of its block)
 * @param maxManifestBytes   size of the manifest entry, parsed as it streams but still held as a list of files
 */
public record Limits(long maxTotalBytes, long maxEntryBytes, int maxEntries, long maxExpansionRatio,
                     long ratioFloorBytes, int maxHeaderBytes, int maxManifestBytes) {
    public static final long GIB = 1L << 30;
    public static final long MIB = 1L << 20;

    public static final Limits DEFAULT = new Limits(64 * GIB, 16 * GIB, 1_000_000, 1100, GIB, (int) MIB,
            (int) (256 * MIB));

    public Limits {
        if (maxTotalBytes < 0 || maxEntryBytes < 0 || maxEntries < 1 || maxExpansionRatio < 1 || ratioFloorBytes < 0) {
            throw new IllegalArgumentException("limits must be positive: " + this);
        }
        if (maxHeaderBytes < 1024 || maxManifestBytes < 1) {
            throw new IllegalArgumentException("maxHeaderBytes must be at least 1024 and maxManifestBytes positive");
        }
    }

    public Limits withMaxTotalBytes(long v) {
        return new Limits(v, maxEntryBytes, maxEntries, maxExpansionRatio, ratioFloorBytes, maxHeaderBytes,
                maxManifestBytes);
    }

    public Limits withMaxEntryBytes(long v) {
        return new Limits(maxTotalBytes, v, maxEntries, maxExpansionRatio, ratioFloorBytes, maxHeaderBytes,
                maxManifestBytes);
    }

    public Limits withMaxEntries(int v) {
        return new Limits(maxTotalBytes, maxEntryBytes, v, maxExpansionRatio, ratioFloorBytes, maxHeaderBytes,
                maxManifestBytes);
    }

    public Limits withExpansion(long ratio, long floorBytes) {
        return new Limits(maxTotalBytes, maxEntryBytes, maxEntries, ratio, floorBytes, maxHeaderBytes,
                maxManifestBytes);
    }

    public Limits withMaxHeaderBytes(int v) {
        return new Limits(maxTotalBytes, maxEntryBytes, maxEntries, maxExpansionRatio, ratioFloorBytes, v,
                maxManifestBytes);
    }

    public Limits withMaxManifestBytes(int v) {
        return new Limits(maxTotalBytes, maxEntryBytes, maxEntries, maxExpansionRatio, ratioFloorBytes, maxHeaderBytes,
                v);
    }

    /** Extracted bytes the ratio allows for an archive of {@code archiveBytes}: the floor or ratio times the size. */
    public long ratioBudget(long archiveBytes) {
        long scaled = archiveBytes > Long.MAX_VALUE / maxExpansionRatio ? Long.MAX_VALUE
                : archiveBytes * maxExpansionRatio;
        return Math.max(ratioFloorBytes, scaled);
    }
}
