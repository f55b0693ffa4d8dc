package segtool.analyzers.repair;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where a quarantine's paths may point. A manifest and a journal are files in the data directory, so whoever owns
 * that directory can write them; segtool often runs as root. So every path read from them must name, without
 * following a symlink, a file directly inside the partition directory, a fence directory beside it, or a file in
 * the quarantine's {@code bytes/} or {@code new/}; anything else makes the whole quarantine unusable
 * ({@link Damaged}). And segtool changes only regular files: a symlink, FIFO, device or socket where it would read
 * or write is refused, never followed.
 */
final class Confinement {
    private Confinement() {
    }

    /** A quarantine segtool will not use: unreadable, inconsistent, or pointing outside its partition. */
    static final class Damaged extends IOException {
        Damaged(Path quarantine, String why) {
            super(quarantine + ": " + why + "; segtool refuses this quarantine and changed nothing");
        }
    }

    /** {@code value} is one plain path component: no separator, not {@code .} or {@code ..}, not empty. */
    static boolean isName(String value) {
        return value != null && !value.isEmpty() && !value.equals(".") && !value.equals("..")
                && value.indexOf('/') < 0 && value.indexOf('\\') < 0 && value.indexOf('\0') < 0;
    }

    /** {@code value} is {@code <sub>/<name>}. */
    static boolean isIn(String sub, String value) {
        return value != null && value.startsWith(sub + "/") && isName(value.substring(sub.length() + 1));
    }

    /** The attributes of {@code p} itself (a symlink is not followed), or null when nothing is there. */
    static BasicFileAttributes stat(Path p) throws IOException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    static String kind(BasicFileAttributes a) {
        return a.isSymbolicLink() ? "a symlink" : a.isDirectory() ? "a directory" : a.isRegularFile()
                ? "a regular file" : "a special file (FIFO, device or socket)";
    }

    /** Refuses {@code p} unless it is a regular file or absent. */
    static void regularOrAbsent(Path p) throws IOException {
        BasicFileAttributes a = stat(p);
        if (a != null && !a.isRegularFile()) {
            throw new IOException(p + ": is " + kind(a) + "; segtool reads and changes only regular files and never "
                    + "follows a symlink; nothing changed");
        }
    }

    /** Refuses {@code p} unless it is a directory (not a symlink to one) or absent. */
    static void directoryOrAbsent(Path p) throws IOException {
        BasicFileAttributes a = stat(p);
        if (a != null && !a.isDirectory()) {
            throw new IOException(p + ": is " + kind(a) + ", not a directory; segtool never follows a symlink; "
                    + "nothing changed");
        }
    }
}
