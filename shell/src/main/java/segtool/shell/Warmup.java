package segtool.shell;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import segtool.formats.log.Message;
import segtool.formats.log.RecordEncoder;
import segtool.formats.log.RecordVerifier;

/**
 * Compiles the verification path ahead of a large read. A daemon thread on the idle core verifies a synthetic record,
 * so that by the time a scan reaches real batches the checksum loops are already compiled; it reads no segment
 * bytes and its result is discarded. It costs 0.1-0.15 CPU-seconds, which only a large input pays back: the thread
 * first adds up the sizes of the {@code .log} files under the command's path arguments and warms up only when they
 * reach {@link #WORTH} (or there are too many files to count cheaply). Measured: bench/scan-vs-xxhsum.sh (a cached
 * 1 GiB segment) and bench/startup.sh (a tiny one, where it used to cost a quarter of the process's CPU).
 */
final class Warmup implements Runnable {
    /** Log bytes below which verifying them interpreted costs less than compiling the loops first. */
    static final long WORTH = 64L << 20;
    /** Directory entries looked at before the input counts as large without adding up the rest. */
    private static final int MAX_ENTRIES = 4096;
    private static final int ROUNDS = 96;

    private final String[] args;
    private int entries;

    private Warmup(String[] args) {
        this.args = args;
    }

    static void start(String[] args) {
        if (!wanted(args)) {
            return;
        }
        Thread t = new Thread(new Warmup(args), "segtool-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /**
     * Whether to start the thread for {@code args}: a command that verifies, a second processor, and no
     * {@code -Dsegtool.warmup=no}, which the launcher passes when it has already added up the input and found it under
     * {@link #WORTH} (the thread, which would only count the same files again, is then not even started).
     */
    static boolean wanted(String[] args) {
        return candidate(args) && Runtime.getRuntime().availableProcessors() >= 2
                && !"no".equals(System.getProperty("segtool.warmup"));
    }

    /** Whether {@code args} name a command that verifies, with at least one argument. */
    private static boolean candidate(String[] args) {
        return args.length >= 2 && !args[0].startsWith("-") && reads(args[0]);
    }

    /** Whether {@code args} would warm up: a command that verifies, over input of at least {@link #WORTH}. */
    static boolean isLarge(String[] args) {
        return candidate(args) && new Warmup(args).large();
    }

    /** Whether {@code command} verifies batches (the others never run the loops this compiles). */
    private static boolean reads(String command) {
        return switch (command) {
            case "help", "generate-completion", "shell", "sample", "segments", "index", "hexdump", "restore" -> false;
            default -> true;
        };
    }

    @Override
    public void run() {
        try {
            if (large()) {
                verifySynthetic();
            }
        } catch (Exception | Error ignored) {
            // only ever a speed-up
        }
    }

    /** Whether the {@code .log} files under the path arguments add up to {@link #WORTH}. */
    private boolean large() {
        long total = 0;
        for (int i = 1; i < args.length && total < WORTH; i++) {
            if (!args[i].startsWith("-")) {
                try {
                    total += logBytes(Path.of(args[i]), true, WORTH - total);
                } catch (InvalidPathException | IOException | SecurityException e) {
                    // not a path (an option's value); counts nothing
                }
            }
        }
        return total >= WORTH;
    }

    /**
     * The bytes of {@code p} if it is a file named on the command line or a {@code .log} file, or of the {@code .log}
     * files under it; {@code enough} once that much is found or there are too many entries to look at.
     */
    private long logBytes(Path p, boolean named, long enough) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isRegularFile()) {
            return named || p.getFileName().toString().endsWith(".log") ? a.size() : 0;
        }
        if (!a.isDirectory()) {
            return 0;
        }
        long total = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(p)) {
            for (Path child : dir) {
                if (++entries > MAX_ENTRIES) {
                    return enough;
                }
                total += logBytes(child, false, enough - total);
                if (total >= enough) {
                    break;
                }
            }
        }
        return total;
    }

    private static void verifySynthetic() throws IOException {
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
    }
}
