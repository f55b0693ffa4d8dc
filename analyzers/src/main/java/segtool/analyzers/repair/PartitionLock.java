package segtool.analyzers.repair;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The advisory lock that makes segtool's mutating runs on one partition exclude each other: an exclusive
 * {@link FileChannel#lock() fcntl lock} on {@code <p>.segtool-lock} beside the partition directory {@code <p>}. The
 * operating system releases it when the holder exits, however it exits, so a killed run never leaves the partition
 * locked. The holder writes its PID into the file so that the next run can name it; the file itself stays (deleting
 * a lock file races with the next run's open).
 *
 * <p>The lock file is opened without following symlinks: a symlink planted under that name is refused.
 */
public final class PartitionLock implements Closeable {
    public static final String SUFFIX = ".segtool-lock";

    /** The lock is held by another segtool run; {@code pid} is -1 when it has not written its PID yet. */
    public static final class Held extends IOException {
        private final long pid;
        private final Path file;

        Held(Path file, long pid) {
            super(file + ": another segtool run holds the lock on this partition ("
                    + (pid >= 0 ? "pid " + pid : "pid not written yet") + "); nothing changed");
            this.file = file;
            this.pid = pid;
        }

        public long pid() {
            return pid;
        }

        public Path file() {
            return file;
        }
    }

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private PartitionLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** {@code <p>.segtool-lock} for the partition directory {@code <p>} (already resolved to its real path). */
    public static Path fileFor(Path partition) {
        Path abs = partition.toAbsolutePath().normalize();
        return abs.resolveSibling(abs.getFileName() + SUFFIX);
    }

    /**
     * Takes the lock of {@code partition} without waiting. Throws {@link Held} naming the holder when another run
     * (another process, or another run in this one) has it.
     */
    public static PartitionLock acquire(Path partition) throws IOException {
        Path file = fileFor(partition);
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) {
                throw new IOException(file + ": is a symlink; segtool's lock file is never followed (remove it)", e);
            }
            throw new IOException(file + ": cannot open the lock file: " + reason(e), e);
        }
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new IOException(file + ": is not a regular file; segtool's lock file must be one");
            }
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                throw new Held(file, ProcessHandle.current().pid());
            }
            if (lock == null) {
                throw new Held(file, holder(ch));
            }
            ch.truncate(0);
            ByteBuffer pid = ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            while (pid.hasRemaining()) {
                ch.write(pid, pid.position());
            }
            ch.force(true);
            return new PartitionLock(file, ch, lock);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static long holder(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(32);
        while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
            // read what is there, at most 32 bytes
        }
        String text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
        try {
            return text.isEmpty() ? -1 : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + " " + e.getMessage();
    }

    public Path file() {
        return file;
    }

    /** Releases the lock (the OS does the same if the process dies). The file stays. */
    @Override
    public void close() throws IOException {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } finally {
            channel.close();
        }
    }
}
