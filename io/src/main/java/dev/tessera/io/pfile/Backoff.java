package dev.tessera.io.pfile;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits for an operation that progresses only when polled (a nonblocking
 * collective file operation): spin briefly, then yield, then park for short, growing
 * intervals up to 100 microseconds, so a long wait costs little CPU and a short one little latency.
 */
final class Backoff {

    private Backoff() {
    }

    /** Waits a little; {@code idle} is the number of fruitless polls so far. */
    static void idle(int idle) {
        if (idle < 64) {
            Thread.onSpinWait();
        } else if (idle < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(100_000L, 1_000L << Math.min(7, (idle - 128) / 64)));
        }
    }
}
