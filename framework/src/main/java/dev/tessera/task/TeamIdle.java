package dev.tessera.task;

import java.util.concurrent.locks.LockSupport;

/**
 * The waiting policy of team threads: spin (about 20 us, enough to cover back-to-back
 * parallel loops, as GOMP_SPINCOUNT does for OpenMP), then short parks so an idle team does
 * not hold the cores. There is no yield phase by default ({@code tessera.team.yields}): as
 * GOMP, which goes from spinning to a futex wait, a waiter does not call sched_yield, which
 * hands the core to any other runnable task (even an idle-class one) for up to a
 * scheduler tick while a team member may be about to arrive (see BackoffIdleStrategy).
 */
final class TeamIdle {

    static final int SPINS = Integer.getInteger("tessera.team.spins", 20_000);
    static final int YIELDS = Integer.getInteger("tessera.team.yields", 0);

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
