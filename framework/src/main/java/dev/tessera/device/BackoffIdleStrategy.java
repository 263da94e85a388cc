package dev.tessera.device;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with exponentially growing timeouts.
 *
 * <p>The spin phase keeps small-message latency near the cost of a cache-line transfer
 * (about 0.1 us between two cores); the yield phase lets an oversubscribed node (more
 * ranks than cores) make progress; the park phase stops an idle rank from burning a core
 * forever. A completer that knows the waiting thread unparks it, so parking costs
 * latency only when nobody can wake the waiter (pure polling devices).
 *
 * <p>Stateless apart from its thresholds: the caller keeps the idle counter, so one
 * instance serves every thread.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    static final BackoffIdleStrategy DEFAULT = new BackoffIdleStrategy(
            Integer.getInteger("tessera.idle.spins", 2_000),
            Integer.getInteger("tessera.idle.yields", 200),
            1_000, 200_000);

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
