package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import segtool.formats.io.RegularFile;
import segtool.formats.legacy.LegacyMessage;
import segtool.formats.log.BatchHeader;
import segtool.formats.naming.SegmentFiles;

/**
 * Recognises a partition written by an Iggy build from before the batch format FORMAT.md specifies (issue 11, item
 * 7), so that it is refused with an explanation instead of being judged as damage: its logs hold bare messages with
 * 64-byte headers ({@link LegacyMessage}) and its index 16-byte entries.
 *
 * <p>The evidence must be positive: the first segment's byte 0 is not a batch header that decodes (FORMAT 2.2), and
 * from byte 0 at least two older-generation headers chain, each with a zero reserved word, lengths inside the file
 * and consecutive absolute offsets starting at the segment's start offset (or a single one that fills the file
 * exactly). Damage does not produce that chain; a batch log cannot (its reserved bytes 52-256 are zero, so a second
 * header would carry offset 0). Only the first {@value #WINDOW} bytes are read.
 */
public final class OlderGeneration {
    static final int WINDOW = 64 << 10;
    private static final int CHAIN = 4;

    private OlderGeneration() {
    }

    /** The refusal line when the partition in {@code dir} is of the older generation, else null. */
    public static String sniff(Path dir) throws IOException {
        Long first = null;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*" + SegmentFiles.LOG)) {
            for (Path p : s) {
                Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(p.getFileName().toString()));
                if (start != null && (first == null || Long.compareUnsigned(start, first) < 0)) {
                    first = start;
                }
            }
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return null;
        }
        if (first == null) {
            return null;
        }
        Path log = SegmentFiles.log(dir, first);
        try {
            RegularFile.require(log);
        } catch (IOException notRegular) {
            return null; // the verdict commands report it
        }
        long size;
        ByteBuffer b = ByteBuffer.allocate(WINDOW);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            size = ch.size();
            while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
                // fill the window
            }
        }
        b.flip();
        int have = b.limit();
        if (have < LegacyMessage.HEADER || have >= BatchHeader.LENGTH && BatchHeader.decodes(b, 0)) {
            return null;
        }
        long pos = 0;
        int chained = 0;
        long expected = first;
        while (chained < CHAIN && pos + LegacyMessage.HEADER <= have) {
            int at = (int) pos;
            long len = LegacyMessage.length(b, at);
            if (len < 0 || LegacyMessage.offset(b, at) != expected || pos + len > size) {
                break;
            }
            chained++;
            expected++;
            pos += len;
            if (pos == size) {
                break;
            }
        }
        boolean whole = pos == size;
        if (chained < 2 && !(chained == 1 && whole)) {
            return null;
        }
        StringBuilder line = new StringBuilder(log + ": an older generation of the segment format: byte 0 starts "
                + "messages with 64-byte headers (offsets " + Long.toUnsignedString(first) + ".."
                + Long.toUnsignedString(expected - 1) + (whole ? "" : ", ...") + ") where FORMAT 2.2 puts a 256-byte "
                + "batch header");
        Path index = SegmentFiles.index(dir, first);
        if (Files.isRegularFile(index)) {
            long n = Files.size(index);
            if (n > 0 && n % LegacyMessage.INDEX_ENTRY == 0 && n % segtool.formats.index.IndexEntry.LENGTH != 0) {
                line.append(", and its .index is ").append(n).append(" bytes, whole 16-byte entries of that "
                        + "generation");
            }
        }
        return line.append("; segtool reads only the batch format and does not judge it (it is not damage: read "
                + "it with the Iggy release that wrote it)").toString();
    }
}
