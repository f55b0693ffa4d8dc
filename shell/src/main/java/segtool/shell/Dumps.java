package segtool.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import segtool.analyzers.archive.DumpReader;
import segtool.analyzers.archive.ManifestProblem;
import segtool.analyzers.archive.ManifestStatus;
import segtool.analyzers.archive.OpenedDump;

/**
 * Crash dumps (.tar, .tar.lz4, .tar.gz, .lz4) opened in place of a directory. An archive is extracted once per
 * process into a private temp directory (with size limits; hostile entries are refused) and removed at exit; the
 * interactive shell keeps it while it is open.
 */
final class Dumps {
    private static final Map<Path, OpenedDump> OPEN = new HashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Dumps::closeAll, "segtool-dump-cleanup"));
    }

    private Dumps() {
    }

    /** True when {@code path} is a regular file that is an archive rather than a segment file. */
    static boolean isArchive(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        String name = path.getFileName().toString();
        if (name.endsWith(".log") || name.endsWith(".index")) {
            return false;
        }
        if (name.endsWith(".tar") || name.endsWith(".tar.lz4") || name.endsWith(".tar.gz") || name.endsWith(".tgz")
                || name.endsWith(".lz4") || name.endsWith(".gz")) {
            return true;
        }
        byte[] head = new byte[512];
        int n;
        try (InputStream in = Files.newInputStream(path)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            return false;
        }
        boolean lz4 = n >= 4 && (head[0] & 0xFF) == 0x04 && (head[1] & 0xFF) == 0x22 && (head[2] & 0xFF) == 0x4D
                && (head[3] & 0xFF) == 0x18;
        boolean gzip = n >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B;
        boolean tar = n >= 262 && new String(head, 257, 5, java.nio.charset.StandardCharsets.US_ASCII).equals("ustar");
        return lz4 || gzip || tar;
    }

    /** The extracted root of {@code archive}, extracting it on first use; reports the manifest check on err. */
    static synchronized Path open(Path archive, PrintWriter err) throws IOException {
        Path key = archive.toAbsolutePath().normalize();
        OpenedDump dump = OPEN.get(key);
        if (dump == null) {
            dump = DumpReader.open(archive);
            OPEN.put(key, dump);
            ManifestStatus status = dump.manifestStatus();
            if (status.state() == ManifestStatus.State.MISMATCH) {
                err.println("segtool: warning: " + archive + ": the dump's manifest does not match its contents:");
                for (ManifestProblem p : ((ManifestStatus.Mismatch) status).problems()) {
                    err.println("  " + p);
                }
                err.flush();
            }
        }
        return dump.root();
    }

    static synchronized void closeAll() {
        for (OpenedDump d : OPEN.values()) {
            try {
                d.close();
            } catch (RuntimeException | IOException ignored) {
                // best effort at exit; the extraction sits in a private temp directory
            }
        }
        OPEN.clear();
    }
}
