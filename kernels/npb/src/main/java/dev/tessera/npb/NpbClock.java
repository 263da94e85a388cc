package dev.tessera.npb;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The clock of the kernels' timed parts: wall-clock time (System.nanoTime), as the reference
 * (MPI_Wtime). With the system property {@code npb.clock=cpu} it is instead the CPU time of
 * the calling thread, a diagnostic for comparing code on a machine that other jobs keep busy:
 * with one thread per rank (all the work on the rank's own thread) it measures the work
 * without the time spent waiting for a core. It is not what NPB reports; do not publish it
 * as Mop/s.
 */
public final class NpbClock {

    private static final boolean CPU = "cpu".equals(System.getProperty("npb.clock"));
    private static final ThreadMXBean THREADS = CPU ? ManagementFactory.getThreadMXBean() : null;

    private NpbClock() {
    }

    /** Nanoseconds from an arbitrary origin, on this clock. */
    public static long nanos() {
        return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /** Whether this run measures CPU time instead of wall-clock time. */
    public static boolean measuresCpu() {
        return CPU;
    }
}
