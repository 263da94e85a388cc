package dev.tessera.task;

import java.util.concurrent.locks.LockSupport;

/**
 * The waiting policy of team threads: spin (about 20 us, enough to cover back-to-back
 * parallel loops, as GOMP_SPINCOUNT does for OpenMP), then yield, then short parks so an
 * idle team does not hold the cores.
 */
final class TeamIdle {

    static final int SPINS = Integer.getInteger("tessera.team.spins", 20_000);
    static final int YIELDS = 100;

    private TeamIdle() {
    }

    /** One idle step; returns the next idle count. */
    static int idle(int count) {
        if (count < SPINS) {
            Thread.onSpinWait();
        } else if (count < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(50_000);
        }
        return count + 1;
    }

    /** True once a waiter should park and rely on being unparked. */
    static boolean parks(int count) {
        return count >= SPINS + YIELDS;
    }
}
