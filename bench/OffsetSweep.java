import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * read(2) into a direct buffer at several offsets from a page boundary: why segtool's windows are page-aligned
 * (formats.io.DirectBuffers). {@code java bench/OffsetSweep.java FILE [WINDOW_BYTES] [ROUNDS]}; the file should be
 * cached. Prints GB/s per offset, best of ROUNDS passes over the whole file, one thread.
 */
public class OffsetSweep {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int window = args.length > 1 ? Integer.parseInt(args[1]) : 1 << 20;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int[] offsets = {0, 16, 32, 64, 512, 2048};
        try (FileChannel ch = FileChannel.open(file)) {
            long size = ch.size();
            ByteBuffer raw = ByteBuffer.allocateDirect(window + 8192);
            int past = raw.alignmentOffset(0, 4096);
            int page = past == 0 ? 0 : 4096 - past;
            System.out.printf("allocateDirect(%d) starts %d bytes past a page boundary%n", window + 8192, past);
            double[] best = new double[offsets.length];
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < offsets.length; k++) {
                    ByteBuffer b = raw.slice(page + offsets[k], window);
                    long t0 = System.nanoTime();
                    for (long pos = 0; pos < size; ) {
                        b.clear();
                        int n = ch.read(b, pos);
                        if (n <= 0) {
                            break;
                        }
                        pos += n;
                    }
                    best[k] = Math.max(best[k], size / (double) (System.nanoTime() - t0));
                }
            }
            for (int k = 0; k < offsets.length; k++) {
                System.out.printf("window %8d B, offset %5d: %6.2f GB/s%n", window, offsets[k], best[k]);
            }
        }
    }
}
