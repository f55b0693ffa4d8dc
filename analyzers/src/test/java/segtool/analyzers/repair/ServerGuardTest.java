package segtool.analyzers.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.formats.naming.PartitionPath;

/** segtool refuses to change data another process has open, unless forced. */
@EnabledOnOs(OS.LINUX)
class ServerGuardTest {
    @TempDir
    Path root;

    private Process holder;

    @AfterEach
    void stopHolder() throws InterruptedException {
        if (holder != null) {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A process that holds {@code file} open (fd 3) until killed. */
    private Process hold(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", "exec 3<\"$0\"; echo ready; exec sleep 60", file.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().read();
        return p;
    }

    private static Repairer repairer() {
        return new Repairer(FixpointTest.ENGINE, new ServerGuard()::check, new Applier(StepHook.NONE, "test"),
                plan -> true);
    }

    @Test
    void openSegmentFile_isInUse_untilForced() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        Path log = p.directory().resolve("00000000000000000000.log");
        holder = hold(log);
        ServerGuard.Report r = new ServerGuard().check(ServerGuard.scopeOf(p));
        assertEquals(root.toAbsolutePath().normalize(), r.scope(), "the data directory is the scope");
        assertTrue(r.busy());
        assertTrue(r.holders().stream().anyMatch(h -> h.pid() == holder.pid() && h.file().endsWith(".log")),
                r.holders()::toString);

        Map<String, byte[]> before = Trees.snapshot(root, true);
        Repairer.Outcome o = repairer().repair(p, false, true, false);
        assertEquals(Repairer.Status.IN_USE, o.status());
        assertEquals(Repairer.EXIT_IN_USE, o.exitCode());
        Trees.assertSame(before, Trees.snapshot(root, true), "in use: nothing changes");

        Repairer.Outcome forced = repairer().repair(p, false, true, true);
        assertEquals(Repairer.Status.APPLIED, forced.status(), () -> forced.error() + " " + forced.notes());
        assertTrue(forced.notes().stream().anyMatch(n -> n.startsWith("--force")), forced.notes()::toString);
    }

    @Test
    void dryRun_reportsTheHolder_butPlans() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        holder = hold(p.directory().resolve("00000000000000000000.index"));
        Repairer.Outcome o = repairer().repair(p, false, false, false);
        assertEquals(Repairer.Status.PLANNED, o.status());
        assertTrue(o.server().busy());
    }

    @Test
    void pidFileOfALiveProcess_isInUse() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        holder = new ProcessBuilder("sleep", "60").start();
        Files.createDirectories(root.resolve("runtime"));
        Files.writeString(root.resolve("runtime/iggy.pid"), holder.pid() + "\n");
        ServerGuard.Report r = new ServerGuard().check(ServerGuard.scopeOf(p));
        assertTrue(r.busy(), r::toString);
        assertTrue(r.pidFiles().get(0).contains(Long.toString(holder.pid())));
    }

    @Test
    void nobodyHoldsAnything_isIdle() throws Exception {
        PartitionPath p = Shapes.make(root, Shapes.repairable().get(0));
        Files.createDirectories(root.resolve("runtime"));
        Files.writeString(root.resolve("runtime/old.pid"), "999999999\n");
        ServerGuard.Report r = new ServerGuard().check(ServerGuard.scopeOf(p));
        assertFalse(r.busy(), r::toString);
        assertEquals(0, new Repairer(new RecoveryEngine(), new ServerGuard()::check,
                new Applier(StepHook.NONE, "test"), plan -> true).repair(p, false, true, false).exitCode());
    }
}
