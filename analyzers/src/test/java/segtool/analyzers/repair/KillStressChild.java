package segtool.analyzers.repair;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Function;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.replica.PlanApply;
import segtool.analyzers.replica.PlanFile;
import segtool.formats.naming.PartitionPath;

/**
 * The child JVM of {@link KillStressTest}: one mutating command with {@code --apply}, as the shell runs it, printing
 * {@code AT <step>} when it reaches mutation step {@code k} (and carrying on, so the parent's SIGKILL lands a little
 * later) and {@code DONE <exit code>} at the end. Args: {@code repair|rebuild-index|restore|accept-loss|apply-plan},
 * the partition (the quarantine for restore; replica {@value #REPLICA}'s for apply-plan, whose donor is
 * {@value #DONOR} beside it), enforce_fsync, k ({@code -1}: announce nothing, the parent kills on a timer), and for
 * accept-loss the salvage archive's path, for apply-plan the plan's.
 *
 * <p>Started without arguments, the child is a spare: it loads and initialises the classes every command uses
 * (opening no file), prints {@value #READY}, and then reads those arguments as one tab-separated line from its
 * standard input. The parent starts the next trial's spare while it checks the last one, so a kill on a timer
 * measures from the moment the command starts, not from the JVM's.
 */
public final class KillStressChild {
    /** The node names of apply-plan's replicas, and their data directories' names beside each other. */
    static final String REPLICA = "b";
    static final String DONOR = "a";
    /** What a spare prints once it is ready for its arguments. */
    static final String READY = "READY";

    private KillStressChild() {
    }

    static InputsResolver inputs(boolean durable) {
        return new InputsResolver(new InputsResolver.CommandLine(durable, false, null));
    }

    /** {@code apply --plan PLAN --node b --donor-dir <a> --apply} on replica b's partition {@code partition}. */
    static PlanApply.Outcome applyPlan(Applier applier, Path partition, boolean durable, Path plan,
                         Function<Path, ServerGuard.Report> guard) throws IOException {
        Path data = partition;
        for (int i = 0; i < 6; i++) {
            data = data.getParent();   // <data>/streams/1/topics/1/partitions/1
        }
        PlanFile.Entry e = PlanFile.read(plan).of(REPLICA).get(0);
        return new PlanApply(guard, applier, RecoveryOptions.defaults().withThreads(1))
                .run(e, partition, data.resolveSibling(DONOR), inputs(durable), true, false);
    }

    /** Class loading and static initialisation along every command's path; reads and writes no file. */
    private static void warmUp() {
        segtool.formats.hash.Xxh3.hash(new byte[256]);
        Manifest.mapper();
        ScanJson.mapper();
        new Repairer(new RecoveryEngine(RecoveryOptions.defaults().withThreads(1)), new ServerGuard()::check,
                new Applier(StepHook.NONE, "kill-stress"), plan -> true);
        for (String c : new String[] {"segtool.analyzers.salvage.Salvager", "segtool.analyzers.salvage.MessageLines",
            "segtool.analyzers.salvage.ArchiveReuse", "segtool.analyzers.replica.PlanApply",
            "segtool.analyzers.repair.Quarantine", "segtool.analyzers.repair.PartitionLock",
            "segtool.formats.log.LogCursor", "segtool.formats.index.IndexFile", "segtool.analyzers.recovery.PassA"}) {
            try {
                Class.forName(c, true, KillStressChild.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(c, e);
            }
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            warmUp();
            System.out.println(READY);
            System.out.flush();
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                return;   // the parent ended without a trial for this spare
            }
            args = line.split("\t");
        }
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
            case "apply-plan" -> {
                try {
                    PlanApply.Outcome o = applyPlan(new Applier(hook, "kill-stress"), path, durable,
                            Path.of(args[4]), new ServerGuard()::check);
                    exit = o.exitCode();
                    System.out.println(o.status() + ": " + String.join("; ", o.details()));
                } catch (IOException e) {
                    exit = 3;
                    System.out.println(e.getMessage());
                }
                detail = "";
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
