package segtool.shell.repair;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.RecoveryEngine;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.Confirm;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
import segtool.analyzers.layout.Targets;
import segtool.formats.naming.PartitionPath;
import segtool.shell.ExitCodes;
import segtool.shell.Version;
import segtool.shell.options.VerdictOptions;

/** What repair, rebuild-index and restore share: targets, the engine, the question, exit codes. */
final class RepairCli {
    static final String EXIT_HEADING = "%nExit codes:%n";
    static final String EXIT_0 = "0:nothing to change, or --apply succeeded: the next boot accepts everything as it is";
    static final String EXIT_1 = "1:files would change (dry run), or still need changes";
    static final String EXIT_2 = "2:refused: recovery refuses the partition, or rebuild-index cannot rebuild; nothing "
            + "changed";
    static final String EXIT_3 = "3:I/O error (an interrupted --apply is finished by running it again)";
    static final String EXIT_4 = "4:another process has files under the data directory open, or another segtool run "
            + "holds the partition's lock (<partition>.segtool-lock, its PID is named); nothing changed";
    static final String EXIT_64 = "64:usage error";
    static final String EXIT_130 = "130:cancelled (Ctrl-C in the shell)";

    private RepairCli() {
    }

    /** The partitions a PATH names, with --partition-id applied and every id known. */
    static List<PartitionPath> partitions(CommandSpec spec, Targets targets, VerdictOptions verdict) {
        List<PartitionPath> out = new ArrayList<>(targets.partitions());
        if (verdict.partitionId != null) {
            if (out.size() != 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--partition-id applies to a single "
                        + "partition, but " + targets.path() + " holds " + out.size());
            }
            out.set(0, out.get(0).withPartitionId(verdict.partitionId));
        }
        for (PartitionPath p : out) {
            if (p.partitionId() < 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), p.directory()
                        + ": the directory name is not a partition id; pass --partition-id N");
            }
        }
        return out;
    }

    static Repairer repairer(VerdictOptions verdict, Confirm confirm) {
        return repairer(verdict.engineOptions(), confirm);
    }

    static Repairer repairer(long maxMessageSizeUpper, Confirm confirm) {
        return repairer(RecoveryOptions.defaults().withMaxMessageSizeUpper(maxMessageSizeUpper), confirm);
    }

    private static Repairer repairer(RecoveryOptions options, Confirm confirm) {
        RecoveryEngine engine = new RecoveryEngine(options);
        return new Repairer(engine, new ServerGuard()::check, new Applier(StepHook.NONE, Version.current()),
                confirm);
    }

    /** Asks on the terminal (after showing the plan) unless --yes; without a terminal, --apply is the consent. */
    static Confirm confirm(RepairOptions options) {
        return plan -> {
            Console console = System.console();
            if (options.yes || console == null) {
                return true;
            }
            PrintWriter w = console.writer();
            w.println(plan.partition().directory() + ":");
            RepairText.plan(w, plan);
            w.flush();
            String answer = console.readLine("Apply these %d operation(s)? Removed bytes go to a quarantine "
                    + "directory first. [y/N] ", plan.ops().size());
            return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
        };
    }

    /** A loud note when --apply relies on the default enforce_fsync, which changes what the repair does. */
    static void warnMode(CommandSpec spec, RepairOptions options, VerdictOptions verdict, PrintWriter err) {
        if (options.apply && !spec.commandLine().getParseResult().hasMatchedOption("--enforce-fsync")) {
            err.println("segtool: note: repairing with enforce_fsync=" + verdict.durable() + " (the server "
                    + "default); if the topic sets enforce_fsync=true pass --enforce-fsync, or the repair can hide "
                    + "durable data loss (the quarantine keeps every removed byte either way)");
        }
    }

    static void warnForce(List<Repairer.Outcome> outcomes, PrintWriter err) {
        for (Repairer.Outcome o : outcomes) {
            for (String n : o.notes()) {
                if (n.startsWith("--force")) {
                    err.println("segtool: WARNING: " + o.partition().directory() + ": " + n);
                }
            }
        }
    }

    static int worst(List<Repairer.Outcome> outcomes) {
        int worst = ExitCodes.CLEAN;
        for (Repairer.Outcome o : outcomes) {
            worst = ExitCode.combine(worst, o.exitCode());
        }
        return worst;
    }

    static Path resolve(CommandSpec spec, String path) {
        return segtool.shell.ShellSession.resolveOnDisk(spec, path);
    }
}
