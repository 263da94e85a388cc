package dev.tessera.device;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then (optionally) yield, then park with exponentially growing timeouts.
 *
 * <p>The spin phase keeps small-message latency near the cost of a cache-line transfer
 * (about 0.1 us between two cores); the park phase stops an idle rank from burning a core
 * forever. A completer that knows the waiting thread unparks it, so parking costs
 * latency only when nobody can wake the waiter (pure polling devices).
 *
 * <p>The default has no yield phase ({@code tessera.idle.yields}, default 0). Linux's
 * sched_yield hands the core to any other runnable task, even one of the idle class, for
 * up to a scheduler tick: with one background process on a 2-core AMD EPYC, a 56 KB
 * exchange between two shm ranks took 1.6-2.0 ms at the median with 200 yields and 25 us
 * without them (CG class A at 2 x 1: 1.4-1.6 x faster). Parking gives the core away just as
 * well on an oversubscribed node, and ends as soon as a completer unparks the waiter.
 *
 * <p>Stateless apart from its thresholds: the caller keeps the idle counter, so one
 * instance serves every thread.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    static final BackoffIdleStrategy DEFAULT = new BackoffIdleStrategy(
            Integer.getInteger("tessera.idle.spins", 2_000),
            Integer.getInteger("tessera.idle.yields", 0),
            1_000, 200_000);

    /**
     * For the waits of a device that is polled (shm) when each rank has a core of its own
     * ({@link WaitMode#SPIN}): about 1-2 ms of spinning ({@code tessera.idle.longSpins},
     * 50,000 polls) before the parks. A shm message is seen only by polling, so a rank
     * parked when it arrives sees it only at the end of the park, which the kernel's timer
     * slack lengthens by about 50 us; with the default's 50 us spin, a rank that waited for
     * a peer a little behind it (every exchange of an iterative solver) parked and woke late,
     * and CG class A at 2 x 1 on shm ran 1.3-1.6x slower than with 2 ms of polling
     * (docs/npb.md, 2026-11-24). A spinning rank holds only its own core: MPI libraries
     * poll without limit in this case.
     */
    public static final BackoffIdleStrategy LONG_SPIN = new BackoffIdleStrategy(
            Integer.getInteger("tessera.idle.longSpins", 50_000), 0, 1_000, 200_000);

    /**
     * For threads that poll operations which progress only when polled (the mpi facade's
     * Waitany and Waitsome, the io module's nonblocking collective file operations): 64
     * spins, 64 yields, then parks from 1 us doubling up to 50 us, so a long wait costs
     * little CPU and a short one little latency. The caller keeps the idle count.
     */
    public static final BackoffIdleStrategy POLLING = new BackoffIdleStrategy(64, 64, 1_000, 50_000);

    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;

    public BackoffIdleStrategy(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        if (maxSpins < 0 || maxYields < 0 || minParkNanos <= 0 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("invalid backoff thresholds");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
    }

    /** True once {@code idleCount} has reached the park phase. */
    public boolean parks(int idleCount) {
        return idleCount >= maxSpins + maxYields;
    }

    @Override
    public void idle(int idleCount) {
        if (idleCount < maxSpins) {
            Thread.onSpinWait();
        } else if (idleCount < maxSpins + maxYields) {
            Thread.yield();
        } else {
            int parks = Math.min(idleCount - maxSpins - maxYields, 20);
            LockSupport.parkNanos(Math.min(maxParkNanos, minParkNanos << parks));
        }
    }
}
