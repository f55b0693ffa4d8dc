package segtool.analyzers.archive;

/** How an archive's bytes are wrapped, as detected from magic bytes (the name only breaks ties). */
public enum Container {
    TAR("tar", false, true),
    TAR_LZ4("tar in an LZ4 frame", true, true),
    TAR_GZIP("tar in gzip", true, true),
    /** A bare {@code .lz4} holding one file, not a tar. */
    LZ4_FILE("LZ4 frame holding one file", true, false),
    /** A bare {@code .gz} holding one file, not a tar. */
    GZIP_FILE("gzip holding one file", true, false);

    private final String description;
    private final boolean compressed;
    private final boolean tar;

    Container(String description, boolean compressed, boolean tar) {
        this.description = description;
        this.compressed = compressed;
        this.tar = tar;
    }

    public String description() {
        return description;
    }

    public boolean compressed() {
        return compressed;
    }

    public boolean tar() {
        return tar;
    }
}
