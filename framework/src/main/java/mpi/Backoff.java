package mpi;

import java.util.concurrent.locks.LockSupport;

/**
 * How the facade's waits idle between polls of requests that progress only when polled
 * (Waitany, Waitsome over several requests): spin briefly, then yield, then park for
 * growing intervals up to 50 us, so a wait costs little CPU without adding latency to
 * completions that arrive at once.
 */
final class Backoff {

    private Backoff() {
    }

    static void idle(int round) {
        if (round < 64) {
            Thread.onSpinWait();
        } else if (round < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(50_000L, 1_000L << Math.min(6, (round - 128) / 64)));
        }
    }
}
