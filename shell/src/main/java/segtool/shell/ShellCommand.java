package segtool.shell;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import segtool.shell.repl.Repl;

/** {@code shell [PATH]}: the interactive shell, optionally with PATH already open. */
@Command(name = "shell", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Start the interactive shell (completion, history, Ctrl-C cancels a command).",
            "%nEvery command is available, plus open PATH (sets the default PATH and "
                + "the prompt), close, clear, help, exit/quit. Tab completes commands, options, paths, segment start "
                + "offsets of the open partition and offsets; history is kept in ~/.segtool_history (or "
                + "$SEGTOOL_HISTORY). Ctrl-C cancels the running command, not the shell; Ctrl-D or exit leaves.",
            "A bare `segtool` on a terminal starts it too. Works on dumb terminals (TERM=dumb) and under tmux."},
        footer = {"%nInside the shell, PATH arguments default to the open path, and SEGMENT may be an offset: a "
                + "segment's start offset, or any offset inside the open partition, taken as the segment that holds "
                + "it (the last one starting at or below it; messages then starts at that offset):",
            "  segtool> open /var/lib/iggy/local_data/streams/1/topics/1/partitions/1",
            "  segtool s1/t1/p1> explain",
            "  segtool s1/t1/p1> batches 4096 --limit 5",
            "  segtool s1/t1/p1> messages 4200 --limit 3   # from offset 4200, in segment 4096"})
public final class ShellCommand implements Callable<Integer>, PlainCommand {
    @Parameters(index = "0", paramLabel = "PATH", arity = "0..1",
            description = "Data directory, partition directory or segment file to open first.")
    Path path;

    @Override
    public Integer call() throws Exception {
        return Repl.runOnSystemTerminal(path);
    }
}
