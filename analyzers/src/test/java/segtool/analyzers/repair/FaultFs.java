package segtool.analyzers.repair;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.tests.mockfile.FilterFileChannel;
import org.apache.lucene.tests.mockfile.FilterFileSystemProvider;

/**
 * A file system over the real one (Lucene's mockfile filter, test scope) that fails the {@code n}-th operation of a
 * kind with the error an operating system gives: every write, fsync, truncate, rename, delete, mkdir and open for
 * writing counts as a mutation; every read and map as a read. A failed write can be torn: it writes the first half
 * of what it was given, then fails. Operations are counted in the order they happen, so a single-threaded run
 * fails at the same place each time. Paths from {@link #wrap} route every {@code java.nio.file} call through here.
 */
final class FaultFs extends FilterFileSystemProvider {
    /** The error, as {@code strerror} words it (what a Java message carries from the OS). */
    enum Fault {
        EIO("Input/output error"),
        ENOSPC("No space left on device"),
        EROFS("Read-only file system"),
        /** A write that reaches the disk only in part, then fails with EIO. */
        TORN_WRITE("Input/output error");

        final String reason;

        Fault(String reason) {
            this.reason = reason;
        }
    }

    /** Which operations count towards {@code failAt}. */
    enum Kind { MUTATION, READ }

    private final Kind kind;
    private final int failAt;
    private final Fault fault;
    private int mutations;
    private int reads;
    private final List<String> log = new ArrayList<>();
    private String failed;
    private Throwable failedAt;

    /** Fails the {@code failAt}-th (1-based) operation of {@code kind} with {@code fault}; 0 never fails. */
    FaultFs(Kind kind, int failAt, Fault fault) {
        super("faultfs://", FileSystems.getDefault());
        this.kind = kind;
        this.failAt = failAt;
        this.fault = fault;
    }

    /** A counting file system that never fails. */
    static FaultFs counting() {
        return new FaultFs(Kind.MUTATION, 0, Fault.EIO);
    }

    Path wrap(Path real) {
        return wrapPath(real.toAbsolutePath());
    }

    int mutations() {
        return mutations;
    }

    int reads() {
        return reads;
    }

    /** Every mutation, in order ({@code rename /a/b}, {@code write /a/c}, ...). */
    List<String> log() {
        return log;
    }

    /** The operation that failed, or null. */
    String failed() {
        return failed;
    }

    Fault fault() {
        return fault;
    }

    Kind kind() {
        return kind;
    }

    /** Where the failed operation was called from (for a test's message). */
    String failedStack() {
        if (failedAt == null) {
            return "";
        }
        java.io.StringWriter w = new java.io.StringWriter();
        failedAt.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    /** Counts one operation; returns true when it is the one to tear, throws when it is the one to fail. */
    private boolean tick(Kind k, String op, Object path) throws IOException {
        int n;
        if (k == Kind.MUTATION) {
            n = ++mutations;
            log.add(op + " " + path);
        } else {
            n = ++reads;
        }
        if (k != kind || n != failAt) {
            return false;
        }
        failed = op + " " + path;
        failedAt = new Throwable("the failed " + op);
        if (fault == Fault.TORN_WRITE && op.equals("write")) {
            return true;
        }
        throw new FileSystemException(String.valueOf(path), null, fault.reason);
    }

    private FileSystemException torn(Object path) {
        return new FileSystemException(String.valueOf(path), null, fault.reason);
    }

    private static boolean writes(Set<? extends OpenOption> options) {
        return options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND)
                || options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW)
                || options.contains(StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        tick(Kind.MUTATION, "mkdir", dir);
        super.createDirectory(dir, attrs);
    }

    @Override
    public void delete(Path path) throws IOException {
        tick(Kind.MUTATION, "delete", path);
        super.delete(path);
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        tick(Kind.MUTATION, "delete", path);
        return super.deleteIfExists(path);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        tick(Kind.MUTATION, "rename", source);
        super.move(source, target, options);
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        tick(Kind.MUTATION, "copy", target);
        super.copy(source, target, options);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        tick(Kind.MUTATION, "link", link);
        super.createLink(link, existing);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        tick(Kind.MUTATION, "setattr", path);
        super.setAttribute(path, attribute, value, options);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        if (writes(options)) {
            tick(Kind.MUTATION, "open", path);
        }
        return new Channel(delegate.newFileChannel(toDelegate(path), options, attrs), path);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                              FileAttribute<?>... attrs) throws IOException {
        return newFileChannel(path, options, attrs);
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> opts = options.length == 0
                ? Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)
                : Set.of(options);
        Set<OpenOption> withWrite = new java.util.HashSet<>(opts);
        withWrite.add(StandardOpenOption.WRITE);
        return java.nio.channels.Channels.newOutputStream(newFileChannel(path, withWrite));
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        return java.nio.channels.Channels.newInputStream(newFileChannel(path, EnumSet.of(StandardOpenOption.READ)));
    }

    /** A channel that counts and fails its writes, forces, truncations, reads and maps. */
    private final class Channel extends FilterFileChannel {
        private final Path path;

        Channel(FileChannel delegate, Path path) {
            super(delegate);
            this.path = path;
        }

        private int write(ByteBuffer src, long at, boolean positional) throws IOException {
            if (tick(Kind.MUTATION, "write", path)) {
                int half = Math.max(0, src.remaining() / 2);
                ByteBuffer part = src.duplicate();
                part.limit(part.position() + half);
                int n = positional ? delegate.write(part, at) : delegate.write(part);
                src.position(src.position() + n);
                throw torn(path);
            }
            return positional ? delegate.write(src, at) : delegate.write(src);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return write(src, -1, false);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return write(src, position, true);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long n = 0;
            for (int i = offset; i < offset + length; i++) {
                if (srcs[i].hasRemaining()) {
                    n += write(srcs[i]);
                    if (srcs[i].hasRemaining()) {
                        break;
                    }
                }
            }
            return n;
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            tick(Kind.MUTATION, "truncate", path);
            delegate.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            tick(Kind.MUTATION, "fsync", path);
            delegate.force(metaData);
        }

        @Override
        public long transferFrom(java.nio.channels.ReadableByteChannel src, long position, long count)
                throws IOException {
            if (tick(Kind.MUTATION, "write", path)) {
                delegate.transferFrom(src, position, count / 2);
                throw torn(path);
            }
            return delegate.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            tick(Kind.READ, "read", path);
            return delegate.read(dst);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            tick(Kind.READ, "read", path);
            return delegate.read(dst, position);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            tick(Kind.READ, "read", path);
            return delegate.read(dsts, offset, length);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            tick(Kind.READ, "map", path);
            return delegate.map(mode, position, size);
        }
    }
}
