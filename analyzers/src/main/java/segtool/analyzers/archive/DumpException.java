package segtool.analyzers.archive;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An archive that segtool refuses to pack or open, in one line: the archive, the entry when there is one, where,
 * and why. {@code dump.tar: entry '1/../../etc/passwd' at byte 1536: path has a '..' component}. For a compressed
 * archive the position is the offset in the decompressed tar stream, followed by the number of compressed bytes
 * consumed so far (approximate, the decompressor reads ahead).
 */
public final class DumpException extends IOException {
    private static final int MAX_NAME_CHARS = 160;
    private static final int MAX_REASON_CHARS = 480;

    private final Path archive;
    private final String entry;
    private final long tarPosition;
    private final long archivePosition;
    private final String reason;

    /**
     * @param entry           entry name as stored, or null when the problem is not about one entry
     * @param tarPosition     offset in the (decompressed) tar stream, or -1
     * @param archivePosition compressed bytes consumed, or -1 when the archive is not compressed or it is unknown
     */
    public DumpException(Path archive, String entry, long tarPosition, long archivePosition, String reason,
                         Throwable cause) {
        super(format(archive, entry, tarPosition, archivePosition, reason), cause);
        this.archive = archive;
        this.entry = entry;
        this.tarPosition = tarPosition;
        this.archivePosition = archivePosition;
        this.reason = reason;
    }

    public DumpException(Path archive, String reason) {
        this(archive, null, -1, -1, reason, null);
    }

    public DumpException(Path archive, String reason, Throwable cause) {
        this(archive, null, -1, -1, reason, cause);
    }

    public Path archive() {
        return archive;
    }

    /** The entry name as stored in the archive (unescaped), or null. */
    public String entry() {
        return entry;
    }

    public long tarPosition() {
        return tarPosition;
    }

    public long archivePosition() {
        return archivePosition;
    }

    public String reason() {
        return reason;
    }

    private static String format(Path archive, String entry, long tarPosition, long archivePosition, String reason) {
        StringBuilder s = new StringBuilder().append(archive);
        if (entry != null) {
            s.append(": entry '").append(printable(entry)).append('\'');
        }
        if (tarPosition >= 0) {
            s.append(" at ").append(archivePosition >= 0 ? "tar byte " : "byte ")
                    .append(tarPosition);
            if (archivePosition >= 0) {
                s.append(" (archive byte ~").append(archivePosition).append(')');
            }
        } else if (archivePosition >= 0) {
            s.append(" at archive byte ~").append(archivePosition);
        }
        return s.append(": ").append(printable(reason, MAX_REASON_CHARS)).toString();
    }

    /** Keeps the message on one line whatever a hostile name holds, and short whatever its length. */
    static String printable(String text) {
        return printable(text, MAX_NAME_CHARS);
    }

    private static String printable(String text, int max) {
        StringBuilder s = new StringBuilder(Math.min(text.length(), max * 2));
        int shown = Math.min(text.length(), max);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                s.append(String.format("\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        if (shown < text.length()) {
            s.append("...(").append(text.length()).append(" chars)");
        }
        return s.toString();
    }
}
