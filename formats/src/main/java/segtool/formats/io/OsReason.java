package segtool.formats.io;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one place an I/O error becomes words: {@code <path>: <the operating system's reason>}, the path once. Java's
 * {@link FileSystemException#getMessage()} already carries the path ({@code "/x/loop: Too many levels of symbolic
 * links"}), so a line built as {@code path + ": " + e.getMessage()} names it twice; every line that names a file and
 * why it could not be read is built here instead.
 */
public final class OsReason {
    /** What the JDK adds to ELOOP's strerror when it failed to stat a link; the operating system says only the first part. */
    private static final String LINK_ATTRIBUTES = " or unable to access attributes of symbolic link";

    private OsReason() {
    }

    /** The OS's words for the exceptions java.nio raises without a reason, as strerror(3) gives them. */
    private static final Map<Class<? extends FileSystemException>, String> KINDS = kinds();

    private static Map<Class<? extends FileSystemException>, String> kinds() {
        Map<Class<? extends FileSystemException>, String> m = new LinkedHashMap<>();
        m.put(java.nio.file.AccessDeniedException.class, "Permission denied");
        m.put(java.nio.file.NoSuchFileException.class, "No such file or directory");
        m.put(java.nio.file.NotDirectoryException.class, "Not a directory");
        m.put(java.nio.file.FileSystemLoopException.class, "Too many levels of symbolic links");
        m.put(java.nio.file.FileAlreadyExistsException.class, "File exists");
        m.put(java.nio.file.DirectoryNotEmptyException.class, "Directory not empty");
        return m;
    }

    /**
     * The operating system's reason of {@code e}, without the path Java repeats in the message. Java names some
     * errors only by the exception's type; those get the operating system's words for them (EACCES, ENOENT, ...).
     */
    public static String of(Throwable e) {
        if (e instanceof RegularFile.NotRegular n) {
            return "is " + n.kind() + ", not a regular file; segtool does not open it";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            String r = fs.getReason();
            return r.endsWith(LINK_ATTRIBUTES) ? r.substring(0, r.length() - LINK_ATTRIBUTES.length()) : r;
        }
        for (Map.Entry<Class<? extends FileSystemException>, String> k : KINDS.entrySet()) {
            if (k.getKey().isInstance(e)) {
                return k.getValue();
            }
        }
        if (e instanceof FileSystemException) {
            return e.getClass().getSimpleName().replace("Exception", "");
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * The reason of {@code e} as said of {@code path}: {@link #of(Throwable)}, after the file the exception names when
     * that is another one (a segment's .index that is a FIFO, found while reading its .log).
     */
    public static String of(Path path, Throwable e) {
        String named = e instanceof RegularFile.NotRegular n ? String.valueOf(n.path())
                : e instanceof FileSystemException fs ? fs.getFile() : null;
        return named != null && path != null && !named.equals(path.toString()) ? named + ": " + of(e) : of(e);
    }

    /** {@code <path>: <reason>}: the path once, and another file only when the exception names another one. */
    public static String line(Object path, Throwable e) {
        return path + ": " + (path instanceof Path p ? of(p, e) : of(e));
    }

    /**
     * Why {@code path} cannot be looked at (stat, following symlinks), or null when it can. {@code Files.exists} says
     * false for a missing file, a symlink loop, a parent that is a file and a directory the user cannot search alike;
     * this keeps the operating system's reason for each.
     */
    public static IOException statFailure(Path path) {
        try {
            Files.readAttributes(path, BasicFileAttributes.class);
            return null;
        } catch (IOException e) {
            return e;
        }
    }
}
