package segtool.analyzers.repair;

import java.nio.file.Path;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * The child JVM of {@link KillNineTest}: {@code repair --apply} on a partition, announcing on stdout when it reaches
 * mutation step {@code k} and carrying on, so the parent's SIGKILL lands a little after it. Args: partition
 * directory, enforce_fsync, k.
 */
public final class KillChild {
    private KillChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        boolean durable = Boolean.parseBoolean(args[1]);
        int announce = Integer.parseInt(args[2]);
        StepHook hook = (step, action) -> {
            if (step == announce) {
                System.out.println("AT " + step + " " + action);
                System.out.flush();
            }
        };
        Repairer repairer = new Repairer(new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)),
                new ServerGuard()::check, new Applier(hook, "kill-test"), plan -> true);
        Repairer.Outcome o = repairer.repair(PartitionPath.of(dir), durable, true, false);
        System.out.println("DONE " + o.status() + " " + o.error() + " " + o.notes());
        System.out.flush();
        System.exit(o.exitCode());
    }
}
