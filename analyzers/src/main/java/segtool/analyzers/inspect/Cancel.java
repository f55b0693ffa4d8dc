package segtool.analyzers.inspect;

import segtool.analyzers.recovery.RecoveryEngine;

/** The inspection walks stop between records when their thread is interrupted, as the engine's passes do. */
final class Cancel {
    private Cancel() {
    }

    static void check() {
        if (Thread.currentThread().isInterrupted()) {
            throw new RecoveryEngine.Cancelled();
        }
    }
}
