package dev.tessera.task;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sense-reversing centralized barrier for the members of a team. Each member keeps its
 * own sense; arriving flips it and decrements the shared count; the last to arrive resets
 * the count, runs the barrier action (while everybody else still waits), and publishes
 * the new sense, which releases the others. Waiters spin, then poll with
 * short parks ({@link TeamIdle}), so a barrier costs a cache-line round trip when members
 * arrive together and no core stays busy when one member is late for long.
 *
 * <p>A member that fails breaks the barrier: everyone waiting, or arriving later, leaves
 * with {@link Broken} instead of waiting forever for the failed member. A broken barrier
 * is replaced, not repaired.
 */
final class TeamBarrier {

    /** Thrown to members released from a broken barrier; the member's real failure is reported instead. */
    static final class Broken extends RuntimeException {
        Broken() {
            super("team barrier broken by a failed member", null, false, false);
        }
    }

    private final int parties;
    private final AtomicInteger waiting;
    private volatile boolean sense;
    private volatile boolean broken;

    TeamBarrier(int parties) {
        this.parties = parties;
        this.waiting = new AtomicInteger(parties);
    }

    /** Waits for all parties; {@code localSense} is the member's sense, returned flipped. */
    boolean await(boolean localSense, Runnable lastArrival) {
        boolean next = !localSense;
        if (broken) {
            throw new Broken();
        }
        if (waiting.decrementAndGet() == 0) {
            waiting.set(parties);
            if (lastArrival != null) {
                lastArrival.run();
            }
            sense = next;
            return next;
        }
        int idle = 0;
        while (sense != next) {
            if (broken) {
                throw new Broken();
            }
            idle = TeamIdle.idle(idle);
        }
        return next;
    }

    /**
     * The sense last published: a member starting a region takes it as its own, so members
     * stay in step with the barrier whatever number of barriers earlier regions had.
     */
    boolean currentSense() {
        return sense;
    }

    void breakBarrier() {
        broken = true;
    }

    boolean isBroken() {
        return broken;
    }
}
