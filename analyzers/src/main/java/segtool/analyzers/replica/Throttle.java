package segtool.analyzers.replica;

import java.util.concurrent.TimeUnit;

/**
 * A cap on the read rate of one run, shared by its threads: every read is charged before it is made, and a charge
 * that runs ahead of {@code bytesPerSecond} since the start waits until the rate allows it. Zero means no cap.
 */
public final class Throttle {
    public static final Throttle NONE = new Throttle(0);

    private final long bytesPerSecond;
    private final long started = System.nanoTime();
    private long charged;

    public Throttle(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("negative rate " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /** Charges {@code bytes}, waiting while the run is ahead of the cap; an interrupt ends the wait early. */
    public void take(long bytes) {
        if (bytesPerSecond == 0 || bytes <= 0) {
            return;
        }
        long due;
        synchronized (this) {
            charged += bytes;
            due = started + (long) (charged * 1e9 / bytesPerSecond);
        }
        long wait = due - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
