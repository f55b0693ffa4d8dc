package segtool.shell;

/**
 * The running command was interrupted (Ctrl-C in the shell). Long loops call {@link #check()} between records;
 * {@link Main#handle} turns this into one line and {@link ExitCodes#CANCELLED}.
 */
public final class Cancelled extends RuntimeException {
    public Cancelled() {
        super("cancelled", null, false, false);
    }

    /** Throws when the current thread has been interrupted (the flag is left set for the caller to see). */
    public static void check() {
        if (Thread.currentThread().isInterrupted()) {
            throw new Cancelled();
        }
    }
}
