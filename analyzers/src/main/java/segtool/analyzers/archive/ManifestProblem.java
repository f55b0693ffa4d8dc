package segtool.analyzers.archive;

/**
 * One disagreement between the manifest and the extracted tree: a stable code, the tar path, expected, actual.
 * For {@link Kind#INVALID_MANIFEST} the path is the manifest's own name and {@code actual} says what is wrong.
 */
public record ManifestProblem(Kind kind, String path, String expected, String actual) {
    public enum Kind { MISSING, EXTRA, SIZE, HASH, INVALID_MANIFEST }

    @Override
    public String toString() {
        return switch (kind) {
            case MISSING -> path + ": listed in the manifest, not in the archive";
            case EXTRA -> path + ": in the archive, not listed in the manifest";
            case SIZE -> path + ": size expected " + expected + ", actual " + actual;
            case HASH -> path + ": xxh3 expected " + expected + ", actual " + actual;
            case INVALID_MANIFEST -> path + ": unusable manifest: " + actual;
        };
    }
}
