package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 16.5: a FIFO, socket or device under a segment's name is refused by every command, with one line, without
 * being opened for reading (opening a FIFO blocks until a writer comes: {@code batches} used to hang). Inside a
 * partition it is an I/O error (exit 3); named directly as PATH it names nothing segtool can open (exit 64). The
 * timeout only turns a regression (a hang) into a failure.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpecialFilesTest {
    static final String REFUSAL = "not a regular file; segtool does not open it";

    @TempDir
    Path root;

    /** Replaces {@code file} by a special file of {@code kind}; returns what the refusal names it. */
    static String plant(Path file, String kind) throws Exception {
        Files.deleteIfExists(file);
        switch (kind) {
            case "fifo": {
                Process p = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
                Assumptions.assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "no mkfifo here");
                return "is a FIFO";
            }
            case "socket": {
                // a socket path is limited to 108 bytes: bind it short, then rename it into place
                Path shortPath = Path.of(System.getProperty("java.io.tmpdir"), "st-" + ProcessHandle.current().pid()
                        + "-" + System.nanoTime());
                try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                    s.bind(UnixDomainSocketAddress.of(shortPath));
                }
                Files.move(shortPath, file);
                return "is a socket";
            }
            default: {
                Path dev = Path.of("/dev/null");
                Assumptions.assumeTrue(Files.exists(dev), "no /dev/null here");
                Files.createSymbolicLink(file, dev);
                return "is a character device";
            }
        }
    }

    static List<String[]> cases() {
        List<String[]> out = new ArrayList<>();
        for (String kind : new String[]{"fifo", "socket", "device"}) {
            for (String role : new String[]{"log", "index"}) {
                out.add(new String[]{kind, role});
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} as the {1}")
    @MethodSource("cases")
    void aSpecialFileNamedLikeASegment_isRefusedByEveryCommand(String kind, String role) throws Exception {
        Partitions p = Partitions.healthy(root, "special-" + kind + "-" + role);
        Path target = role.equals("log") ? p.segment(0).log() : p.segment(0).index();
        String what = plant(target, kind);
        Path log = p.segment(0).log();
        Path index = p.segment(0).index();
        List<Object[]> inPartition = List.of(
                new Object[]{"scan", p.dir}, new Object[]{"scan", root},
                new Object[]{"explain", p.dir}, new Object[]{"segments", p.dir},
                new Object[]{"messages", p.dir}, new Object[]{"find", p.dir, "--offset", "0"},
                new Object[]{"stats", p.dir}, new Object[]{"repair", p.dir},
                new Object[]{"repair", p.dir, "--apply", "-y"}, new Object[]{"rebuild-index", p.dir},
                new Object[]{"salvage", p.dir, "-o", root.resolve("salvaged-" + kind + "-" + role)},
                new Object[]{"doctor", p.dir});
        for (Object[] args : inPartition) {
            Cli.Result r = Cli.run(args);
            check(r, 3, target, what, args);
            if (List.of("scan", "explain", "doctor", "repair", "rebuild-index").contains(args[0])) {
                // the report's line (stdout) is on stderr too, for a report sent to a file or a pipe
                assertTrue(r.err().lines().anyMatch(l -> l.startsWith("segtool: ") && l.contains(target + ": ")
                        && l.contains(what)), "the I/O error on stderr: " + r);
            }
        }
        // named directly: the special file itself is PATH (exit 64); its regular sibling leads to it (exit 3)
        Path other = role.equals("log") ? index : log;
        for (String command : new String[]{"batches", "index"}) {
            check(Cli.run(command, target), 64, target, what, new Object[]{command, target});
            check(Cli.run(command, other), 3, target, what, new Object[]{command, other});
        }
        assertTrue(Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS), "left in place");
        assertTrue(Files.notExists(root.resolve("salvaged-" + kind + "-" + role)), "no archive claims the partition");
    }

    private static void check(Cli.Result r, int exit, Path target, String what, Object[] args) throws IOException {
        String context = String.join(" ", java.util.Arrays.stream(args).map(String::valueOf).toList()) + ": " + r;
        assertTrue(r.exit() == exit, context);
        String all = (r.out() + r.err()).replaceAll("\\s+", " ");
        // the file once, then what it is: "<file>: is a FIFO, ..." or "<file>: cannot read file (read): is a FIFO, ..."
        // (it was "<file>: cannot read file (read): <file>: is a FIFO, ...", the path twice)
        assertTrue(all.contains(target.getFileName() + ": ") && all.contains(": " + what + ", " + REFUSAL), context);
        OsReasonTest.assertEachPathOnce(r.out() + r.err(), context, target);
        assertTrue(r.err().lines().count() <= 2, context);
    }
}
