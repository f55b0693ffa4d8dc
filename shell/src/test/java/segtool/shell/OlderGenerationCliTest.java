package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 7, black-box: a partition of the generation before the batch format gets no verdict from scan,
 * explain or repair, but one line saying what it is (exit 3, segtool cannot decide), and nothing on disk changes.
 */
class OlderGenerationCliTest {
    @TempDir
    Path root;

    static byte[] olderLog(int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            byte[] payload = ("old message " + i).getBytes();
            ByteBuffer b = ByteBuffer.allocate(64 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
            b.putLong(i * 977L).putLong(i + 1).putLong(0).putLong(i).putLong(1_600_000_000_000_000L + i)
                    .putLong(1_600_000_000_000_000L).putInt(0).putInt(payload.length).putLong(0).put(payload);
            out.writeBytes(b.array());
        }
        return out.toByteArray();
    }

    @Test
    void everyVerdictCommandRefusesWithOneLine() throws Exception {
        Path p = root.resolve("streams/1/topics/1/partitions/1");
        Files.createDirectories(p);
        Path log = p.resolve("00000000000000000000.log");
        byte[] bytes = olderLog(6);
        Files.write(log, bytes);
        Files.write(p.resolve("00000000000000000000.index"), new byte[32]);
        for (String command : new String[] {"scan", "explain", "repair"}) {
            Cli.Result r = Cli.run(command, p);
            assertEquals(3, r.exit(), command + ": " + r);
            String said = (r.out() + r.err()).replaceAll("\\s+", " "); // explain folds long lines
            assertTrue(said.contains(log + ": an older generation of the segment format"), command + ": " + r);
            assertTrue(said.contains("its .index is 32 bytes"), command + ": " + r);
            assertTrue(!said.contains("I/O error"), command + " does not call it an I/O error: " + r);
        }
        Cli.Result json = Cli.run("scan", "--json", p);
        assertEquals(3, json.exit(), json.toString());
        assertTrue(json.out().replaceAll("\\s+", "").contains("\"inputs_refusal\":{\"kind\":\"undecided\""),
                json.out());
        assertEquals(java.util.Arrays.toString(bytes), java.util.Arrays.toString(Files.readAllBytes(log)));
        try (var s = Files.list(p)) {
            assertEquals(2, s.count());
        }
    }
}
