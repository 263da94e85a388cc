package dev.tessera.npbmz.lu;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Point-to-point synchronisation of a pipelined triangular sweep over a team: member m owns
 * a block of rows and may sweep plane p of its block once its upstream neighbour has swept
 * plane p of its own block (the reference's sync_left / sync_right in syncs.f of LU-MZ-OMP).
 *
 * <p>Algorithm. Each member publishes one monotonically increasing counter: the number of
 * planes it has finished since the pipeline was created. A sweep of n planes starts at a
 * common {@code base} (all earlier sweeps' planes); a member that wants plane p of the sweep
 * waits until its upstream counter reaches base + p + 1, does the plane, and then releases
 * its own counter to base + p + 1. Unlike syncs.f's one-slot flag, which makes the upstream
 * member wait until the downstream one has consumed the previous signal, the counter never
 * makes the producer wait: the downstream member reads only the upstream block's boundary
 * row of a plane the upstream member has finished and never writes again in that sweep.
 *
 * <p>The same counters make a barrier ({@link #barrier}): a member publishes a count every
 * member reaches at that point of the step and waits until all counters have reached it.
 * The step uses these instead of the team's barrier, so its synchronisation depends on
 * nothing but its own counters.
 *
 * <p>Invariants: counters only grow; every member's counter has the same value at the start
 * of each step (each member advances it by the same amount per step); a counter's release
 * store happens after every write of the planes it counts, and the waiter's acquire load
 * sees them (happens-before through the VarHandle release/acquire pair). Counters sit 128
 * bytes apart so members do not share cache lines. If a member fails, {@link #abort} wakes
 * every waiter with an exception instead of a hang; an interrupted waiter aborts the same way.
 */
final class SweepPipeline {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PAD = 16;               // longs between two members' counters
    private static final int SPINS = 1 << 12;        // busy spins before yielding the core

    private final long[] done;
    private final int members;
    private volatile boolean aborted;

    SweepPipeline(int members) {
        this.members = members;
        this.done = new long[(members + 1) * PAD];
    }

    int members() {
        return members;
    }

    /** Planes member {@code m} has finished so far, all sweeps together. */
    long finished(int m) {
        return (long) SLOT.getAcquire(done, (m + 1) * PAD);
    }

    /** Publishes that member {@code m} has finished {@code count} planes in all. */
    void publish(int m, long count) {
        SLOT.setRelease(done, (m + 1) * PAD, count);
    }

    /** Waits until member {@code m} has finished at least {@code count} planes. */
    void await(int m, long count) {
        int spins = 0;
        while ((long) SLOT.getAcquire(done, (m + 1) * PAD) < count) {
            if (aborted) {
                throw new IllegalStateException("LU-MZ sweep pipeline: a member failed, abandoning the wait for member " + m);
            }
            if (Thread.currentThread().isInterrupted()) {
                abort();
                throw new IllegalStateException("LU-MZ sweep pipeline: interrupted while waiting for member " + m);
            }
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /**
     * Barrier among the first {@code size} members: member {@code m} publishes {@code count}
     * and waits until every member has published at least {@code count}.
     */
    void barrier(int m, int size, long count) {
        publish(m, count);
        for (int other = 0; other < size; other++) {
            if (other != m) {
                await(other, count);
            }
        }
    }

    /** Makes every present and future {@link #await} throw (a member failed). */
    void abort() {
        aborted = true;
    }

    boolean aborted() {
        return aborted;
    }
}
