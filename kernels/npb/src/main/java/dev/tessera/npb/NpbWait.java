package dev.tessera.npb;

import dev.tessera.comm.Request;

/**
 * How the kernels wait for their point-to-point requests: by polling ({@link Request#test},
 * which drives the device's progress) for up to {@code tessera.npb.spinMicros} microseconds
 * (default 2000), then through {@link Request#await}, the device's own wait.
 *
 * <p>Why. The device's wait spins about 50 us (2000 polls of {@code BackoffIdleStrategy}),
 * then parks for growing times (1 us, 2 us, ... up to 200 us, each lengthened by the
 * kernel's timer slack of about 50 us), and a shm message that arrives during a park is seen
 * only when the park ends. NPB's kernels wait at every exchange for the other rank to finish
 * the same work; with one rank per core, a rank that is 100 us behind makes the other park,
 * which then wakes up to 100 us late, and the late one waits in turn at the next exchange.
 * NPB's reference waits by polling (Open MPI's default with no more ranks than cores). The
 * bound keeps a rank from holding its core for long when the other rank is descheduled (more
 * ranks than cores, or a busy machine): after it the device's wait takes over. {@code 0}
 * waits through the device at once, as before.
 */
public final class NpbWait {

    /** The switch: microseconds of polling before the device's wait. */
    static final String SPIN_MICROS = "tessera.npb.spinMicros";
    /**
     * Polling time before the device's wait, in nanoseconds; 0 if the switch's value is bad
     * ({@link #checkSwitch}, which NpbMain calls before any work, refuses the run then).
     */
    static final long SPIN_NANOS = validOrZero(System.getProperty(SPIN_MICROS));

    private NpbWait() {
    }

    /** Refuses a bad value of tessera.npb.spinMicros with an IllegalArgumentException naming it. */
    public static void checkSwitch() {
        spinNanos(System.getProperty(SPIN_MICROS));
    }

    private static long validOrZero(String micros) {
        try {
            return spinNanos(micros);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    static long spinNanos(String micros) {
        if (micros == null) {
            return 2_000_000L;
        }
        try {
            long us = Long.parseLong(micros.strip());
            if (us >= 0) {
                return Math.multiplyExact(us, 1000L);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + SPIN_MICROS + "=" + micros
                + " is not a number of microseconds (0 or more)");
    }

    /** Waits for {@code request}: polls for up to tessera.npb.spinMicros, then the device's wait. */
    public static void await(Request request) {
        await(request, SPIN_NANOS);
    }

    /** Waits for {@code request}: polls for up to {@code spinNanos}, then {@link Request#await}. */
    public static void await(Request request, long spinNanos) {
        if (spinNanos > 0) {
            if (request.test()) {
                return;
            }
            long start = System.nanoTime();
            while (System.nanoTime() - start < spinNanos) {
                Thread.onSpinWait();
                if (request.test()) {
                    return;
                }
            }
        }
        request.await();
    }
}
