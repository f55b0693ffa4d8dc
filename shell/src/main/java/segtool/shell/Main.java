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
            Interrupts.install(Thread.currentThread());
            code = CommandLines.oneShot(args).execute(args);
        }
        System.exit(code);
    }
}
