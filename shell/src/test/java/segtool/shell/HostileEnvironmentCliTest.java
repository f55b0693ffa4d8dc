package segtool.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16.5 on the command line, each case in a process of its own (TMPDIR is read from the environment): crash
 * dumps are extracted under TMPDIR, an extraction left by a killed run (its owner PID gone) is removed by the next
 * run, and a salvage output that exists as a symlink is refused in one line, never followed.
 */
class HostileEnvironmentCliTest {
    @TempDir
    static Path root;

    static Path dump;
    static Partitions p;

    @BeforeAll
    static void build() {
        p = Partitions.healthy(root, "node");
        dump = root.resolve("node.tar.lz4");
        Cli.Result r = Cli.run("pack", root.resolve("node"), "-o", dump);
        assertEquals(0, r.exit(), r.toString());
    }

    static Cli.Result child(Map<String, String> env, Object... args) throws Exception {
        return Proc.run(env, args);
    }

    /** The PID of a process that has ended (and so owns nothing). */
    static long deadPid() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        long pid = gone.pid();
        assertFalse(ProcessHandle.of(pid).isPresent());
        return pid;
    }

    @Test
    void dumpsAreExtractedUnderTmpdir_andAMissingTmpdirIsOneLine() throws Exception {
        Path missing = root.resolve("no-such-tmp");
        Cli.Result r = child(Map.of("TMPDIR", missing.toString()), "scan", dump);
        assertEquals(3, r.exit(), r.toString());
        assertEquals("segtool: " + dump + ": cannot create a private extraction directory under " + missing
                + " (TMPDIR): no such directory", r.err().strip(), r.toString());
    }

    @Test
    void anExtractionLeftByAKilledRun_isRemovedByTheNextRun() throws Exception {
        Path tmp = Files.createDirectories(root.resolve("tmp-sweep"));
        Path left = Files.createDirectories(tmp.resolve("segtool-dump-" + deadPid() + "-42/node/streams"));
        Files.writeString(left.resolve("junk"), "left behind by kill -9\n");
        Path live = Files.createDirectories(tmp.resolve("segtool-dump-" + ProcessHandle.current().pid() + "-7"));
        Path other = Files.createDirectories(tmp.resolve("not-segtool-1-2"));
        Cli.Result r = child(Map.of("TMPDIR", tmp.toString()), "scan", dump, "-q");
        assertEquals(0, r.exit(), r.toString());
        assertFalse(Files.exists(left.getParent().getParent()), "the dead run's extraction is removed");
        assertTrue(Files.isDirectory(live), "a live owner's extraction is kept");
        assertTrue(Files.isDirectory(other), "other names are never touched");
        try (var s = Files.list(tmp)) {
            assertEquals(2, s.count(), "the run removed its own extraction at exit");
        }
    }

    @Test
    void aSalvageOutputThatIsASymlink_isRefused_neverFollowed() throws Exception {
        Path target = Files.createDirectories(root.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(root.resolve("out-link"), target);
        Cli.Result r = Cli.run("salvage", p.dir, "-o", link);
        assertEquals(ExitCodes.USAGE, r.exit(), r.toString());
        assertEquals("segtool: " + link + ": is a symbolic link; salvage writes only a new directory",
                r.err().lines().findFirst().orElse(""), r.toString());
        try (var s = Files.list(target)) {
            assertEquals(0, s.count(), "nothing written through the link");
        }
        Path dangling = Files.createSymbolicLink(root.resolve("out-dangling"), root.resolve("nowhere"));
        Cli.Result d = Cli.run("salvage", p.dir, "-o", dangling);
        assertTrue(d.err().contains(dangling + ": is a symbolic link"), d.toString());
        assertFalse(Files.exists(root.resolve("nowhere")), "the link's target was not created");
    }
}
