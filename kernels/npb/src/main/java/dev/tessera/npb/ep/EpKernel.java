package dev.tessera.npb.ep;

import dev.tessera.comm.Buffer;
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
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * EP, the "embarrassingly parallel" kernel: 2^(m+1) uniform random numbers of the NPB
 * generator are paired into 2^m points of the square (-1, 1)^2; every point inside the
 * unit circle is turned into a pair of Gaussian deviates (Marsaglia's polar method), whose
 * sums and whose counts in the square annuli max(|X|, |Y|) in [l, l+1) are the result.
 *
 * <p>Distribution, as {@code NPB3.4-MPI/EP/ep.f}: the 2^m pairs are cut into
 * nn = 2^(m-16) batches of 2^16 pairs; rank r takes a contiguous run of batches (the first
 * nn mod np ranks one more); the first number of batch k is found without generating the
 * ones before it, by jumping the generator with a^(2^17 k) through binary powering. At the
 * end the two sums and the ten counts are summed over ranks with three allreduces, and the
 * time is the maximum over ranks. Inside a rank, the team's members claim the rank's
 * batches one at a time from a shared counter, each with its own batch buffer and counts;
 * each batch's two sums go to the batch's own slot and are added up in batch order at the
 * end, so the sums are the same, bit for bit, at any number of threads.
 *
 * <p>Why batches are claimed rather than dealt in halves: on two cores the JVM's own
 * threads (compiler, GC) and the machine's take turns with the members, and with a static
 * split the member that was interrupted ends last while the other waits (class A at 1 x 2
 * on the 2-vCPU Intel Xeon, docs/npb.md stop 39: the members ended 0.05-0.26 s apart in a
 * 9 s run). A batch is 2^17 numbers (about 4 ms on one core), so claiming one costs nothing
 * measurable and the members end at most a batch apart. The gain is small: 5 alternating
 * rounds against the static split, 58.2-61.1 (median 60.3) against 59.6-61.0 (59.8) Mop/s.
 *
 * <p>Verification: both sums within a relative 1e-8 of the reference's values for m.
 */
public final class EpKernel implements NpbKernel, MemoryFootprint {

    /** log2 of the pairs per batch (mk, ep_data.f); does not change the result. */
    static final int MK = 16;
    /** Pairs per batch (nk = 2^mk, ep_data.f). */
    static final int NK = 1 << MK;
    /** Number of annuli counted (nq, ep_data.f). */
    static final int NQ = 10;
    /** Generator multiplier and seed (a, s; ep_data.f). */
    static final double A = 1220703125.0;
    static final double S = 271828183.0;
    /** Relative tolerance of the verification (epsilon, ep.f). */
    static final double EPSILON = 1.0e-8;

    /** The classes, in the order of the arrays below. */
    static final String CLASSES = ClassLetter.IMPLEMENTED;
    /** m = log2 of the number of pairs per class (sys/setparams.c, write_ep_info). */
    static final int[] M = {24, 25, 28, 30, 32};
    /** Reference sums of the X and Y deviates for m = 24, 25, 28, 30, 32 (ep.f, verification). */
    static final double[] SX_REFERENCE = {-3.247834652034740e+3, -2.863319731645753e+3, -4.295875165629892e+3,
        4.033815542441498e+4, 4.764367927995374e+4};
    static final double[] SY_REFERENCE = {-6.958407078382297e+3, -6.320053679109499e+3, -1.580732573678431e+4,
        -2.660669192809235e+4, -8.084072988043731e+4};

    /** Per-member counts q[0..NQ), padded to 128 bytes so members do not share cache lines. */
    private static final int ACC_STRIDE = NQ + 6;

    /** The two sums (sx, sy) of the last run on this kernel object, bit for bit; for tests. */
    private volatile double[] lastSums;

    /** Warm-up batches per thread; -1: {@link #warmUpBatchesPerThread()}. */
    private final int warmUpPerThread;

    public EpKernel() {
        this(-1);
    }

    /** A kernel with {@code warmUpPerThread} warm-up batches per thread (-1: the property's or the default); for tests. */
    EpKernel(int warmUpPerThread) {
        this.warmUpPerThread = warmUpPerThread;
    }

    /** The sums sx and sy of the last run (every rank has the same), or null before the first. */
    double[] lastSums() {
        return lastSums;
    }

    @Override
    public String name() {
        return "EP";
    }

    @Override
    public void check(char problemClass, int ranks) {
        int c = ClassLetter.require("EP", problemClass, CLASSES);
        long batches = 1L << (M[c] - MK);
        if (ranks < 1 || ranks > batches) {
            // ep.f stops with "Too many nodes" when a rank would get no batch.
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "EP class %c has %d batches of 2^%d pairs; np = %d leaves ranks without work (np must be 1..%d)",
                    problemClass, batches, MK, ranks, batches));
        }
    }

    @Override
    public long heapBytesPerRank(char problemClass, int ranks, int threads) {
        int c = CLASSES.indexOf(Character.toUpperCase(problemClass));
        long batchesPerRank = c < 0 ? 0 : ((1L << (M[c] - MK)) + Math.max(1, ranks) - 1) / Math.max(1, ranks);
        return (long) threads * (2L * NK * Double.BYTES + ACC_STRIDE * Double.BYTES) + 2 * batchesPerRank * Double.BYTES
                + (1 << 20);
    }

    @Override
    public KernelResult run(Comm world, Team team, char problemClass) {
        check(problemClass, world.size());
        int c = ClassLetter.require("EP", problemClass, CLASSES);
        int m = M[c];
        int nn = 1 << (m - MK);
        int node = world.rank();
        int noNodes = world.size();

        // Batches of this rank (ep.f: np, no_large_nodes, k_offset).
        int np = nn / noNodes;
        int noLargeNodes = nn % noNodes;
        int npAdd = node < noLargeNodes ? 1 : 0;
        np += npAdd;
        int kOffset = npAdd == 1 ? node * np - 1 : noLargeNodes * (np + 1) + (node - noLargeNodes) * np - 1;

        int members = team.size();
        double[][] x = new double[members][2 * NK];
        double[] acc = new double[members * ACC_STRIDE];
        // The two sums of each of this rank's batches, added up in batch order after the region.
        double[] batchSums = new double[2 * np];
        AtomicInteger nextBatch = new AtomicInteger();
        // Touch the batch buffers before timing, as the reference does (x = -1.d99).
        team.region(ctx -> java.util.Arrays.fill(x[ctx.id()], -1.0e99));
        int warmUpBatches = Math.min(np, members * (warmUpPerThread >= 0 ? warmUpPerThread : warmUpBatchesPerThread()));
        int settleRounds = warmUp(world, team, warmUpBatches, kOffset, x);

        if (warmUpBatches > 0) {
            quietBarrier(world);
        } else {
            world.barrier();
        }
        long start = NpbClock.nanos();
        Progress.start();

        // an = a^(2 nk) mod 2^46: mk + 1 squarings of a.
        double an = A;
        for (int i = 0; i < MK + 1; i++) {
            an = Randlc.multiply(an, an);
        }
        double jump = an;
        int batches = np;
        team.region(ctx -> {
            int id = ctx.id();
            gaussianPairs(nextBatch, batches, kOffset, jump, x[id], batchSums, acc, id * ACC_STRIDE, id == 0);
        });

        double sx = 0;
        double sy = 0;
        for (int b = 0; b < batches; b++) {
            sx += batchSums[2 * b];
            sy += batchSums[2 * b + 1];
        }
        // The counts are whole numbers far below 2^53: their sum does not depend on the order.
        double[] q = new double[NQ];
        for (int id = 0; id < members; id++) {
            int o = id * ACC_STRIDE;
            for (int l = 0; l < NQ; l++) {
                q[l] += acc[o + l];
            }
        }
        // The reference's final reductions: sx, sy, then the counts.
        sx = world.allreduce(sx, Op.SUM);
        sy = world.allreduce(sy, Op.SUM);
        lastSums = new double[] {sx, sy};
        double[] qTotal = new double[NQ];
        world.allreduce(Buffer.of(q), Buffer.of(qTotal), Op.SUM);
        double gc = 0;
        for (int l = 0; l < NQ; l++) {
            gc += qTotal[l];
        }
        double tm = world.allreduce((NpbClock.nanos() - start) * 1e-9, Op.MAX);

        double sxErr = Math.abs((sx - SX_REFERENCE[c]) / SX_REFERENCE[c]);
        double syErr = Math.abs((sy - SY_REFERENCE[c]) / SY_REFERENCE[c]);
        boolean verified = !Double.isNaN(sxErr) && !Double.isNaN(syErr) && sxErr <= EPSILON && syErr <= EPSILON;
        double mops = Math.pow(2.0, m + 1) / tm / 1.0e6;

        StringBuilder detail = new StringBuilder();
        detail.append(String.format(Locale.ROOT, " EP Benchmark Results:%n CPU Time = %10.4f%n N = 2^%5d%n"
                + " No. Gaussian Pairs = %15.0f%n Sums = %25.15e%25.15e%n Counts:%n", tm, m, gc, sx, sy));
        for (int l = 0; l < NQ; l++) {
            detail.append(String.format(Locale.ROOT, "%3d%15.0f%n", l, qTotal[l]));
        }
        detail.append(String.format(Locale.ROOT, " Verification: sx %.15e (reference %.15e, error %.3e), "
                + "sy %.15e (reference %.15e, error %.3e), tolerance %.1e%n",
                sx, SX_REFERENCE[c], sxErr, sy, SY_REFERENCE[c], syErr, EPSILON));
        return new KernelResult("EP", problemClass, Long.toString(1L << (m + 1)), 0, tm, mops,
                "Random numbers generated", verified, detail.toString(), warmUpText(warmUpBatches, settleRounds));
    }

    /**
     * Batches per thread generated untimed before the timed part, in each round of {@link #warmUp}
     * ({@code -Dtessera.npb.ep.warmUpBatches=N}, default {@value #WARM_UP_BATCHES}; 0: none, as the reference).
     * The reference times its first batches too, which run interpreted and in C1 code while C2
     * compiles the batch loop; at 1 x 1 that compilation runs on the other core, at 2 x 1 and
     * 1 x 2 it takes a core from the work (class A at 2 x 1 on shm, Intel Xeon: 40-92 ms of compiler
     * CPU per rank in a 6.2 s timed part, docs/npb.md stop 58). With 8 per thread (class A at 2 x 1
     * on shm, 5 alternating rounds with and without): 2 x 1 74.2 against 73.2 Mop/s (medians), speed-up
     * over 1 x 1 per round 1.93 against 1.91; 1 x 1 unchanged (stop 59).
     */
    static final int WARM_UP_BATCHES = 8;
    /** Most warm-up rounds ({@link JitSettle}): a round is repeated while the JIT compiled during the last one. */
    static final int WARM_UP_ROUNDS_MAX = 4;

    static int warmUpBatchesPerThread() {
        int n = Integer.getInteger("tessera.npb.ep.warmUpBatches", WARM_UP_BATCHES);
        if (n < 0) {
            throw new IllegalArgumentException("EP: tessera.npb.ep.warmUpBatches must be >= 0, got " + n);
        }
        return n;
    }

    /**
     * Untimed rounds of {@code batches} of this rank's first batches (their sums and counts
     * thrown away) over the team, until one round leaves the JIT compilers idle on every rank
     * ({@link JitSettle}); returns the rounds run (0 with no batches). Every rank must call it.
     */
    static int warmUp(Comm world, Team team, int batches, int kOffset, double[][] x) {
        if (batches == 0) {
            return 0;
        }
        double an = A;
        for (int i = 0; i < MK + 1; i++) {
            an = Randlc.multiply(an, an);
        }
        double jump = an;
        double[] sums = new double[2 * batches];
        double[] acc = new double[team.size() * ACC_STRIDE];
        AtomicInteger next = new AtomicInteger();
        try {
            return JitSettle.rounds(world, WARM_UP_ROUNDS_MAX, CompilerQuiet.QUIET, CompilerQuiet.LIMIT, () -> {
                next.set(0);
                // member 0 reports progress as in the timed part (before Progress.start nothing is
                // printed): with false here, C2 compiled the batch loop without the report's branch,
                // and the timed part's first report deoptimised it (a second OSR compilation in the
                // timed part, 25 ms at 2 x 1)
                team.region(ctx -> gaussianPairs(next, batches, kOffset, jump, x[ctx.id()], sums, acc,
                        ctx.id() * ACC_STRIDE, ctx.id() == 0));
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("EP: interrupted in the warm-up", e);
        }
    }

    /** The report's WARM-UP line. */
    static String warmUpText(int batches, int rounds) {
        if (batches == 0) {
            return "none, batch buffers touched (as the reference)";
        }
        return batches + (batches == 1 ? " batch" : " batches") + " of 2^" + (MK + 1) + " numbers untimed, "
                + rounds + (rounds == 1 ? " round" : " rounds") + " (again while the JIT compiled, at most "
                + WARM_UP_ROUNDS_MAX + ") (reference: none)";
    }

    /**
     * Claims this rank's batches (0-based b, global batch k = kOffset + b + 1) from
     * {@code next} until none is left: generates each batch's 2 nk uniforms, writes its two
     * sums to {@code batchSums[2b], [2b+1]} and tallies its counts into {@code acc[o ..]}.
     */
    private static void gaussianPairs(AtomicInteger next, int batches, int kOffset, double an, double[] x,
            double[] batchSums, double[] acc, int o, boolean reportsProgress) {
        // The counts in an array of this member's own, allocated by its thread, copied to acc at the
        // end: incremented in the shared acc (members 128 bytes apart), they made class A at 1x2
        // about 5% slower (4.76-4.78 s against 4.51-4.54, second runs in one JVM).
        double[] q = new double[NQ];
        int b;
        while ((b = next.getAndIncrement()) < batches) {
            double sx = 0;
            double sy = 0;
            // Starting seed of global batch kk: s * an^kk (binary powering, ep.f loop 120).
            int kk = kOffset + b + 1;
            double t1 = S;
            double t2 = an;
            for (int i = 1; i <= 100; i++) {
                int ik = kk / 2;
                if (2 * ik != kk) {
                    t1 = Randlc.multiply(t1, t2);
                }
                if (ik == 0) {
                    break;
                }
                t2 = Randlc.multiply(t2, t2);
                kk = ik;
            }
            Randlc.vranlc(2 * NK, t1, A, x, 0);
            for (int i = 0; i < NK; i++) {
                double x1 = 2.0 * x[2 * i] - 1.0;
                double x2 = 2.0 * x[2 * i + 1] - 1.0;
                double r = x1 * x1 + x2 * x2;
                if (r <= 1.0) {
                    double f = Math.sqrt(-2.0 * Math.log(r) / r);
                    double g1 = x1 * f;
                    double g2 = x2 * f;
                    int l = (int) Math.max(Math.abs(g1), Math.abs(g2));
                    q[l] += 1.0;
                    sx += g1;
                    sy += g2;
                }
            }
            batchSums[2 * b] = sx;
            batchSums[2 * b + 1] = sy;
            if (reportsProgress) {
                // Batches are claimed in order: the one member 0 just finished tells how far the rank is.
                Progress.iteration(b + 1, batches);
            }
        }
        System.arraycopy(q, 0, acc, o, NQ);
    }

    private static void quietBarrier(Comm world) {
        try {
            JitSettle.quietBarrier(world);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("EP: interrupted before the timed part", e);
        }
    }
}
