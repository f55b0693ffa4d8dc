import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;

/**
 * Writes a partition whose log is one valid batch followed by RESIDUE_MIB of residue crafted to make the damage
 * probe (RECOVERY.md 4.7) work hard. Run with the segtool jar on the class path:
 * {@code java -cp shell/target/segtool.jar bench/CraftResidue.java DIR RESIDUE_MIB SHAPE}, SHAPE one of:
 * <ul>
 *   <li>{@code overlap}: a plausible header every 256 bytes claiming an 8 KiB record (section 10's budget example,
 *   scaled up): the verification budget runs out and the probe refuses UnverifiedResidue;</li>
 *   <li>{@code badsum}: back-to-back 64 KiB records whose batch checksum is wrong: every record is a candidate that
 *   must be verified in full (each fails only at its batch checksum) and every byte is a candidate;</li>
 *   <li>{@code zeros}: zero bytes: every byte is a candidate and none decodes.</li>
 * </ul>
 */
public class CraftResidue {
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long residue = Long.parseLong(args[1]) << 20;
        String shape = args.length > 2 ? args[2] : "overlap";
        Files.createDirectories(dir);
        byte[] valid = RecordEncoder.encode(1, 0, 1_700_000_000_000_000L, 1_700_000_000_000_000L,
                List.of(Message.of(1, new byte[24]), Message.of(2, new byte[24])));
        try (OutputStream out = Files.newOutputStream(dir.resolve("00000000000000000000.log"))) {
            out.write(valid);
            long written = 0;
            if (shape.equals("overlap")) {
                ByteBuffer h = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
                for (long k = 0; k < residue / 256; k++) {
                    h.clear();
                    h.put(new byte[256]);
                    h.putLong(8, 100).putLong(32, 8192).putInt(48, 1 + (int) (k % 64));
                    out.write(h.array());
                }
            } else if (shape.equals("badsum")) {
                long offset = 100;
                while (written + 65536 <= residue) {
                    List<Message> m = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        m.add(Message.of(offset + i, new byte[(65536 - 256) / 4 - 48]));
                    }
                    byte[] r = RecordEncoder.encode(1, offset, 1_700_000_000_000_000L + offset, 0, m);
                    r[40] ^= 1;
                    out.write(r);
                    written += r.length;
                    offset += 4;
                }
            } else {
                byte[] zeros = new byte[1 << 20];
                for (; written < residue; written += zeros.length) {
                    out.write(zeros);
                }
            }
        }
        System.out.println(dir + ": 400-byte record + " + residue + " bytes of " + shape + " residue");
    }
}
