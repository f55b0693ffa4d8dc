import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;

/**
 * Writes a partition whose log is one valid batch followed by RESIDUE_MIB of residue crafted to be slow: a
 * plausible header every 256 bytes, each claiming an 8 KiB record that overlaps the next ones (the shape of
 * RECOVERY.md section 10's budget example, scaled up). Run with the segtool jar on the class path:
 * {@code java -cp shell/target/segtool.jar bench/CraftResidue.java DIR RESIDUE_MIB}
 */
public class CraftResidue {
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long residue = Long.parseLong(args[1]) << 20;
        Files.createDirectories(dir);
        byte[] valid = RecordEncoder.encode(1, 0, 1_700_000_000_000_000L, 1_700_000_000_000_000L,
                List.of(Message.of(1, new byte[24]), Message.of(2, new byte[24])));
        try (OutputStream out = Files.newOutputStream(dir.resolve("00000000000000000000.log"))) {
            out.write(valid);
            ByteBuffer h = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
            for (long k = 0; k < residue / 256; k++) {
                h.clear();
                h.put(new byte[256]);
                h.putLong(8, 100).putLong(32, 8192).putInt(48, 1 + (int) (k % 64));
                out.write(h.array());
            }
        }
        System.out.println(dir + ": 400-byte record + " + residue + " bytes of crafted residue");
    }
}
