package segtool.formats.io;

import java.nio.file.Path;

/**
 * Where segtool puts temporary files: {@code $TMPDIR} when it is set, otherwise {@code java.io.tmpdir}. On Linux the
 * JVM does not take {@code java.io.tmpdir} from {@code TMPDIR}, so every temporary file and directory is made under
 * {@link #get()}, never under the JVM's default.
 */
public final class TempDirectory {
    private TempDirectory() {
    }

    /** {@code $TMPDIR} if set and not empty, else {@code java.io.tmpdir}; whether it exists is the caller's to find. */
    public static Path get() {
        String env = System.getenv("TMPDIR");
        return Path.of(env != null && !env.isEmpty() ? env : System.getProperty("java.io.tmpdir"));
    }

    /** The OS reason a file could not be made under it, in words (Java names the file, not the reason). */
    public static String reason(java.io.IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NotDirectoryException || e instanceof java.nio.file.FileSystemException f
                && f.getReason() != null && f.getReason().contains("Not a directory")) {
            return "not a directory";
        }
        return e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                : String.valueOf(e.getMessage());
    }

    /** How to name it in a message: the path, and that it came from TMPDIR when it did. */
    public static String describe(Path dir) {
        String env = System.getenv("TMPDIR");
        return dir + (env != null && !env.isEmpty() && Path.of(env).equals(dir) ? " (TMPDIR)" : "");
    }
}
