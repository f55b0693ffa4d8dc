package segtool.analyzers.repair;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Function;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.formats.naming.PartitionPath;

/**
 * A child JVM of {@link ConcurrentRunsTest}: {@code repair --apply} (or {@code restore --apply}) on a partition.
 * Args: {@code repair PARTITION PAUSE GUARD} or {@code restore QUARANTINE PAUSE GUARD}. With {@code PAUSE >= 0} it
 * announces "AT k action" when it reaches mutation step k and waits for a line on stdin before going on; GUARD is
 * {@code idle} (only the lock excludes) or {@code real} ({@link ServerGuard}). Ends with "DONE exit status pids".
 */
public final class LockChild {
    private LockChild() {
    }

    public static void main(String[] args) {
        String mode = args[0];
        Path path = Path.of(args[1]);
        int pause = Integer.parseInt(args[2]);
        Function<Path, ServerGuard.Report> guard = args[3].equals("real") ? new ServerGuard()::check
                : ServerGuard.Report::idle;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StepHook hook = (step, action) -> {
            if (step == pause) {
                System.out.println("AT " + step + " " + action);
                System.out.flush();
                try {
                    in.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        Repairer repairer = new Repairer(new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)),
                guard, new Applier(hook, "lock-test"), plan -> true);
        int exit;
        String status;
        ServerGuard.Report server;
        String error;
        if (mode.equals("restore")) {
            Repairer.RestoreOutcome o = repairer.restore(path, true, false);
            exit = o.exitCode();
            status = o.result() == null ? "none" : (o.result().applied() ? "restored" : "unchanged");
            server = o.server();
            error = o.error();
        } else {
            Repairer.Outcome o = repairer.repair(PartitionPath.of(path), false, true, false);
            exit = o.exitCode();
            status = o.status().name();
            server = o.server();
            error = o.error();
        }
        StringBuilder pids = new StringBuilder();
        if (server != null) {
            server.holders().forEach(h -> pids.append(h.pid()).append(':').append(h.command()).append(','));
        }
        System.out.println("DONE " + exit + " " + status + " " + pids + " " + error);
        System.out.flush();
        System.exit(exit);
    }
}
