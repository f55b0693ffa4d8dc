package segtool.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jline.terminal.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import segtool.analyzers.layout.Targets;
import segtool.formats.io.U64;
import segtool.formats.naming.SegmentFiles;

/**
 * What lives across the lines of one interactive shell (picocli resets annotated fields between lines): the path
 * opened with {@code open}, the shell's terminal (for width and colour), and whether {@code exit} was asked for. A
 * one-shot command line has a session too, with no terminal and nothing open. The root command of a tree built by
 * {@link CommandLines} holds it; a command reaches it through its spec ({@link #of}).
 */
public final class ShellSession {
    private final Terminal terminal;
    private volatile Path openPath;
    private volatile boolean exitRequested;

    private ShellSession(Terminal terminal) {
        this.terminal = terminal;
    }

    /** A session for one command: no terminal, nothing open. */
    public static ShellSession oneShot() {
        return new ShellSession(null);
    }

    /** A session for an interactive shell on {@code terminal}. */
    public static ShellSession on(Terminal terminal) {
        return new ShellSession(terminal);
    }

    /** The session of the command tree {@code spec} belongs to (a fresh one-shot session for a tree without one). */
    public static ShellSession of(CommandSpec spec) {
        Object root = spec.root().userObject();
        return root instanceof Segtool s ? s.session() : oneShot();
    }

    public Path openPath() {
        return openPath;
    }

    public void open(Path path) {
        openPath = path;
    }

    /**
     * The open path as it is on disk: the open path itself, or for a crash dump (opened as {@code DUMP} or
     * {@code DUMP::INNER}) the place it was extracted to; null when nothing is open.
     */
    public Path openOnDisk() {
        Path p = openPath;
        return p == null ? null : Dumps.peek(p);
    }

    /** The shell's terminal, or null for a one-shot command. */
    public Terminal terminal() {
        return terminal;
    }

    public void requestExit() {
        exitRequested = true;
    }

    public boolean exitRequested() {
        return exitRequested;
    }

    /** A new run of the shell starts: nothing asks to leave yet. */
    public void start() {
        exitRequested = false;
    }

    /**
     * For commands that change files: {@code path} (or the open path) as it is on disk. A crash dump is refused, since
     * repairing its temporary extraction would change nothing that matters.
     */
    public static Path resolveOnDisk(CommandSpec spec, String path) {
        Path p = path != null ? Path.of(path) : of(spec).openPath;
        if (p == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'PATH'"
                    + " (or `open PATH` first in the shell)");
        }
        if (Dumps.isArchive(p) || Dumps.isAddress(p.toString())) {
            throw new CommandLine.ParameterException(spec.commandLine(), p + ": a crash dump is read-only; extract it"
                    + " and repair the directory, or repair the node's data directory itself");
        }
        return p;
    }

    /**
     * {@code path} if given, else the open path, else a usage error. A crash dump is extracted (once per process)
     * and its root returned. In the shell, a bare start offset that names no file ({@code 4096}) means that segment
     * of the open partition.
     */
    public static Path resolve(CommandSpec spec, String path) throws IOException {
        Path openPath = of(spec).openPath;
        if (path != null) {
            Path p = Path.of(path);
            Long start = path.contains("/") ? null : U64.parse(path);
            if (start != null && openPath != null && !Files.exists(p)) {
                Path open = onDisk(spec, openPath);
                Path dir = Files.isRegularFile(open) ? open.toAbsolutePath().getParent() : open;
                Path log = SegmentFiles.log(dir, start);
                if (Files.exists(log)) {
                    return log;
                }
            }
            return onDisk(spec, p);
        }
        if (openPath != null) {
            return onDisk(spec, openPath);
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'PATH'"
                + " (or `open PATH` first in the shell)");
    }

    /**
     * What {@code onDisk} names ({@link Targets#resolve}), with a one-line warning on stderr for each entry of a data
     * directory that was skipped as no stream, topic or partition.
     */
    public static Targets targets(CommandSpec spec, Path onDisk) throws IOException {
        Targets t = Targets.resolve(onDisk);
        if (!t.skipped().isEmpty()) {
            java.io.PrintWriter err = spec.commandLine().getErr();
            for (String line : t.skipped()) {
                err.println("segtool: warning: " + line);
            }
            err.flush();
        }
        return t;
    }

    /** As {@link #resolve(CommandSpec, String)} for a {@code Path}-typed parameter. */
    public static Path resolve(CommandSpec spec, Path path) throws IOException {
        return resolve(spec, path == null ? null : path.toString());
    }

    /** True when {@code p} is a crash dump (an archive opened in place of a directory) or a path inside one. */
    public static boolean isDump(Path p) {
        return p != null && Dumps.namesDump(p.toString());
    }

    /**
     * What {@code p} names on disk, without the shell's defaults: a crash dump ({@code DUMP}) is its extracted root
     * and {@code DUMP::INNER} that path inside it (extracted once per process); anything else is {@code p}.
     */
    public static Path onDisk(CommandSpec spec, Path p) throws IOException {
        return p == null ? null : Dumps.onDisk(p.toString(), spec.commandLine().getErr());
    }

    /**
     * {@code w}, writing every path under a crash dump's extraction as its lasting {@code DUMP::INNER} address
     * (the extraction is removed when the command ends; the address is what a next command can be given).
     */
    public static java.io.PrintWriter addressed(java.io.PrintWriter w) {
        return Dumps.addressed(w);
    }
}
