package dev.tessera.npb.cg;

import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.npb.ClassLetter;
import dev.tessera.npb.CompilerQuiet;
import dev.tessera.npb.JitSettle;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.MemoryFootprint;
import dev.tessera.npb.NpbClock;
import dev.tessera.npb.NpbKernel;
import dev.tessera.npb.Progress;
import dev.tessera.npb.Randlc;
import dev.tessera.task.Team;
import java.time.Duration;
import java.util.Locale;

/**
 * CG: estimates the smallest eigenvalue of a large sparse symmetric positive definite
 * matrix by inverse power iteration, each step solving A z = x with 25 iterations of the
 * conjugate gradient method; zeta = shift + 1 / (x . z) is compared with the reference's.
 *
 * <p>Distribution as NPB3.4-MPI CG/cg.f: the matrix is cut in blocks over a 2D grid of
 * processes ({@link CgGrid}); vectors are distributed by column blocks; the product's
 * partial row sums are combined by recursive halving within each process row and moved to
 * the column distribution by one exchange with the transpose process; scalar products are
 * summed by the same butterfly; at np = 2 with one thread per process the product stores
 * each element once between the two processes ({@link CgRankPair}), where cg.f stores the
 * off-diagonal quarters twice. np must be a power of two. Inside a process the solver
 * ({@link CgSolver}) spreads rows and vector elements over the team's members.
 *
 * <p>Verification: |zeta - zeta_ref| / zeta_ref <= 1e-10. Operation count (cg.f):
 * 2 niter na (3 + nonzer (nonzer+1) + 25 (5 + nonzer (nonzer+1)) + 3).
 */
public final class CgKernel implements NpbKernel, MemoryFootprint {

    /** The classes, in the order of the arrays below. */
    static final String CLASSES = ClassLetter.IMPLEMENTED;
    /** na, nonzer, niter, shift per class (sys/setparams.c: write_cg_info). */
    static final int[] NA = {1400, 7000, 14000, 75000, 150000};
    static final int[] NONZER = {7, 8, 11, 13, 15};
    static final int[] NITER = {15, 15, 15, 75, 75};
    static final double[] SHIFT = {10.0, 12.0, 20.0, 60.0, 110.0};
    /** Condition number bound (rcond, sys/setparams.c: write_cg_info). */
    static final double RCOND = 0.1;
    /** Reference zeta per class (cg.f: zeta_verify_value). */
    static final double[] ZETA_REFERENCE = {8.5971775078648, 10.362595087124, 17.130235054029, 22.712745482631,
        28.973605592845};
    /** Relative tolerance of the verification (epsilon, cg.f). */
    static final double EPSILON = 1.0e-10;
    /**
     * Untimed iterations before the timed ones, per class: the reference's one (cg.f: "Do one
     * iteration untimed to init all code and data page tables") plus enough for the timed part
     * to run code the JIT has compiled. With two team threads the JIT's compiler threads
     * compete with them for the two cores: -XX:+PrintCompilation on class A at 1 x 2 showed
     * the solver's region method reaching C2 about 250 ms into the 0.45 s timed part. Measured
     * on class A at 1 x 2 (fresh JVMs): 4 warm-up iterations left the timed part at 0.31-0.38 s,
     * 12 gave 0.17-0.18 s, the same as a second run in the same JVM. Classes S, W and A have
     * 15 short iterations, so 12 cost well under a second; B and C iterate 75 times, each a
     * few tenths of a second or more, and 4 leave the JIT that much time. They do not change
     * the result: x is reset to (1, ..., 1) afterwards.
     */
    static final int[] WARM_UP_ITERATIONS = {12, 12, 12, 4, 4};
    /**
     * Untimed rounds of one CG iteration's messages, after the warm-up iterations, at two
     * processes with {@link CgRankPair}'s product ({@link CgSolver#warmUpMessages}): the
     * message path's methods are called a few times per CG iteration, and after the warm-up
     * iterations alone they reached C2's thresholds (thousands of calls) inside the timed
     * part, where each compile took a core from a rank (class A at 2 x 1, stop 46). Every
     * other round sends before it receives ({@code CgRankPair.sentBeforeReceived}), the order
     * a process that falls behind sees. With 3000 rounds the second kind's methods (an smp
     * receive copying from the sender's buffer, the shm device's queued sends) were called
     * often enough to be near C2's thresholds but not past them, and crossed them in the timed
     * part instead (class A at 2 x 1 on smp: 30-65 ms of compiler CPU per timed part against
     * 5-40 without the second kind); 8000 rounds leave 0-35 (stop 58). At class A they take
     * about 2 s; classes B and C, whose messages are 5 and 10 times longer and whose timed
     * parts last tens of seconds, keep 3000.
     */
    static final int[] MESSAGE_WARM_UP_ROUNDS = {8000, 8000, 8000, 3000, 3000};
    /**
     * After the warm-up (and its message rounds): how long the JVM's compiler threads must have
     * been idle before the next step ({@link CompilerQuiet}), and the longest wait. The rounds
     * put the message path's methods in the C2 queue ahead of the solver's: without the wait,
     * C2 compiled {@code CgSolver.step} and {@code CgRankPair.share} inside the timed part of
     * one class A run (0.36-0.42 s of compiler CPU per JVM).
     */
    static final long COMPILER_QUIET_MILLIS = 100;
    static final long COMPILER_QUIET_MAX_MILLIS = 5000;
    /**
     * Most untimed iterations, per class, after the warm-up and its quiet wait, run one at a
     * time until one leaves the compilers idle ({@link JitSettle}): the warm-up's last
     * iterations can be what brings the solver's region method to C2, whose compilation then
     * ran in the first timed iterations (class A at 2 x 1 on smp: 290-400 ms of C2 with the
     * timed part at 0.46-0.51 s; with the settling rounds 0.24 s). Four ranks on two cores took
     * 9 before the compilers rested (class A 4 x 1 on shm: 2126-2141 Mop/s with at most 6,
     * 2205-2568 with up to 15). Classes B and C take a few tenths of a second or more per
     * iteration, so fewer.
     */
    static final int[] SETTLE_ITERATIONS_MAX = {12, 12, 12, 3, 3};
    /** System property: the most settling iterations for every class instead of {@link #SETTLE_ITERATIONS_MAX}; 0: none, and no wait. */
    public static final String SETTLE_PROPERTY = "tessera.npb.cg.settleIterations";

    /** The most settling iterations for class index {@code c}: {@link #SETTLE_PROPERTY} if set, else the class's. */
    static int settleIterationsMax(int c) {
        Integer n = Integer.getInteger(SETTLE_PROPERTY);
        if (n == null) {
            return SETTLE_ITERATIONS_MAX[c];
        }
        if (n < 0) {
            throw new IllegalArgumentException("CG: " + SETTLE_PROPERTY + " must be >= 0, got " + n);
        }
        return n;
    }
    /** Generator seed and multiplier (tran, amult; cg.f). */
    static final double TRAN = 314159265.0;
    static final double AMULT = 1220703125.0;

    public CgKernel() {
    }

    /** What the untimed warm-up ran, for the report's WARM-UP line. */
    record WarmUp(int iterations, int messageRounds, int settleIterations) {
        String text() {
            return iterations + " iterations untimed"
                    + (messageRounds > 0 ? ", " + messageRounds + " rounds of an iteration's messages" : "")
                    + (settleIterations > 0 ? ", " + settleIterations + " more until one left the JIT idle" : "")
                    + ", then x = (1, ..., 1) again"
                    + " (reference: 1)";
        }
    }

    /**
     * Untimed iterations to bring in every page and compile the solver; at two processes with
     * {@link CgRankPair}'s product then {@code messageRounds} rounds of an iteration's
     * messages ({@link CgSolver#warmUpMessages}); then up to {@code settleMax} more iterations,
     * one at a time, until the JIT compilers stay idle through one ({@link JitSettle}); then
     * x = (1, ..., 1) again, so that the timed iterations start where the reference's do.
     * Every rank of {@code world} must call it.
     */
    static WarmUp warmUp(CgSolver solver, Comm world, double shift, int iterations, int messageRounds, int settleMax) {
        solver.resetX();
        for (int i = 0; i < iterations; i++) {
            solver.iterate(shift);
        }
        // after the iterations, so that the solver's own methods reach C2 first, as without the rounds
        int rounds = solver.warmUpMessages(messageRounds);
        int settle;
        try {
            settle = JitSettle.rounds(world, settleMax, Duration.ofMillis(COMPILER_QUIET_MILLIS),
                    Duration.ofMillis(COMPILER_QUIET_MAX_MILLIS), () -> solver.iterate(shift));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("CG: interrupted in the warm-up", e);
        }
        solver.resetX();
        return new WarmUp(iterations, rounds, settle);
    }

    @Override
    public String name() {
        return "CG";
    }

    @Override
    public void check(char problemClass, int ranks) {
        int c = ClassLetter.require("CG", problemClass, CLASSES);
        if (!CgGrid.allowed(ranks)) {
            throw new IllegalArgumentException("CG: the number of processes must be a power of two (NPB3.4-MPI CG/cg.f "
                    + "setup_proc_info), got " + ranks);
        }
        int npcols = CgGrid.colsFor(ranks);
        if (NA[c] / npcols < 2) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "CG class %c: np = %d gives %d process columns for %d matrix columns; use fewer processes",
                    problemClass, ranks, npcols, NA[c]));
        }
        long nz = CgMatrix.nonzeroCapacity(NA[c], NONZER[c], ranks, npcols);
        if (nz > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "CG class %c: %d nonzeros per process exceed a Java array; use more processes", problemClass, nz));
        }
    }

    @Override
    public long heapBytesPerRank(char problemClass, int ranks, int threads) {
        int c = ClassLetter.require("CG", problemClass, CLASSES);
        int npcols = CgGrid.colsFor(ranks);
        long nz = CgMatrix.nonzeroCapacity(NA[c], NONZER[c], ranks, npcols);
        long naa = NA[c] / CgGrid.rowsFor(ranks);
        // makea's peak: row, column and value triples plus the compressed arrays (4 + 4 + 8 + 8 + 4 bytes per
        // element) and the trimmed copy of the latter; then six vectors and the workspaces of n.
        return nz * 40 + 6 * (naa + 2) * Double.BYTES + (long) NA[c] * 24 + (4L << 20);
    }

    @Override
    public KernelResult run(Comm world, Team team, char problemClass) {
        check(problemClass, world.size());
        int c = ClassLetter.require("CG", problemClass, CLASSES);
        int settleMax = settleIterationsMax(c);
        int na = NA[c];
        int nonzer = NONZER[c];
        int niter = NITER[c];
        double shift = SHIFT[c];
        CgGrid grid = new CgGrid(world.rank(), world.size(), na);

        // The generator's first draw is discarded (cg.f: zeta = randlc(tran, amult)).
        double tran = Randlc.multiply(TRAN, AMULT);
        CgMatrix matrix = CgMatrix.generate(na, nonzer, RCOND, shift, grid, tran);
        CgSolver solver = new CgSolver(world, team, grid, matrix, na / grid.nprows);

        WarmUp warmUp = warmUp(solver, world, shift, WARM_UP_ITERATIONS[c], MESSAGE_WARM_UP_ROUNDS[c], settleMax);

        world.barrier();
        long start = NpbClock.nanos();
        Progress.start();
        double zeta = 0;
        double rnorm = 0;
        for (int it = 1; it <= niter; it++) {
            zeta = solver.iterate(shift);
            rnorm = solver.rnorm();
            Progress.iteration(it, niter);
        }
        double seconds = world.allreduce((NpbClock.nanos() - start) * 1e-9, Op.MAX);

        double err = Math.abs(zeta - ZETA_REFERENCE[c]) / ZETA_REFERENCE[c];
        boolean verified = !Double.isNaN(err) && err <= EPSILON;
        double nnz = nonzer * (nonzer + 1.0);
        double mops = seconds != 0 ? 1.0e-6 * 2 * niter * (double) na * (3.0 + nnz + 25.0 * (5.0 + nnz) + 3.0) / seconds : 0;
        String detail = String.format(Locale.ROOT, " Zeta is     %20.13e (reference %20.13e, error %.3e, tolerance %.0e)%n"
                + " ||r|| of the last iteration %20.14e", zeta, ZETA_REFERENCE[c], err, EPSILON, rnorm);
        return new KernelResult("CG", problemClass, Integer.toString(na), niter, seconds, mops,
                "          floating point", verified, detail, warmUp.text());
    }
}
