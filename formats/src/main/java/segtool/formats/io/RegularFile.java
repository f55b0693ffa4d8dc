package segtool.formats.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The check every reader of a segment, index or anchor file makes before it opens one: the name must be a regular
 * file (or a symlink to one). A FIFO blocks the opener until a writer appears, a device can be endless or have side
 * effects, a socket cannot be opened at all; none of them is a segment, whatever its name. The check looks at the
 * entry itself first ({@code NOFOLLOW_LINKS}), then, for a symlink, at its target; nothing is opened for reading.
 */
public final class RegularFile {
    /** A name that should be a file segtool reads but is something else; nothing was opened. */
    public static final class NotRegular extends IOException {
        private final Path path;
        private final String kind;

        NotRegular(Path path, String kind) {
            super(path + ": is " + kind + ", not a regular file; segtool does not open it");
            this.path = path;
            this.kind = kind;
        }

        public Path path() {
            return path;
        }

        /** "a FIFO", "a character device", "a block device", "a socket", "a directory", or "a special file". */
        public String kind() {
            return kind;
        }
    }

    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;

    private RegularFile() {
    }

    /**
     * Returns normally when {@code path} is a regular file or a symlink to one; throws {@link NotRegular} naming what
     * it is otherwise, and {@link NoSuchFileException} when nothing is there (or a symlink dangles).
     */
    public static void require(Path path) throws IOException {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) {
            a = Files.readAttributes(path, BasicFileAttributes.class);
        }
        if (!a.isRegularFile()) {
            throw new NotRegular(path, kind(path, a));
        }
    }

    /**
     * The one-line refusal for {@code path} when it is not a regular file (nor a symlink to one): "{@code <path>: is
     * a FIFO, not a regular file; segtool does not open it}". Nothing is opened.
     */
    public static String refusal(Path path) {
        try {
            require(path);
            return path + ": is a regular file";
        } catch (NotRegular e) {
            return e.getMessage();
        } catch (IOException e) {
            return e instanceof NoSuchFileException ? path + ": no such file or directory (a dangling symlink?)"
                    : OsReason.line(path, e);
        }
    }

    private static String kind(Path path, BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a directory";
        }
        try {
            int mode = ((Number) Files.getAttribute(path, "unix:mode")).intValue() & S_IFMT;
            switch (mode) {
                case S_IFIFO:
                    return "a FIFO";
                case S_IFCHR:
                    return "a character device";
                case S_IFBLK:
                    return "a block device";
                case S_IFSOCK:
                    return "a socket";
                default:
                    break;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            // no unix view: say what is known
        }
        return "a special file (FIFO, device or socket)";
    }
}
