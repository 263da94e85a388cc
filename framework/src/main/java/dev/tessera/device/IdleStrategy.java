package dev.tessera.device;

/**
 * What a thread does while it waits for something another thread or process will do:
 * called once per unsuccessful poll with the number of consecutive idle polls so far.
 * Modelled on Agrona's idle strategies: waiting policy is an object, not sleeps scattered
 * through polling loops.
 */
public interface IdleStrategy {

    /** One idle step. {@code idleCount} starts at 0 after the last bit of progress. */
    void idle(int idleCount);

    /** Spin, then yield, then park for growing periods up to {@code maxParkNanos}. */
    static IdleStrategy backoff() {
        return BackoffIdleStrategy.DEFAULT;
    }
}
