package segtool.analyzers.repair;

import java.nio.file.Path;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * The child JVM of {@link KillStressTest}: one mutating command with {@code --apply}, as the shell runs it, printing
 * {@code AT <step>} when it reaches mutation step {@code k} (and carrying on, so the parent's SIGKILL lands a little
 * later) and {@code DONE <exit code>} at the end. Args: {@code repair|rebuild-index|restore|accept-loss}, the
 * partition (the quarantine for restore), enforce_fsync, k ({@code -1}: announce nothing, the parent kills on a
 * timer), and for accept-loss the salvage archive's path.
 */
public final class KillStressChild {
    private KillStressChild() {
    }

    public static void main(String[] args) {
        String command = args[0];
        Path path = Path.of(args[1]);
        boolean durable = Boolean.parseBoolean(args[2]);
        int announce = Integer.parseInt(args[3]);
        StepHook hook = (step, action) -> {
            if (step == announce) {
                System.out.println("AT " + step + " " + action);
                System.out.flush();
            }
        };
        Repairer repairer = new Repairer(new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)),
                new ServerGuard()::check, new Applier(hook, "kill-stress"), plan -> true);
        int exit;
        String detail;
        switch (command) {
            case "repair" -> {
                Repairer.Outcome o = repairer.repair(PartitionPath.of(path), durable, true, false);
                exit = o.exitCode();
                detail = o.status() + " " + o.error();
            }
            case "rebuild-index" -> {
                Repairer.Outcome o = repairer.rebuildIndex(PartitionPath.of(path), null, durable, true, false);
                exit = o.exitCode();
                detail = o.status() + " " + o.error();
            }
            case "accept-loss" -> {
                Repairer.Outcome o = repairer.acceptLoss(PartitionPath.of(path), durable, true, false,
                        Path.of(args[4]), "kill-stress");
                exit = o.exitCode();
                detail = o.status() + " " + o.error();
            }
            case "restore" -> {
                Repairer.RestoreOutcome o = repairer.restore(path, true, false);
                exit = o.exitCode();
                detail = o.error() + " " + o.result();
            }
            default -> throw new IllegalArgumentException(command);
        }
        System.out.println("DONE " + exit + " " + detail);
        System.out.flush();
        System.exit(exit);
    }
}
