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

/** The commands only the shell has: open, close, cd, ls, pwd, clear, exit/quit. */
public final class ReplCommands {
    private ReplCommands() {
    }

    /** Adds the shell's own commands to {@code cmd}; {@code clear} is picocli-shell-jline3's screen clearer. */
    public static void addTo(CommandLine cmd, CommandLine.IFactory factory) {
        cmd.addSubcommand(new Open());
        cmd.addSubcommand(new Close());
        cmd.addSubcommand(new Cd());
        cmd.addSubcommand(new Ls());
        cmd.addSubcommand(new Pwd());
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
            description = "Forget the open path (a crash dump's extraction is removed).")
    static final class Close implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            ShellSession.of(spec).close();
            return ExitCodes.CLEAN;
        }
    }

    /** The open path as the user names it (a crash dump by its address), or a usage error when nothing is open. */
    private static Path openOrFail(CommandSpec spec) {
        Path open = ShellSession.of(spec).openPath();
        if (open == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "nothing is open; `open PATH` first");
        }
        return open;
    }

    private static Path relative(CommandSpec spec, String arg) {
        openOrFail(spec);
        try {
            return ShellSession.of(spec).relative(arg);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Command(name = "cd", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "Move the open path to a directory relative to it (.. goes up; inside a crash dump, within "
                    + "the dump); without DIR, back to the path `open` was given. The prompt shows where you are.")
    static final class Cd implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "Where to go.")
        String dir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            ShellSession session = ShellSession.of(spec);
            Path to;
            if (dir == null) {
                openOrFail(spec);
                to = session.home();
            } else {
                to = relative(spec, dir);
            }
            Path onDisk = ShellSession.onDisk(spec, to);
            if (!Files.isDirectory(onDisk)) {
                throw new Targets.NotATarget(to + ": " + (Files.exists(onDisk, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        ? "not a directory (`open` it to work on one segment)" : "no such directory"));
            }
            session.move(to);
            return ExitCodes.CLEAN;
        }
    }

    @Command(name = "pwd", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "Print the open path (a path inside a crash dump by its DUMP::PATH address).")
    static final class Pwd implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            out.println(openOrFail(spec));
            out.flush();
            return ExitCodes.CLEAN;
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true, versionProvider = Version.class,
            description = "List a directory relative to the open path (default: the open directory): directories "
                    + "end in /, files show their size; numeric names in numeric order.")
    static final class Ls implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "What to list.")
        String dir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Path at = dir == null ? openOrFail(spec) : relative(spec, dir);
            Path onDisk = ShellSession.onDisk(spec, at);
            if (Files.isRegularFile(onDisk) && !ShellSession.isDump(at)) {
                onDisk = onDisk.toAbsolutePath().getParent();
            }
            if (!Files.isDirectory(onDisk)) {
                throw new Targets.NotATarget(at + ": no such directory");
            }
            List<Path> entries = new java.util.ArrayList<>();
            try (java.nio.file.DirectoryStream<Path> s = Files.newDirectoryStream(onDisk)) {
                s.forEach(entries::add);
            }
            entries.sort((a, b) -> ShellCompleter.compareNames(a.getFileName().toString(),
                    b.getFileName().toString()));
            int width = 0;
            for (Path p : entries) {
                width = Math.max(width, p.getFileName().toString().length() + 1);
            }
            PrintWriter out = spec.commandLine().getOut();
            for (Path p : entries) {
                java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(p,
                        java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                String name = p.getFileName() + (a.isDirectory() ? "/" : a.isSymbolicLink() ? "@" : "");
                String what = a.isDirectory() ? "" : a.isRegularFile() ? String.format("%,d bytes", a.size())
                        : a.isSymbolicLink() ? "symlink" : "special file";
                out.println(what.isEmpty() ? name : String.format("%-" + width + "s  %s", name, what));
            }
            out.flush();
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
