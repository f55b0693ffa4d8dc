package segtool.formats.fuzz;

import java.lang.management.ManagementFactory;

/**
 * What the fuzz targets share: the heap this thread has allocated (to prove that no length read from the input sizes
 * an allocation), warming up, and checks. Inputs are handed to the readers as bytes in memory (the readers'
 * {@code of}/{@code decode} forms), never written to a file per input (the file writes dominated their time).
 */
public final class Fuzz {
    private Fuzz() {
    }

    /** Bytes allocated on the heap by this thread so far. */
    public static long allocated() {
        PRIMED.get();
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** The first reading in a thread sets the thread's counter up at a cost of about 100 KiB: not the input's. */
    private static final ThreadLocal<Boolean> PRIMED = ThreadLocal.withInitial(() -> {
        THREADS.getCurrentThreadAllocatedBytes();
        THREADS.getCurrentThreadAllocatedBytes();
        return true;
    });

    /**
     * Fails when more than {@code budget} bytes were allocated since {@code since}. {@code what} must be a constant:
     * building a message before the reading would be counted (the first string concatenation costs 100 KiB).
     */
    public static void assertAllocatedAtMost(long since, long budget, String what) {
        long spent = allocated() - since;
        if (spent > budget) {
            throw new AssertionError(what + " allocated " + spent + " bytes, budget " + budget);
        }
    }

    /** What a target throws while warming up. */
    @FunctionalInterface
    public interface Warm {
        void run() throws Exception;
    }

    /** Runs {@code warm} a few times, so classes are loaded and first calls made before allocations are counted. */
    public static void warmUp(Warm warm) {
        for (int i = 0; i < 3; i++) {
            allocated();
            try {
                warm.run();
            } catch (Exception | AssertionError e) {
                // warming up only: the targets judge
            }
        }
    }

    /**
     * Calls {@code equals}, {@code hashCode} and {@code toString} of {@code value}, so that a record's methods,
     * linked by invokedynamic on first call (about 250 KiB), are not counted against the first input that compares
     * two of them.
     */
    public static void linkRecordMethods(Object value) {
        value.equals(value);
        value.equals(new Object());
        value.hashCode();
        value.toString();
    }

    /** A failed invariant: thrown so the fuzzer keeps the input as a finding. */
    public static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /**
     * As {@link #check(boolean, String)}, the message built only on failure: inside a region whose allocations are
     * measured, an eagerly built message is the test's own garbage, counted against the code under test.
     */
    public static void check(boolean ok, java.util.function.Supplier<String> what) {
        if (!ok) {
            throw new AssertionError(what.get());
        }
    }
}
