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
    private volatile Path home;
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

    /** Opens {@code path} (null: nothing) as {@code open} does; {@code cd} without an argument comes back here. */
    public void open(Path path) {
        openPath = path;
        home = path;
    }

    /**
     * Forgets the open path; a crash dump's extraction is removed (it can be gigabytes, and the next {@code open}
     * extracts it again).
     */
    public void close() throws IOException {
        Path p = openPath;
        openPath = null;
        home = null;
        if (p != null && isDump(p)) {
            Dumps.release(p);
        }
    }

    /** Moves the open path within what was opened, as {@code cd} does; {@link #home()} stays. */
    public void move(Path path) {
        openPath = path;
    }

    /** {@code address} on disk when it is inside a crash dump already open, else {@code address}; never extracts. */
    public static Path peek(Path address) {
        return Dumps.peek(address);
    }

    /** The path {@code open} was last given (null: nothing open). */
    public Path home() {
        return home;
    }

    /**
     * Where {@code arg} leads from the open path (kafka-metadata-shell's cd, ls): an absolute path or a crash-dump
     * address as it is; a relative one from the open directory (a segment's partition when a segment is open), inside
     * a dump by its address. Null when nothing is open. Throws IllegalArgumentException when {@code ..} would leave
     * a crash dump.
     */
    public Path relative(String arg) {
        Path open = openPath;
        if (open == null) {
            return null;
        }
        if (Path.of(arg).isAbsolute() || Dumps.isAddress(arg)) {
            return Path.of(arg);
        }
        String text = open.toString();
        Path onDisk = openOnDisk();
        boolean file = onDisk != null && Files.isRegularFile(onDisk) && !Dumps.isArchive(open);
        if (Dumps.isAddress(text) || Dumps.isArchive(open)) {
            int at = text.indexOf(Dumps.SEPARATOR);
            String archive = at >= 0 ? text.substring(0, at) : text;
            Path inner = Path.of(at >= 0 ? text.substring(at + Dumps.SEPARATOR.length()) : "");
            if (file) {
                inner = inner.getParent() == null ? Path.of("") : inner.getParent();
            }
            Path moved = inner.resolve(arg).normalize();
            if (moved.startsWith("..")) {
                throw new IllegalArgumentException(arg + ": leads out of the crash dump " + archive
                        + " (open a directory to leave it)");
            }
            return moved.toString().isEmpty() ? Path.of(archive) : Path.of(archive + Dumps.SEPARATOR + moved);
        }
        Path dir = file ? open.getParent() : open;
        return dir.resolve(arg).normalize();
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
        ShellSession session = of(spec);
        Path openPath = session.openPath;
        if (path != null) {
            Path p = Path.of(path);
            Path here = openPath == null || path.isEmpty() ? null : session.relativeIfExists(path);
            if (here != null) {
                p = here;
                path = here.toString();
            }
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

    /**
     * In the shell, {@code arg} relative to the open path when it names something there and not from the current
     * directory as well (so that after {@code open DATADIR}, {@code segments streams/1/topics/1/partitions/1} works);
     * null otherwise.
     */
    public Path relativeIfExists(String arg) {
        if (Path.of(arg).isAbsolute() || Dumps.isAddress(arg) || Files.exists(Path.of(arg))) {
            return null;
        }
        try {
            Path r = relative(arg);
            return r != null && Files.exists(Dumps.peek(r)) ? r : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
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
