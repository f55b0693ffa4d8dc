package segtool.analyzers.repair;

import java.io.IOException;

/**
 * Fault-injection seam: the {@link Applier} calls it before every mutation it performs (each write, force,
 * truncate, rename, delete and directory creation), numbering them from 0 within one applier. Throwing from it
 * models a crash at that point; tests count the steps of an uninterrupted run and crash at each one.
 */
@FunctionalInterface
public interface StepHook {
    StepHook NONE = (step, action) -> { };

    void before(int step, String action) throws IOException;
}
