package segtool.analyzers.recovery;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A transient failure of RECOVERY 7.3, typed: the file, the operation that failed ({@code list}, {@code stat},
 * {@code open}, {@code read}, {@code create}) with the server's error kind for it, and the operating system's reason
 * (e.g. "Too many levels of symbolic links" for ELOOP). Not a verdict about the bytes: the boot fails and is retried.
 */
public record IoFailure(Path path, String operation, String kind, String reason) {
    public static final String LIST = "list";
    public static final String STAT = "stat";
    public static final String OPEN = "open";
    public static final String READ = "read";
    public static final String CREATE = "create";

    /** {@code <path>: cannot read file metadata (stat): Too many levels of symbolic links}. */
    @Override
    public String toString() {
        return path + ": " + kind + " (" + operation + "): " + reason;
    }

    /**
     * The operating system's reason of {@code e}, without the path Java repeats in the message. Java names some
     * errors only by the exception's type; those get the operating system's words for them (EACCES, ENOENT, ...).
     */
    public static String reasonOf(Throwable e) {
        return segtool.formats.io.OsReason.of(e);
    }

    /** The server's error kind for an operation (7.3). */
    static String kindOf(String operation) {
        switch (operation) {
            case LIST:
                return "cannot read partitions";
            case STAT:
                return "cannot read file metadata";
            case CREATE:
                return "cannot write to file";
            default:
                return "cannot read file";
        }
    }

    static Raised raise(Path path, String operation, Throwable cause) {
        return new Raised(new IoFailure(path, operation, kindOf(operation),
                segtool.formats.io.OsReason.of(path, cause)), cause);
    }

    static Raised raise(Path path, String operation, String reason) {
        return new Raised(new IoFailure(path, operation, kindOf(operation), reason), null);
    }

    /** The exception that carries an {@link IoFailure} out of the passes. */
    public static final class Raised extends IOException {
        private final IoFailure failure;

        Raised(IoFailure failure, Throwable cause) {
            super(failure.toString(), cause);
            this.failure = failure;
        }

        public IoFailure failure() {
            return failure;
        }
    }
}
