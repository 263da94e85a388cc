package dev.tessera.npb;

import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.time.Duration;

/**
 * Untimed rounds of a kernel's iteration, after its warm-up, until one round leaves the JIT
 * compilers idle: the last warm-up iteration can be what brings a hot method to C2's threshold,
 * and that compilation then runs in the timed part, taking a core from a rank for as long as it
 * lasts. CG at 2 x 1 on smp (class A, one JVM for both ranks): C2 compiled the solver's region
 * method (721 bytes, with the product and the exchanges inlined) for 290-400 ms starting with
 * the first timed iteration, and the run read 2900-3300 Mop/s against 4600-5200 for the same
 * layout on shm, where each JVM compiled it inside the warm-up (docs/npb.md, stop 57).
 *
 * <p>Each round: the compiler threads' CPU time ({@link CompilerQuiet#compilerNanos}), one
 * iteration, the wait for the compilers to be idle, the CPU time again. A round in which the
 * compilers worked more than {@link #BUSY} on any rank asks for another; the ranks agree by an
 * allreduce, so every rank runs the same number of rounds (an iteration communicates). At most
 * {@code maxRounds}; where the compiler threads cannot be read (not Linux) one round runs. After
 * the last agreement, one more wait for idle compilers.
 */
public final class JitSettle {

    /**
     * Compiler CPU time in one round above which the JIT counts as busy: a C1 compilation takes
     * about a millisecond, the C2 compilations that matter here tens to hundreds; the wait's own
     * reads of /proc start a few small compilations of JDK methods in its first rounds.
     */
    public static final Duration BUSY = Duration.ofMillis(5);

    private JitSettle() {
    }

    /**
     * Runs {@code round} once, then again while the compilers were busy during the last round on
     * any rank of {@code world}, at most {@code maxRounds} times (at least once if {@code maxRounds}
     * is positive; with 0 it returns at once, without a wait), each followed by {@link CompilerQuiet#await(Duration, Duration)} with {@code quiet}
     * and {@code limit}; returns the rounds run. Every rank of {@code world} must call it.
     */
    public static int rounds(Comm world, int maxRounds, Duration quiet, Duration limit, Runnable round)
            throws InterruptedException {
        return rounds(world, maxRounds, quiet, limit, round, new CompilerQuiet());
    }

    static int rounds(Comm world, int maxRounds, Duration quiet, Duration limit, Runnable round, CompilerQuiet compilers)
            throws InterruptedException {
        if (maxRounds < 0) {
            throw new IllegalArgumentException("JitSettle: maxRounds must be >= 0, got " + maxRounds);
        }
        if (maxRounds == 0) {
            return 0;
        }
        // compilations queued before the first round are not the rounds' to count
        compilers.await(quiet, limit);
        int run = 0;
        while (run < maxRounds) {
            long before = compilers.compilerNanos();
            round.run();
            run++;
            compilers.await(quiet, limit);
            long after = compilers.compilerNanos();
            boolean busy = before >= 0 && after >= 0 && after - before > BUSY.toNanos();
            if (world.allreduce(busy ? 1.0 : 0.0, Op.MAX) == 0.0) {
                break;
            }
        }
        // The rank whose wait ended first polled in that allreduce until the other's ended, and a
        // long poll is where the JIT compiles the poll loop itself (on shm, an OSR compilation of
        // the device's wait of 20-45 ms that ran into CG's timed part at 2 x 1): let it finish.
        compilers.await(quiet, limit);
        return run;
    }

    /**
     * The barrier before a timed part, after a warm-up: a barrier, a wait for idle compilers
     * ({@link CompilerQuiet#QUIET}, at most {@link CompilerQuiet#LIMIT}), a barrier. A rank that
     * reaches the first barrier long before another polls there, and a long poll is where the JIT
     * compiles the device's wait loop (EP at 2 x 1 on shm after its warm-up, whose rounds end at
     * different times on the two ranks: a C2 compilation of {@code ShmDevice.spinThenSleep}, 41-47
     * ms, starting as the timer started); the wait lets it end before the timer, and the second
     * barrier, whose waits are short, runs the compiled loop. Every rank of {@code world} must call it.
     */
    public static void quietBarrier(Comm world) throws InterruptedException {
        quietBarrier(world, CompilerQuiet.QUIET, CompilerQuiet.LIMIT, new CompilerQuiet());
    }

    static void quietBarrier(Comm world, Duration quiet, Duration limit, CompilerQuiet compilers)
            throws InterruptedException {
        world.barrier();
        compilers.await(quiet, limit);
        world.barrier();
    }
}
