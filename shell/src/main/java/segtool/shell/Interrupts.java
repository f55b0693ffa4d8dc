package segtool.shell;

import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import segtool.analyzers.recovery.RecoveryEngine;

/**
 * How segtool stops when asked to: SIGINT (Ctrl-C) and SIGTERM (kill, a service manager) do not end the JVM at
 * once (which would skip every command's clean-up and print nothing) but interrupt the thread running the command.
 * That is the shell's Ctrl-C mechanism, reached by the one-shot CLI too: long loops stop at their next
 * {@link Cancelled#check()} (or an interrupted read or write), each command removes its own temporary files on the
 * way out as on any failure, and {@link CommandLines#handle} prints the one line {@link #line} makes and exits with
 * {@link #code()}: 130 for SIGINT, 143 for SIGTERM (128 + the signal, as shells report it).
 *
 * <p>A second signal ends the process at once with the first one's code, as the JVM would have; what that leaves
 * (a salvage's temporary directory, a dump's extraction) is removed by the next run, which finds it by the dead
 * owner's PID in its name.
 */
public final class Interrupts {
    /** The signals segtool takes; each one's exit code. */
    public enum Signal {
        INT(ExitCodes.CANCELLED), TERM(ExitCodes.TERMINATED);

        final int code;

        Signal(int code) {
            this.code = code;
        }
    }

    /**
     * What a command that writes leaves when it is interrupted, in the words of its interrupt line ("OUT was not
     * created; nothing else changed"). A command that writes nothing leaves "nothing changed".
     */
    public interface Leaves {
        String leftWhenInterrupted();
    }

    /** The first signal received, null when none (an interrupt without a signal, such as the shell's Ctrl-C, is 130). */
    private static final AtomicReference<Signal> RECEIVED = new AtomicReference<>();

    /** The thread of the one-shot command signals interrupt, null in the interactive shell. */
    private static volatile Thread oneShot;

    private Interrupts() {
    }

    /**
     * A question on the terminal ({@link java.io.Console#readLine}) that a signal can interrupt: a console read does
     * not answer to an interrupt, so a one-shot command asks on a helper thread and waits for it; the signal ends the
     * wait with {@link Cancelled}, before anything the question was about is done. In the shell (whose later lines
     * the helper would read) it asks directly, as before.
     */
    public static String ask(java.io.Console console, String format, Object... args) {
        if (Thread.currentThread() != oneShot) {
            return console.readLine(format, args);
        }
        java.util.concurrent.FutureTask<String> answer = new java.util.concurrent.FutureTask<>(
                () -> console.readLine(format, args));
        Thread asking = new Thread(answer, "segtool-question");
        asking.setDaemon(true);
        asking.start();
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // ends the question's line; not through the console, whose lock the waiting read holds
            System.err.println();
            System.err.flush();
            throw new Cancelled();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /**
     * For one command of the one-shot CLI: SIGINT and SIGTERM interrupt {@code worker}, the thread running it. A
     * signal the JVM reserves (-Xrs) keeps its default.
     */
    static void install(Thread worker) {
        oneShot = worker;
        for (Signal s : Signal.values()) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(s.name()), sig -> received(s, worker));
            } catch (IllegalArgumentException reserved) {
                // the JVM's own handling stays
            }
        }
    }

    /**
     * Signal {@code s} arrived for the command running on {@code worker} (null: none runs): the first interrupts it,
     * a second ends the process now (with the first one's code).
     */
    public static void received(Signal s, Thread worker) {
        if (!RECEIVED.compareAndSet(null, s)) {
            Runtime.getRuntime().exit(RECEIVED.get().code);
        }
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** The signal that stopped this process's command, null when none did. */
    public static Signal signal() {
        return RECEIVED.get();
    }

    /** The exit code of an interrupted command: 143 after SIGTERM, else 130 (Ctrl-C, or an interrupt). */
    public static int code() {
        Signal s = RECEIVED.get();
        return s == null ? ExitCodes.CANCELLED : s.code;
    }

    /**
     * The one line (without the {@code segtool: } prefix) for command {@code cmd} stopped by {@code e}: what was
     * interrupted and what it left. The state is the one the analyzers attached to the cancellation (a repair knows
     * how far its apply got), else what the command declares ({@link Leaves}), else "nothing changed".
     */
    static String line(CommandLine cmd, Throwable e) {
        String state = null;
        for (Throwable t = e; t != null && state == null; t = t.getCause()) {
            if (t instanceof RecoveryEngine.Cancelled c) {
                state = c.leaves();
            }
        }
        if (state == null && cmd != null && cmd.getCommand() instanceof Leaves l) {
            state = l.leftWhenInterrupted();
        }
        return name(cmd) + " interrupted: " + (state == null ? "nothing changed" : state);
    }

    /**
     * A run over several partitions stopped in one of them ({@code c} says what that one was left in): the line also
     * says how many before it were done ({@code done}, "repaired"), since their report is not printed.
     */
    public static RecoveryEngine.Cancelled after(int done, String what, RecoveryEngine.Cancelled c) {
        if (done == 0 || c.leaves() == null) {
            return c;
        }
        return new RecoveryEngine.Cancelled(done + (done == 1 ? " partition" : " partitions") + " before it "
                + what + "; " + c.leaves(), c);
    }

    /** The command's name as typed after {@code segtool} ("salvage", "fleet plan"). */
    private static String name(CommandLine cmd) {
        if (cmd == null) {
            return "segtool";
        }
        String q = cmd.getCommandSpec().qualifiedName(" ");
        CommandLine root = cmd;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        String prefix = root.getCommandName() + " ";
        return q.startsWith(prefix) ? q.substring(prefix.length()) : q;
    }
}
