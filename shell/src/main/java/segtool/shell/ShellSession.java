package segtool.shell;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * State that lives across lines of the interactive shell (picocli resets annotated fields between lines): the
 * path opened with {@code open}. One-shot commands have no open path.
 */
public final class ShellSession {
    private static volatile Path openPath;

    private ShellSession() {
    }

    public static Path openPath() {
        return openPath;
    }

    public static void open(Path path) {
        openPath = path;
    }

    /**
     * For commands that change files: {@code path} (or the open path) as it is on disk. A crash dump is refused, since
     * repairing its temporary extraction would change nothing that matters.
     */
    public static Path resolveOnDisk(CommandSpec spec, String path) {
        Path p = path != null ? Path.of(path) : openPath;
        if (p == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'PATH'"
                    + " (or `open PATH` first in the shell)");
        }
        if (Dumps.isArchive(p)) {
            throw new CommandLine.ParameterException(spec.commandLine(), p + ": a crash dump is read-only; extract it"
                    + " and repair the directory, or repair the node's data directory itself");
        }
        return p;
    }

    /** {@code path} if given, else the open path, else a usage error. */
    public static Path resolve(CommandSpec spec, String path) throws java.io.IOException {
        if (path != null) {
            Path p = Path.of(path);
            return Dumps.isArchive(p) ? Dumps.open(p, spec.commandLine().getErr()) : p;
        }
        if (openPath != null) {
            return Dumps.isArchive(openPath) ? Dumps.open(openPath, spec.commandLine().getErr()) : openPath;
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'PATH'"
                + " (or `open PATH` first in the shell)");
    }
}
