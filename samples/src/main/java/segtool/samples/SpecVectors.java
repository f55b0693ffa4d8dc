package segtool.samples;

import java.io.IOException;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.writer.PartitionWriter;

/**
 * The messages and timestamps of FORMAT.md section 8 vectors A, B and C. Appended in order through a
 * {@link PartitionWriter} of partition 1 starting at offset 0, they give the records A (315 bytes at 0), B (467 at
 * 315) and C (363 at 782) byte for byte, so the worked examples of RECOVERY.md section 10 apply to the samples.
 */
final class SpecVectors {
    static final long TA = segtool.formats.SpecVectors.TA;
    static final long TB = segtool.formats.SpecVectors.TB;
    static final long TC = segtool.formats.SpecVectors.TC;

    private SpecVectors() {
    }

    /** Vector A: one message, {@code hello, iggy}, no user headers. Offset 0 when appended first. */
    static void appendA(PartitionWriter w) throws IOException {
        w.append(segtool.formats.SpecVectors.messagesA(), TA, segtool.formats.SpecVectors.ORIGIN_A);
    }

    /** Vector B: three messages with String, Bool and Uint32 user headers. Offsets 1-3 after A. */
    static void appendB(PartitionWriter w) throws IOException {
        w.append(segtool.formats.SpecVectors.messagesB(), TB, segtool.formats.SpecVectors.ORIGIN_B);
    }

    /** Vector C: one LZ4-framed payload tagged {@code iggy-compression: lz4}. Offset 4 after A and B. */
    static void appendC(PartitionWriter w) throws IOException {
        appendC(w, TC);
    }

    /** Vector C's message stamped with another base timestamp (and the same 56-microsecond origin lead). */
    static void appendC(PartitionWriter w, long baseTimestamp) throws IOException {
        w.append(List.of(cMessage()), baseTimestamp, baseTimestamp - 56);
    }

    static Message cMessage() {
        return segtool.formats.SpecVectors.messagesC().get(0);
    }
}
