package segtool.analyzers.archive;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.log.Defect;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;

/**
 * The child JVM of {@link HostileEnvironmentTest#checksumSpillGoesUnderTmpdir}: verifies one record of 140,000 empty
 * messages, whose 1.1 MB of frame checksums spill to a temporary file, and prints {@code VERIFIED <defect>} or
 * {@code FAILED <message>}.
 */
public final class SpillChild {
    private SpillChild() {
    }

    public static void main(String[] args) {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 140_000; i++) {
            messages.add(Message.of(i, new byte[0]));
        }
        byte[] record = RecordEncoder.encode(1, 0, 1, 0, messages);
        try (RecordVerifier v = new RecordVerifier()) {
            Defect d = v.verify(ByteBuffer.wrap(record), 0, record.length, 0);
            System.out.println("VERIFIED " + d);
        } catch (Exception e) {
            System.out.println("FAILED " + e.getMessage());
        }
    }
}
