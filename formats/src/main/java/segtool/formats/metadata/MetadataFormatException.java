package segtool.formats.metadata;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A metadata file that cannot be read as METADATA.md specifies it: one line naming the file, the byte position and
 * the reason. {@link #unsettled()} marks a case METADATA.md 8 leaves open (the reader refuses rather than guesses).
 */
public final class MetadataFormatException extends IOException {
    private final Path file;
    private final long position;
    private final String reason;
    private final boolean unsettled;

    public MetadataFormatException(Path file, long position, String reason) {
        this(file, position, reason, false);
    }

    public MetadataFormatException(Path file, long position, String reason, boolean unsettled) {
        super(file + " @ " + position + ": " + oneLine(reason), null);
        this.file = file;
        this.position = position;
        this.reason = oneLine(reason);
        this.unsettled = unsettled;
    }

    public Path file() {
        return file;
    }

    public long position() {
        return position;
    }

    public String reason() {
        return reason;
    }

    public boolean unsettled() {
        return unsettled;
    }

    /** The reason with control characters (bytes quoted from the file) written as {@code \xNN}: one line. */
    private static String oneLine(String reason) {
        if (reason == null || reason.chars().noneMatch(c -> c < 0x20 || c == 0x7f)) {
            return reason;
        }
        StringBuilder sb = new StringBuilder(reason.length() + 8);
        for (char c : reason.toCharArray()) {
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
