package segtool.shell.repair;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.exit.ExitCode;
import segtool.analyzers.recovery.RecoveryEngine;
import com.fasterxml.jackson.databind.node.ObjectNode;
import segtool.analyzers.inputs.DurabilitySource;
import segtool.analyzers.inputs.InputsResolver;
import segtool.analyzers.inputs.PartitionInputs;
import segtool.analyzers.report.ScanJson;
import segtool.analyzers.recovery.RecoveryOptions;
import segtool.analyzers.repair.Applier;
import segtool.analyzers.repair.Confirm;
import segtool.analyzers.repair.Repairer;
import segtool.analyzers.repair.ServerGuard;
import segtool.analyzers.repair.StepHook;
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
    static final String EXIT_130 = "130:cancelled (Ctrl-C)";

    private RepairCli() {
    }

    static Repairer repairer(VerdictOptions verdict, Confirm confirm) {
        return repairer(verdict.engineOptions(), confirm);
    }

    /**
     * Each partition's inputs as scan judges them (METADATA 3.4, 6): the topic's stored durability and the
     * frontier's checkpoint, the command line only where the data directory holds no metadata (or with
     * --override-durability). A repair in the wrong mode can hide durable data loss, so repair never uses one
     * command-line value for every partition.
     */
    static List<PartitionInputs> inputs(CommandSpec spec, List<PartitionPath> partitions, VerdictOptions verdict) {
        return new InputsResolver(verdict.inputs(spec)).resolve(partitions);
    }

    /** The repairer for one partition: the engine options with that partition's checkpoint. */
    static Repairer repairer(VerdictOptions verdict, PartitionInputs in, Confirm confirm) {
        return repairer(verdict.engineOptions().withCheckpoint(in.wal().checkpoint()), confirm);
    }

    /** As above, sharing the run's in-use checks and listings with the other partitions' repairers. */
    static Repairer repairer(VerdictOptions verdict, PartitionInputs in, Confirm confirm, Repairer.Shared shared) {
        return new Repairer(new RecoveryEngine(verdict.engineOptions().withCheckpoint(in.wal().checkpoint())),
                new ServerGuard()::check, new Applier(StepHook.NONE, Version.current()), confirm, shared);
    }

    /**
     * A partition whose inputs give no verdict is not repaired: one line on stderr, and its exit code (2 when the
     * server itself refuses, 64 when the command line contradicts the metadata, 3 when segtool will not guess).
     */
    static int notRepaired(PartitionInputs in, PrintWriter err) {
        err.println("segtool: " + in.partition().directory() + ": not repaired: " + in.refusalLine());
        return switch (in.refusal()) {
            case CONTRADICTS_METADATA -> ExitCode.USAGE;
            case UNDECIDED -> ExitCode.IO_ERROR;
            default -> ExitCode.REFUSED;
        };
    }

    /** Adds each partition's durability source to the repair JSON (the mode itself is the outcome's). */
    static void sources(ObjectNode report, List<PartitionInputs> judged) {
        var parts = report.withArray("partitions");
        for (int i = 0; i < parts.size() && i < judged.size(); i++) {
            ObjectNode n = (ObjectNode) parts.get(i);
            n.put("durability_source", judged.get(i).durability().source().json());
            n.put("durability_from", judged.get(i).durability().text());
            ScanJson.walOpenSteps(n.putArray("wal_open_steps"), judged.get(i).wal());
            n.put("judged_after_wal_open", judged.get(i).wal().openChangesDirectory());
        }
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
            String answer = segtool.shell.Interrupts.ask(console, "Apply these %d operation(s)? Removed bytes go to "
                    + "a quarantine directory first. [y/N] ", plan.ops().size());
            return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
        };
    }

    /**
     * A loud warning when a partition is repaired with a durability nothing on disk gave (no metadata and no
     * --durability): the mode changes what the repair does, and the wrong one can hide durable data loss. Printed
     * before the plan and before the question, in the dry run as with --apply.
     */
    static void warnMode(PartitionInputs in, boolean commandLineGiven, PrintWriter w, String prefix) {
        if (in.durability().source() == DurabilitySource.COMMAND_LINE && !commandLineGiven) {
            w.println(prefix + HIDDEN_LOSS);
            w.flush();
        }
    }

    /**
     * For a partition whose WAL open changes its directory (METADATA 6.7): what the server's open will first do, and
     * that the plan below is recovery's on the directory it leaves, printed before the plan. segtool does not carry
     * out the open's own steps: they are the server's, and the WAL's frontier describes them.
     */
    static void walOpen(PartitionInputs in, PrintWriter w, String prefix) {
        if (!in.wal().openChangesDirectory()) {
            return;
        }
        w.println(prefix + "the server's WAL open will first (METADATA 6.7, " + in.wal().source() + "):");
        for (var s : in.wal().openSteps()) {
            if (s.changes()) {
                w.println(prefix + "  " + s.text());
            }
        }
        w.println(prefix + "then segment recovery runs on the directory it leaves: the verdict and the plan below are "
                + "for that directory; segtool leaves the open's own steps to the server and plans nothing on the "
                + "names they change");
        w.flush();
    }

    /** The warning {@link #warnMode} prints. */
    static final String HIDDEN_LOSS = "no metadata/ says this topic's durability, so the repair uses the default, "
            + "replicated; if the topic is persisted, pass --durability=persisted, or this repair can hide durable "
            + "data loss (the quarantine keeps every removed byte either way)";

    /**
     * What went wrong on stderr too, one line per partition that could not be read ("segtool: FILE: cannot read
     * file (OP): REASON"), as scan prints it: the text report and the JSON document on stdout say it as well, but a
     * script that keeps only stderr, or a pipe into jq, must not lose it.
     */
    static void ioErrors(List<Repairer.Outcome> outcomes, PrintWriter err) {
        for (Repairer.Outcome o : outcomes) {
            if (o.status() == Repairer.Status.IO_ERROR) {
                String e = o.error() != null ? o.error() : o.before() != null ? o.before().ioError() : null;
                if (e != null) {
                    err.println("segtool: " + e.lines().findFirst().orElse(""));
                }
            }
        }
        err.flush();
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
