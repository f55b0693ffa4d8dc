package segtool.shell;

import segtool.shell.repl.Repl;

/** The process entry point: a bare {@code segtool} on a terminal is the shell, anything else one command. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        int code;
        if (args.length == 0 && System.console() != null) {
            code = Repl.runOnSystemTerminal(null);
        } else {
            try {
                code = oneShot(args).execute(args);
            } catch (InternalError fault) {
                // a fault under a mapped window raised after the judgement that met it (the engine throws away
                // and redoes any judgement during which one was raised): one line, no stack trace
                System.err.println("segtool: " + CommandLines.message(fault) + " (a read of a mapped file failed:"
                        + " a file shrank while it was read, or its device failed; SEGTOOL_JAVA_OPTS="
                        + "-Dsegtool.map=false reads without mappings)");
                code = ExitCodes.IO_ERROR;
            }
        }
        System.exit(code);
    }

    /**
     * One command of the one-shot CLI, ready to execute on this thread: its model built, SIGINT and SIGTERM set to
     * interrupt it. {@link Train} goes through here too, so the start-up cache holds every class this path loads
     * (the signal handlers' among them): a class it lacks is read from the jar, and the first one opens and indexes
     * the whole jar.
     */
    static picocli.CommandLine oneShot(String[] args) {
        Interrupts.install(Thread.currentThread());
        return CommandLines.oneShot(args);
    }
}
