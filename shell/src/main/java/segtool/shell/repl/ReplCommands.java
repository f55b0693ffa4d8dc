package segtool.shell.repl;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.shell.jline3.PicocliCommands;
import segtool.analyzers.inspect.PartitionFiles;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.U64;
import segtool.shell.ExitCodes;
import segtool.shell.ShellSession;
import segtool.shell.Version;
import segtool.shell.render.Bytes;

/** The commands only the shell has: open, close, clear, exit/quit. */
public final class ReplCommands {
    private ReplCommands() {
    }

    /** Adds the shell's own commands to {@code cmd}; {@code clear} is picocli-shell-jline3's screen clearer. */
    public static void addTo(CommandLine cmd, CommandLine.IFactory factory) {
        cmd.addSubcommand(new Open());
        cmd.addSubcommand(new Close());
        cmd.addSubcommand(new Exit());
        try {
            cmd.addSubcommand(factory.create(PicocliCommands.ClearScreen.class));
        } catch (Exception e) {
            // no terminal-aware factory (tests with the default factory): no clear command
        }
    }

    @Command(name = "open", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "Open a data directory, partition directory or segment file, or a crash dump (DUMP or "
                    + "DUMP::PATH inside it): commands use it when PATH is left out, SEGMENT may be given as a start "
                    + "offset, and the prompt shows it.")
    static final class Open implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "PATH", description = "What to open.")
        Path path;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Path onDisk = ShellSession.onDisk(spec, path);
            Targets t = ShellSession.targets(spec, onDisk);
            // a crash dump stays open under its address (DUMP or DUMP::INNER); its extraction is printed that way
            ShellSession.of(spec).open(ShellSession.isDump(path) ? path.toAbsolutePath() : path.toAbsolutePath()
                    .normalize());
            Path abs = onDisk.toAbsolutePath().normalize();
            PrintWriter out = spec.commandLine().getOut();
            switch (t.kind()) {
                case DATA_DIRECTORY:
                    out.println("opened data directory " + abs + ": " + t.partitions().size() + " partition(s)");
                    break;
                case SEGMENT:
                    out.println("opened segment " + U64.str(t.segment()) + " of " + abs.getParent());
                    break;
                default:
                    List<Long> starts = PartitionFiles.starts(abs);
                    long bytes = 0;
                    for (Path p : PartitionFiles.list(abs)) {
                        if (p.getFileName().toString().endsWith(".log") && Files.isRegularFile(p)) {
                            bytes += Files.size(p);
                        }
                    }
                    out.println("opened partition " + abs + ": " + starts.size() + " segment(s), "
                            + Bytes.size(bytes) + " of log" + (starts.isEmpty() ? ""
                            : "; segments " + U64.str(starts.get(0)) + (starts.size() > 1 ? " .. "
                            + U64.str(starts.get(starts.size() - 1)) : "")));
                    break;
            }
            out.flush();
            return ExitCodes.CLEAN;
        }
    }

    @Command(name = "close", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "Forget the open path.")
    static final class Close implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ShellSession.of(spec).open(null);
            return ExitCodes.CLEAN;
        }
    }

    @Command(name = "exit", aliases = "quit", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "Leave the shell (Ctrl-D does too).")
    static final class Exit implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            ShellSession.of(spec).requestExit();
            return ExitCodes.CLEAN;
        }
    }
}
