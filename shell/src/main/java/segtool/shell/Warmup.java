package segtool.shell;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;

/**
 * Compiles the verification path while the command line is being built. A one-shot JVM spends its first few hundred
 * milliseconds building picocli's model on one core; meanwhile this daemon thread verifies a synthetic record on
 * another, so that by the time a scan reaches real batches the checksum loops are already compiled. It reads no
 * files and its result is discarded. Measured on a cached 1 GiB segment: see bench/scan-vs-xxhsum.sh.
 */
final class Warmup {
    private static final int ROUNDS = 96;

    private Warmup() {
    }

    static void start(String[] args) {
        if (args.length == 0 || args[0].startsWith("-") || Runtime.getRuntime().availableProcessors() < 2) {
            return;
        }
        Thread t = new Thread(Warmup::run, "segtool-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    private static void run() {
        try {
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                messages.add(Message.of(i + 1, new byte[16 * 1024 - 48]));
            }
            byte[] record = RecordEncoder.encode(1, 0, 1, 1, messages);
            ByteBuffer direct = ByteBuffer.allocateDirect(record.length);
            direct.put(record).clear();
            try (RecordVerifier verifier = new RecordVerifier()) {
                for (int i = 0; i < ROUNDS; i++) {
                    verifier.verify(direct, 0, record.length, 0);
                }
            }
        } catch (Exception | Error ignored) {
            // only ever a speed-up
        }
    }
}
