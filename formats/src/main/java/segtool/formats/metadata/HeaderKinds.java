package segtool.formats.metadata;

import java.util.List;

/**
 * The {@code HeaderKind} names the snapshot stores and the codes the wire TLV stores (METADATA 2.3, F 4.1):
 * {@code raw}(1) ... {@code float64}(15).
 */
public final class HeaderKinds {
    public static final int STRING = 2;
    public static final int BOOL = 3;
    public static final int UINT32 = 11;
    public static final int UINT64 = 12;

    private static final List<String> NAMES = List.of("raw", "string", "bool", "int8", "int16", "int32", "int64",
            "int128", "uint8", "uint16", "uint32", "uint64", "uint128", "float32", "float64");

    private HeaderKinds() {
    }

    /** The code of a snake_case kind name, or -1 when the name is not a kind. */
    public static int code(String name) {
        int i = NAMES.indexOf(name);
        return i < 0 ? -1 : i + 1;
    }

    /** The snake_case name of a code 1..15, or {@code kind(<code>)} for another value. */
    public static String name(int code) {
        return code >= 1 && code <= NAMES.size() ? NAMES.get(code - 1) : "kind(" + code + ")";
    }
}
