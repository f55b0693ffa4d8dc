package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14.12: an I/O error names the file and the operating system's reason ("Permission denied", "is a
 * directory", "not a segment file"), in one line, in every command. Root reads everything, so when the suite runs as
 * root an unreadable file is tried by the same classes run as the unprivileged user nobody (setpriv), from a copy of
 * the class path that user can read; without setpriv the permission cases are skipped with a message.
 */
class OsReasonTest {
    @TempDir
    static Path root;

    static Path classpath;
    static Partitions p;

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    @BeforeAll
    static void build() throws Exception {
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        p = Partitions.healthy(root, "node");
        if (isRoot()) {
            classpath = Files.createDirectories(root.resolve("cp"));
            int i = 0;
            List<String> entries = new ArrayList<>();
            for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path src = Path.of(e);
                Path dst = classpath.resolve(i++ + "-" + src.getFileName());
                if (Files.isDirectory(src)) {
                    Partitions.copyTree(src, dst);
                } else if (Files.exists(src)) {
                    Files.copy(src, dst);
                }
                entries.add(dst.toString());
            }
            Files.writeString(classpath.resolve("path"), String.join(File.pathSeparator, entries));
            try (var walk = Files.walk(classpath)) {
                for (Path f : (Iterable<Path>) walk::iterator) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(Files.isDirectory(f)
                            ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
            for (Path d = p.dir; !d.equals(root); d = d.getParent()) {
                Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            try (var walk = Files.list(p.dir)) {
                for (Path f : (Iterable<Path>) walk::iterator) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(Files.isDirectory(f)
                            ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
    }

    /** segtool as an unprivileged user: in this JVM when the suite is not root, else a child under setpriv. */
    static Cli.Result unprivileged(Object... args) throws Exception {
        if (!isRoot()) {
            return Cli.run(args);
        }
        Path setpriv = Path.of("/usr/bin/setpriv");
        Assumptions.assumeTrue(Files.isExecutable(setpriv), "running as root without setpriv: the permission "
                + "cases need an unprivileged user");
        List<String> cmd = new ArrayList<>(List.of(setpriv.toString(), "--reuid=65534", "--regid=65534",
                "--clear-groups", ProcessHandle.current().info().command().orElse("java"), "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-cp", Files.readString(classpath.resolve("path")),
                "segtool.shell.Main"));
        for (Object a : args) {
            cmd.add(String.valueOf(a));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().put("TMPDIR", root.toString());
        Process proc = pb.start();
        proc.getOutputStream().close();
        byte[] out = proc.getInputStream().readAllBytes();
        byte[] err = proc.getErrorStream().readAllBytes();
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS), "the child ended");
        return new Cli.Result(proc.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void anUnreadableSegment_isPermissionDenied_inEveryCommand() throws Exception {
        Path log = p.segment(1).log();
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("---------"));
        try {
            String start = Long.toString(p.segment(1).startOffset());
            Object[][] runs = {
                {"scan", p.dir}, {"explain", p.dir}, {"segments", p.dir}, {"stats", p.dir},
                {"messages", p.dir, "--offset", "130", "--limit", "1"}, {"find", p.dir, "--offset", "200"}, {"batches", p.dir.resolve(start)},
                {"hexdump", log, "0"}, {"repair", p.dir},
            };
            for (Object[] run : runs) {
                Cli.Result r = unprivileged(run);
                String all = (r.out() + r.err()).toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
                assertTrue(r.exit() == 3, run[0] + ": " + r);
                assertTrue(all.contains(log.getFileName() + ": ") && all.contains("permission denied"),
                        run[0] + ": names the file and the reason: " + r);
                assertTrue(!all.contains("accessdenied") && !r.err().contains("\tat "), run[0] + ": " + r);
                assertTrue(r.err().lines().count() <= 2, run[0] + ": " + r);
            }
        } finally {
            Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    @Test
    void anUnreadablePartitionDirectory_isPermissionDenied() throws Exception {
        Files.setPosixFilePermissions(p.dir, PosixFilePermissions.fromString("---------"));
        try {
            for (String command : new String[]{"scan", "segments", "messages"}) {
                Cli.Result r = unprivileged(command, p.dir);
                String all = (r.out() + r.err()).toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
                assertTrue(r.exit() == 3 || r.exit() == 64, command + ": " + r);
                assertTrue(all.contains(p.dir.getFileName() + ": ") && all.contains("permission denied"),
                        command + ": " + r);
                assertTrue(!r.err().contains("\tat "), command + ": " + r);
            }
        } finally {
            Files.setPosixFilePermissions(p.dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void theWrongKindOfFile_isNamed() throws Exception {
        Path notes = Files.writeString(root.resolve("notes.txt"), "not a segment\n");
        Cli.Result r = Cli.run("batches", notes);
        assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
        assertEquals("segtool: " + notes + ": not a segment file (expected <start offset>.log or .index)",
                r.err().lines().findFirst().orElse(""), r.toString());
        Path dir = Files.createDirectories(p.dir.resolve("00000000000000099999.log"));
        try {
            Cli.Result d = Cli.run("scan", p.dir);
            assertEquals(3, d.exit(), d.toString());
            String all = d.out() + d.err();
            assertTrue(all.contains("00000000000000099999.log: ") && all.contains(": is a directory, not a regular file"),
                    d.toString());
            assertEachPathOnce(all, "scan", dir);
        } finally {
            Files.delete(dir);
        }
    }

    /**
     * The first segment's .log unreadable (the older-generation sniff and every reader open it first): repair and
     * rebuild-index said "cannot read the inputs: java.nio.file.AccessDeniedException: <file>", collect, compare and
     * salvage "cannot read file: <file>" (the path twice, no reason). Each names the file and "Permission denied".
     */
    @Test
    void anUnreadableFirstLog_isPermissionDenied_notAnExceptionName() throws Exception {
        Path log = p.segment(0).log();
        Path out = Files.createDirectories(root.resolve("out-first-log"));
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("---------"));
        try {
            Object[][] runs = {
                {"scan", p.dir}, {"repair", p.dir}, {"rebuild-index", p.dir}, {"collect", p.dir, "-o",
                    out.resolve("m.ndjson")}, {"compare", p.dir, p.dir}, {"salvage", p.dir, "-o", out.resolve("s")},
            };
            for (Object[] run : runs) {
                Cli.Result r = unprivileged(run);
                String all = (r.out() + r.err()).replaceAll("\\s+", " ");
                // collect writes the manifest whole and says it is incomplete (23); the others stop with 3
                assertEquals(run[0].equals("collect") ? ExitCodes.INCOMPLETE : 3, r.exit(), run[0] + ": " + r);
                assertTrue(all.contains(log.getFileName() + ": ") && all.contains("Permission denied"),
                        run[0] + ": names the file and the reason: " + r);
                assertTrue(!all.contains("Exception") && !r.err().contains("\tat "), run[0] + ": " + r);
                assertTrue(!all.contains("cannot read file: " + log), run[0] + ": the path is not the reason: " + r);
            }
        } finally {
            Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /**
     * collect with an unreadable .index: the engine's verdict is io_error, and collect used to write that into the
     * manifest and exit 0, so a runbook took the collection as complete. Now: the manifest is written whole, one
     * line names the file and "Permission denied", a summary line follows, and the exit code is 23.
     */
    @Test
    void collect_anUnreadableIndex_writesTheManifest_andExits23() throws Exception {
        Path index = p.segment(1).index();
        Path out = Files.createDirectories(root.resolve("out-index"));
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path manifest = out.resolve("m.ndjson");
        Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("---------"));
        try {
            Cli.Result r = unprivileged("collect", p.dir, "-o", manifest);
            assertEquals(ExitCodes.INCOMPLETE, r.exit(), r::toString);
            List<String> err = r.err().lines().toList();
            assertEquals(2, err.size(), r::toString);
            assertTrue(err.get(0).startsWith("segtool: " + index + ": cannot read file")
                    && err.get(0).endsWith(": Permission denied"), r::toString);
            assertEquals("segtool: " + manifest + ": written, but incomplete: 1 file could not be read; 1 partition "
                    + "is recorded as io_error (exit 23)", err.get(1), r::toString);
            var m = segtool.analyzers.replica.ManifestJson.read(manifest);
            assertEquals(1, m.partitions().size());
            assertEquals("io_error", m.partitions().get(0).verdict().outcome());
            assertEquals(p.segments.size(), m.partitions().get(0).segments().size(), "every .log is still hashed");
        } finally {
            Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /**
     * A symlink loop as the first .log: the reason is the OS's words, never "java.nio.file.FileSystemException", and
     * every command says it on stderr too (scan, explain and doctor said it only on stdout, as inputs that cannot be
     * read; segments listed it as a name that does not exist and exited 1).
     */
    @Test
    void aSymlinkLoopAsTheFirstLog_isNamedWithTheOsReason() throws Exception {
        Partitions q = Partitions.healthy(root, "loop");
        Path log = q.segment(0).log();
        Files.delete(log);
        Files.createSymbolicLink(log, log.getFileName());
        for (String command : new String[]{"scan", "explain", "repair", "rebuild-index", "doctor", "segments",
            "stats"}) {
            Cli.Result r = Cli.run(command, q.dir);
            String all = (r.out() + r.err()).replaceAll("\\s+", " ");
            assertEquals(3, r.exit(), command + ": " + r);
            assertTrue(all.contains(log.getFileName() + ": Too many levels of symbolic links"), command + ": " + r);
            assertTrue(r.err().lines().anyMatch(l -> l.startsWith("segtool: ") && l.contains(log + ": Too many levels "
                    + "of symbolic links")), "on stderr: " + command + ": " + r);
            assertTrue(!all.contains("Exception") && !r.err().contains("\tat "), command + ": " + r);
        }
        assertTrue(Files.isSymbolicLink(log), "left as it was");
    }

    /** sample into a file: the OUT given, once, with the OS's reason (it named OUT/healthy, a path below it). */
    @Test
    void sampleIntoAFile_namesTheOutGiven() throws Exception {
        Path file = Files.writeString(root.resolve("sample-out.txt"), "x\n");
        Cli.Result r = Cli.run("sample", file);
        assertEquals(ExitCodes.IO_ERROR, r.exit(), r.toString());
        assertEquals("segtool: " + file + ": Not a directory\n", r.err(), r.toString());
        assertEquals("x\n", Files.readString(file));
    }

    /** No line of {@code text} names one of {@code paths} twice (as {@code <path>: }). */
    static void assertEachPathOnce(String text, String where, Path... paths) {
        for (String line : text.split("\n")) {
            for (Path p : paths) {
                String named = p + ": ";
                int first = line.indexOf(named);
                assertTrue(first < 0 || line.indexOf(named, first + 1) < 0, where + ": " + p + " twice in: " + line);
            }
        }
    }

    /**
     * A directory where a segment's .log should be, and an unreadable first .log: the partition's and the file's
     * paths each once per line. repair and rebuild-index said "segtool: P: not repaired: P: cannot read the inputs:
     * ..." and every judging command "P/0.log: cannot read file (read): P/0.log: is a directory, ...".
     */
    @Test
    void aSegmentThatCannotBeRead_isNamedOncePerLine() throws Exception {
        Partitions q = Partitions.healthy(root, "dirlog");
        Path log = q.segment(0).log();
        Files.delete(log);
        Files.createDirectory(log);
        Path out = Files.createDirectories(root.resolve("out-dirlog"));
        Object[][] runs = {
            {"scan", q.dir}, {"explain", q.dir}, {"segments", q.dir}, {"stats", q.dir}, {"repair", q.dir},
            {"rebuild-index", q.dir}, {"messages", q.dir, "--offset", "0"}, {"find", q.dir, "--offset", "0"},
            {"salvage", q.dir, "-o", out.resolve("s")}, {"compare", q.dir, q.dir}, {"doctor", q.dir},
            {"collect", q.dir, "-o", out.resolve("m.ndjson")},
        };
        for (Object[] run : runs) {
            Cli.Result r = Cli.run(run);
            String all = (r.out() + r.err()).replaceAll("\\s+", " ");
            assertEquals(ExitCodes.IO_ERROR, r.exit(), run[0] + ": " + r);
            assertTrue(all.contains(log + ": ") && all.contains("is a directory, not a regular file"), run[0] + ": " + r);
            assertEachPathOnce(r.out() + r.err(), String.valueOf(run[0]), q.dir, log);
        }
        Path first = p.segment(0).log();
        Files.setPosixFilePermissions(first, PosixFilePermissions.fromString("---------"));
        try {
            for (String command : new String[] {"scan", "repair", "rebuild-index"}) {
                Cli.Result r = unprivileged(command, p.dir);
                assertEquals(ExitCodes.IO_ERROR, r.exit(), command + ": " + r);
                assertTrue((r.out() + r.err()).contains(first + ": Permission denied"), command + ": " + r);
                assertEachPathOnce(r.out() + r.err(), command, p.dir, first);
            }
        } finally {
            Files.setPosixFilePermissions(first, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    /** Every command that reads a PATH, its arguments with {@code path} in PATH's place. */
    static Object[][] everyReader(Path path) {
        Path out = root.resolve("out-" + path.getFileName());
        return new Object[][] {
            {"scan", path}, {"explain", path}, {"segments", path}, {"index", path}, {"batches", path},
            {"messages", path, "--offset", "0"}, {"find", path, "--offset", "0"}, {"hexdump", path, "0"},
            {"stats", path}, {"repair", path}, {"rebuild-index", path}, {"pack", path, "-o", out.resolve("d.tar")},
            {"salvage", path, "-o", out.resolve("s")}, {"doctor", path}, {"compare", path, path},
            {"collect", path, "-o", out.resolve("m.ndjson")}, {"plan", path}, {"apply", "--plan", path},
            {"restore", path},
        };
    }

    /**
     * A symlink loop as PATH ({@code ln -s loop loop}), and a PATH below one: batches, hexdump, index, messages,
     * plan and apply said the path twice ("segtool: /x/loop: /x/loop: Too many levels of symbolic links or unable to
     * access attributes of symbolic link"); scan, segments, pack and the rest "no such file or directory", which is
     * not the OS's reason. Each now says it once, in the OS's words, exit 64, and nothing is written.
     */
    @Test
    void aSymlinkLoopAsPath_isNamedOnceWithTheOsReason() throws Exception {
        Path dir = Files.createDirectories(root.resolve("loops"));
        Path loop = Files.createSymbolicLink(dir.resolve("loop"), Path.of("loop"));
        for (Path path : new Path[] {loop, loop.resolve("00000000000000000000.log")}) {
            for (Object[] run : everyReader(path)) {
                Cli.Result r = Cli.run(run);
                assertEquals(ExitCodes.USAGE, r.exit(), run[0] + " " + path + ": " + r);
                assertEquals("segtool: " + path + ": Too many levels of symbolic links\n", r.err(),
                        run[0] + " " + path + ": " + r);
                assertEquals("", r.out(), run[0] + ": " + r);
            }
        }
        assertTrue(!Files.exists(root.resolve("out-loop")) && !Files.exists(root.resolve(
                "out-00000000000000000000.log")), "nothing written");
    }

    /**
     * A PATH below a directory the user may not search: the OS says EACCES, Java's exists() says false, and every
     * command said "no such file or directory". One line with the OS's reason, exit 3 (an I/O error: the file may be
     * there).
     */
    @Test
    void aPathBelowAnUnsearchableDirectory_isPermissionDenied() throws Exception {
        Path locked = Files.createDirectories(root.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            Path path = locked.resolve("00000000000000000001.log");
            for (Object[] run : everyReader(path)) {
                Cli.Result r = unprivileged(run);
                assertEquals(ExitCodes.IO_ERROR, r.exit(), run[0] + ": " + r);
                assertEquals("segtool: " + path + ": Permission denied\n", r.err(), run[0] + ": " + r);
            }
            Cli.Result bare = unprivileged("batches", locked.resolve("1"));
            assertEquals(ExitCodes.IO_ERROR, bare.exit(), bare.toString());
            assertEquals("segtool: " + path + ": Permission denied\n", bare.err(), "not 'no such segment': " + bare);
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /**
     * A name with bytes that are not valid UTF-8 (a crash dump's, a hostile operator's) reaches Java with U+FFFD in
     * their place, so the file asked for is not the one on disk: "no such file or directory" alone sent the operator
     * looking for a file that is there. The line says why, and what works (a directory above it).
     */
    @Test
    void aNameJavaReceivedWithReplacementCharacters_saysWhyItIsNotFound() throws Exception {
        Path bad = root.resolve("node-\uFFFD\uFFFD");
        Object[][] runs = {{"scan", bad}, {"repair", bad}, {"batches", bad.resolve("0")}, {"hexdump", bad.resolve(
            "00000000000000000000.log"), "0"}, {"restore", bad}};
        for (Object[] run : runs) {
            Cli.Result r = Cli.run(run);
            assertEquals(ExitCodes.USAGE, r.exit(), run[0] + ": " + r);
            assertEquals(1, r.err().lines().count(), run[0] + ": " + r);
            assertTrue(r.err().startsWith("segtool: " + run[1] + ": no such file or directory (the name as segtool "
                    + "received it has U+FFFD where bytes not valid in the locale's encoding were"), run[0] + ": " + r);
        }
        Cli.Result plain = Cli.run("scan", root.resolve("no-such-node"));
        assertEquals("segtool: " + root.resolve("no-such-node") + ": no such file or directory\n", plain.err());
    }
}
