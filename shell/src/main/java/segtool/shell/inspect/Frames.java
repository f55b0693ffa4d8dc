package segtool.shell.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.io.U64;
import segtool.formats.log.BatchHeader;
import segtool.formats.log.FrameHeader;
import segtool.shell.Cancelled;

/**
 * The frame walk of F 2.4 over one record, reading 48-byte frame headers one at a time through the reader's window,
 * so a record of any size costs the same memory. Stops at the first frame that does not fit and says why.
 */
public final class Frames {
    private Frames() {
    }

    /** One frame: where it starts in the log, its index in the batch, and its header. */
    public record Frame(int index, long position, FrameHeader header) {
        public long payloadPosition() {
            return position + FrameHeader.LENGTH;
        }

        public long userHeadersPosition() {
            return payloadPosition() + header.payloadLength();
        }

        public long end() {
            return position + header.frameLength();
        }
    }

    /** The frames read, and why the walk stopped early (null when the frames tile the blob exactly). */
    public record Walk(List<Frame> frames, String problem) {
    }

    public interface Visitor {
        /** Return false to stop early (e.g. once a display limit is reached). */
        boolean frame(Frame frame) throws IOException;
    }

    /** Walks the frames of the record at {@code at} (a header that fits), calling {@code visitor} for each. */
    public static String walk(LogReader reader, LogReader.At at, Visitor visitor) throws IOException {
        BatchHeader h = at.header();
        long end = at.position() + h.batchLength();
        long pos = at.position() + BatchHeader.LENGTH;
        int index = 0;
        while (pos < end) {
            Cancelled.check();
            if (end - pos < FrameHeader.LENGTH) {
                return "frame " + index + " header truncated at " + pos + " (" + (end - pos) + " bytes left in blob)";
            }
            int i = reader.window(pos, FrameHeader.LENGTH);
            ByteBuffer b = reader.buffer();
            FrameHeader f = FrameHeader.read(b, i);
            if (f.reserved() != 0) {
                return "frame " + index + " reserved bytes not zero at " + pos;
            }
            long frameEnd = pos + f.frameLength();
            if (frameEnd > end) {
                return "frame " + index + " at " + pos + " runs past the blob: ends at " + frameEnd
                        + ", blob ends at " + end;
            }
            if (!visitor.frame(new Frame(index, pos, f))) {
                return null;
            }
            index++;
            pos = frameEnd;
        }
        if (index != h.messageCount()) {
            return "message_count " + U64.str(h.messageCount()) + " but the blob holds " + index + " whole frames";
        }
        return null;
    }

    /** Collects at most {@code limit} frames. */
    public static Walk list(LogReader reader, LogReader.At at, int limit) throws IOException {
        List<Frame> out = new ArrayList<>();
        String problem = walk(reader, at, f -> {
            out.add(f);
            return out.size() < limit;
        });
        return new Walk(out, problem);
    }
}
