package segtool.analyzers.inputs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.io.LittleEndian;
import segtool.formats.io.RegularFile;
import segtool.formats.io.SegmentChannel;
import segtool.formats.legacy.LegacyMessage;
import segtool.formats.log.BatchHeader;
import segtool.formats.naming.SegmentFiles;

/**
 * Recognises a partition written by an Iggy build from before the batch format FORMAT.md specifies (issue 11, item
 * 7), so that it is refused with an explanation instead of being judged as damage: its logs hold bare messages with
 * 64-byte headers ({@link LegacyMessage}) and its index 16-byte entries.
 *
 * <p>A false recognition would replace the server's verdict on a damaged batch log by a refusal, so the evidence
 * must be positive and strong; a missed one only leaves the server's own verdict. All of these must hold:
 * <ul>
 * <li>the first segment's byte 0 is not a batch header that decodes (FORMAT 2.2), and no other segment's is;
 * <li>from byte 0, at least two older headers chain: each with a zero reserved word, a length inside the file, the
 * absolute offset one past the previous (the first at the segment's start offset), and a timestamp that reads as
 * microseconds between 2015 and 2100, never decreasing. Where a batch header's fields fall on those words, the
 * "timestamp" is its {@code batch_length} (at most a few hundred MiB), and where a frame's fall on them it is its
 * two length words, so neither passes for a timestamp; a single header (a torn first batch, zeroed bytes) is never
 * enough;
 * <li>an index of at least one entry is whole 16-byte entries whose first is relative offset 0 at position 0.
 * </ul>
 * Each header is read on its own (64 bytes at its position), so a large first message does not hide the next.
 */
public final class OlderGeneration {
    private static final int CHAIN = 4;
    /** 2015-01-01 and 2100-01-01 in microseconds since the epoch. */
    private static final long EARLIEST = 1_420_070_400_000_000L;
    private static final long LATEST = 4_102_444_800_000_000L;

    private OlderGeneration() {
    }

    /** The refusal line when the partition in {@code dir} is of the older generation, else null. */
    public static String sniff(Path dir) throws IOException {
        List<Long> starts = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, SegmentFiles.endingIn(SegmentFiles.LOG))) {
            for (Path p : s) {
                Long start = SegmentFiles.startOffsetOf(SegmentFiles.stemOf(p.getFileName().toString()));
                if (start != null) {
                    starts.add(start);
                }
            }
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return null;
        }
        if (starts.isEmpty()) {
            return null;
        }
        starts.sort(Long::compareUnsigned);
        long first = starts.get(0);
        Path log = SegmentFiles.log(dir, first);
        long pos = 0;
        int chained = 0;
        long expected = first;
        long lastTimestamp = EARLIEST;
        long size;
        try (SegmentChannel ch = open(log)) {
            if (ch == null) {
                return null; // the verdict commands report it
            }
            size = ch.size();
            if (startsWithBatch(ch)) {
                return null;
            }
            while (chained < CHAIN && pos <= size - LegacyMessage.HEADER) {
                int at = ch.at(pos, LegacyMessage.HEADER);
                ByteBuffer b = ch.buffer();
                long len = LegacyMessage.length(b, at);
                long ts = LegacyMessage.timestamp(b, at);
                if (len < 0 || LegacyMessage.offset(b, at) != expected || len > size - pos
                        || ts < lastTimestamp || ts >= LATEST) {
                    break;
                }
                lastTimestamp = ts;
                chained++;
                expected++;
                pos += len;
            }
        }
        if (chained < 2) {
            return null;
        }
        for (int i = 1; i < starts.size(); i++) {
            try (SegmentChannel other = open(SegmentFiles.log(dir, starts.get(i)))) {
                if (other != null && startsWithBatch(other)) {
                    return null; // a batch-format partition whose first segment is damaged
                }
            }
        }
        String indexSays = "";
        try (SegmentChannel index = open(SegmentFiles.index(dir, first))) {
            long n = index == null ? 0 : index.size();
            if (n > 0) {
                if (n % LegacyMessage.INDEX_ENTRY != 0) {
                    return null;
                }
                int at = index.at(0, LegacyMessage.INDEX_ENTRY);
                if (LittleEndian.u64(index.buffer(), at) != 0) {
                    return null;
                }
                indexSays = ", and its .index is " + n + " bytes, whole 16-byte entries of that generation";
            }
        }
        boolean whole = pos == size;
        return log + ": an older generation of the segment format: byte 0 starts messages with 64-byte headers "
                + "(offsets " + Long.toUnsignedString(first) + ".." + Long.toUnsignedString(expected - 1)
                + (whole ? "" : ", ...") + ") where FORMAT 2.2 puts a 256-byte batch header" + indexSays
                + "; segtool reads only the batch format and does not judge it (read it with the Iggy release that "
                + "wrote it)";
    }

    /** The file through the project's bounded reader, or null when it is missing or not a regular file. */
    private static SegmentChannel open(Path p) throws IOException {
        try {
            return SegmentChannel.open(p, BatchHeader.LENGTH);
        } catch (java.nio.file.NoSuchFileException | RegularFile.NotRegular absent) {
            return null;
        }
    }

    private static boolean startsWithBatch(SegmentChannel ch) throws IOException {
        if (ch.size() < BatchHeader.LENGTH) {
            return false;
        }
        int at = ch.at(0, BatchHeader.LENGTH);
        return BatchHeader.decodes(ch.buffer(), at);
    }
}
