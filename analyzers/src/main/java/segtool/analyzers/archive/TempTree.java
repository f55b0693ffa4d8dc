package segtool.analyzers.archive;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import segtool.formats.io.TempDirectory;
import segtool.formats.naming.SegmentFiles;

/**
 * The private directories archives are extracted into: created owner-only, removed on close, on failure, and (for
 * any still open) when the JVM shuts down, so an interrupted command does not leave gigabytes in the temp dir; what
 * a killed run (no shutdown hook) left is removed by the next run, which finds it by the owner PID in its name.
 * Also the POSIX mode helpers the writer and the reader share.
 */
public final class TempTree {
    static final String PREFIX = "segtool-dump-";
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TempTree::deleteAllLive, "segtool-dump-cleanup"));
    }

    private TempTree() {
    }

    /**
     * A fresh directory {@code segtool-dump-<pid>-<random>} under {@code parent} that only the owner can enter. The
     * PID is this process's, so that a later run can tell what a killed run left: first, every such directory under
     * {@code parent} whose owner process is gone is removed ({@link #sweep}).
     */
    static Path create(Path parent) throws IOException {
        sweep(parent);
        String prefix = PREFIX + ProcessHandle.current().pid() + "-";
        Path dir;
        try {
            if (Files.getFileAttributeView(parent, PosixFileAttributeView.class) != null) {
                dir = Files.createTempDirectory(parent, prefix,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                dir = Files.createTempDirectory(parent, prefix);
            }
        } catch (IOException e) {
            throw new IOException("cannot create a private extraction directory under "
                    + TempDirectory.describe(parent) + ": " + TempDirectory.reason(e), e);
        }
        LIVE.add(dir);
        return dir;
    }

    /**
     * Removes the extraction directories under {@code parent} that a run killed before it could clean up left
     * behind: named {@code segtool-dump-<pid>-...}, a directory (a link of that name is left alone), owned by this
     * user, and {@code <pid>} no longer a live process. A directory whose owner still runs, or that is named any other
     * way, is never touched. Best effort: what cannot be removed now is tried again by the next run.
     *
     * @return the directories removed
     */
    static List<Path> sweep(Path parent) {
        List<Path> removed = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, SegmentFiles.startingWith(PREFIX))) {
            for (Path p : entries) {
                long pid = ownerPid(p.getFileName().toString());
                if (pid == self || !ownerGone(pid) || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                        || !ownedByMe(p)) {
                    continue;
                }
                try {
                    delete(p);
                    removed.add(p);
                } catch (IOException | RuntimeException e) {
                    // another run may be removing it at the same time; the next run tries again
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            // an unreadable temp directory: create() reports it
        }
        return removed;
    }

    /**
     * True when {@code pid}, the owner a temporary's name carries, is a process id that no live process has: what
     * it left behind is abandoned. False for a non-positive id.
     */
    public static boolean ownerGone(long pid) {
        return pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The PID in {@code segtool-dump-<pid>-<random>}, or -1 for any other name. */
    static long ownerPid(String name) {
        if (!name.startsWith(PREFIX)) {
            return -1;
        }
        int dash = name.indexOf('-', PREFIX.length());
        if (dash <= PREFIX.length() || dash - PREFIX.length() > 18) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(PREFIX.length(), dash));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean ownedByMe(Path p) {
        try {
            UserPrincipal me = p.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
            return me.equals(Files.getOwner(p, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Removes the tree without following links; grants the owner rwx on directories first so nothing sticks. */
    static void delete(Path dir) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    grantOwner(d, 0700);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof AccessDeniedException && grantOwner(file, 0700)) {
                        delete(file);
                        return FileVisitResult.CONTINUE;
                    }
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        LIVE.remove(dir);
    }

    /** Deletes, adding any failure to {@code primary} instead of replacing it. */
    static void deleteAfterFailure(Path dir, Throwable primary) {
        try {
            delete(dir);
        } catch (IOException | RuntimeException e) {
            primary.addSuppressed(e);
        }
    }

    private static void deleteAllLive() {
        for (Path dir : LIVE) {
            try {
                delete(dir);
            } catch (IOException | RuntimeException e) {
                // Shutting down: nobody is left to tell.
            }
        }
    }

    static boolean isPosix(Path p) {
        return Files.getFileAttributeView(p, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS) != null;
    }

    /** Adds the {@code ownerBits} (0700 mask) to the mode; false when the file system has no POSIX modes. */
    static boolean grantOwner(Path p, int ownerBits) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return false;
        }
        int mode = bits(view.readAttributes().permissions());
        if ((mode & ownerBits) != ownerBits) {
            view.setPermissions(permissions(mode | ownerBits));
        }
        return true;
    }

    /** Sets permission bits (0777 of {@code mode}) where the file system has them, and the modification time. */
    static void setModeAndTime(Path p, int mode, FileTime mtime) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            view.setPermissions(permissions(mode));
        }
        if (mtime != null) {
            Files.getFileAttributeView(p, java.nio.file.attribute.BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).setTimes(mtime, null, null);
        }
    }

    static int bits(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission p : permissions) {
            mode |= 0400 >> p.ordinal();
        }
        return mode;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission p : PosixFilePermission.values()) {
            if ((mode & (0400 >> p.ordinal())) != 0) {
                set.add(p);
            }
        }
        return set;
    }
}
