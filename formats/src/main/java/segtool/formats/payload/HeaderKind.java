package segtool.formats.payload;

/** User-header value kinds (F 4.1). Codes 16-255 are legal on the wire and passed through as {@link #UNKNOWN}. */
public enum HeaderKind {
    RAW(1, -1), STRING(2, -1), BOOL(3, 1), INT8(4, 1), INT16(5, 2), INT32(6, 4), INT64(7, 8), INT128(8, 16),
    UINT8(9, 1), UINT16(10, 2), UINT32(11, 4), UINT64(12, 8), UINT128(13, 16), FLOAT32(14, 4), FLOAT64(15, 8),
    UNKNOWN(0, -1);

    private final int code;
    private final int size;

    HeaderKind(int code, int size) {
        this.code = code;
        this.size = size;
    }

    public int code() {
        return code;
    }

    /** Fixed value size in bytes, or -1 for variable (1-255). */
    public int size() {
        return size;
    }

    public static HeaderKind of(int code) {
        for (HeaderKind k : values()) {
            if (k.code == code && k != UNKNOWN) {
                return k;
            }
        }
        return UNKNOWN;
    }
}
