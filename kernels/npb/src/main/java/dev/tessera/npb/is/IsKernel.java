package dev.tessera.npb.is;

import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.npb.ClassLetter;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.MemoryFootprint;
import dev.tessera.npb.NpbClock;
import dev.tessera.npb.NpbKernel;
import dev.tessera.npb.Progress;
import dev.tessera.npb.Randlc;
import dev.tessera.npb.VectorSwitch;
import dev.tessera.task.Team;
import java.util.Locale;

/**
 * IS, the integer sort kernel: ranks 2^n keys in [0, 2^k) drawn from a roughly Gaussian
 * distribution (the mean of four NPB uniforms), ten times, by bucket counts, redistribution
 * and counting.
 *
 * <p>Distribution, as {@code NPB3.4-MPI/IS/is.c}: every rank generates its own contiguous
 * part of the key sequence (its generator jumped ahead by {@code find_my_seed}). One
 * iteration of {@link IsRanking#rank}: each rank counts its keys in 2^b buckets by their
 * high bits; an allreduce of the bucket sizes tells every rank the global distribution;
 * buckets are dealt to ranks in order so that each receives about the average number of
 * keys; each rank groups its keys by the rank their bucket goes to (is.c sorts them into the
 * buckets; the grouping by rank is what the exchange needs); an alltoall of the counts and an alltoallv of the keys redistribute them; each rank
 * then counts its keys' populations over its key range and turns them into ranks by a
 * prefix sum. With two ranks the keys are split at the middle of the key range instead, without
 * the bucket count, as long as that keeps the ranks within 1/32 of the average
 * ({@link IsRanking#rankSplitTwo}, {@link #SPLIT}). Five test keys, hidden in the top of the bucket-size vector, are checked
 * against the reference's ranks every iteration (partial verification); after the timed
 * part the keys are sorted by their ranks and checked in order across ranks (full
 * verification). The number of ranks must be a power of two (is.c refuses others), and at
 * most 128 for class S, 1024 otherwise (MAX_PROCS).
 */
public final class IsKernel implements NpbKernel, MemoryFootprint {

    /** Iterations timed (MAX_ITERATIONS, is.c). */
    static final int MAX_ITERATIONS = 10;
    /** Partial-verification keys per iteration (TEST_ARRAY_SIZE, is.c). */
    static final int TEST_ARRAY_SIZE = 5;
    /**
     * Untimed rankings before the timed ones, per class (S, W, A, B, C), the same at every
     * number of ranks and threads: the reference's one (is.c: rank(1)), plus more so that the
     * timed part runs compiled code. They do not change the result: rank(1) only resets keys 1
     * and 11, as the first timed iteration does again. Measured (AMD EPYC): the first three
     * rankings of a fresh JVM ran at a third of the speed of the later ones; at 1 x 2 class A
     * ran at a median 1780 Mop/s after 3 warm-up rankings and 2370 after 10; at 2 x 1, where
     * each rank's JVM compiles the bucket sort while the other rank runs on the second core,
     * the first five timed rankings after 10 untimed ones still took 15-24 ms in the bucket
     * sort against 7 ms later (2026-11-25 00:52, load 1.3-1.7, class A 2 x 1 shm, fresh JVMs
     * alternating: 10 warm-up rankings 297, 340, 434 Mop/s; 40: 571, 605, 608; 80 no better).
     * Classes B and C rank 4 and 16 times as many keys per ranking, which gives the compiler
     * that much more time per warm-up ranking, so they keep fewer.
     */
    static final int[] WARM_UP_ITERATIONS = {40, 40, 40, 20, 10};
    /** Generator seed and multiplier (is.c main: find_my_seed arguments). */
    static final double SEED = 314159265.00;
    /**
     * System property: with {@code true}, one rank ranks as NPB3.4-MPI's IS at np = 1 does
     * (bucket sort into the send buffer, then the count over it) instead of counting its keys
     * where they are, so that speed-ups can be taken on the reference's terms. Off by default.
     */
    public static final String BUCKETS_AT_ONE_RANK = "tessera.npb.is.bucketsAtOneRank";
    static final double MULTIPLIER = 1220703125.00;
    /**
     * System property: how two ranks choose which keys each holds. {@code adaptive} (the default):
     * split at the middle of the key range without counting buckets, checked every ranking by
     * the counts of the two sides; a ranking whose sides differ by more than 1/32 of the average
     * counts buckets as is.c does and its bucket boundary becomes the split
     * ({@link IsRanking#rankSplitTwo}). {@code buckets}: every ranking counts buckets, as is.c.
     * With more than two ranks, or more than two threads per rank, every ranking counts buckets.
     */
    public static final String SPLIT = "tessera.npb.is.split";

    /** The classes, in the order of the arrays below. */
    static final String CLASSES = ClassLetter.IMPLEMENTED;
    /** TOTAL_KEYS_LOG_2, MAX_KEY_LOG_2, NUM_BUCKETS_LOG_2 per class (is.c, CLASS S..C). */
    static final int[] TOTAL_KEYS_LOG_2 = {16, 20, 23, 25, 27};
    static final int[] MAX_KEY_LOG_2 = {11, 16, 19, 21, 23};
    static final int[] NUM_BUCKETS_LOG_2 = {9, 10, 10, 10, 10};
    /** MAX_PROCS (is.c): 128 for class S, 1024 for the others. */
    static final int[] MAX_PROCS = {128, 1024, 1024, 1024, 1024};
    /** Where the test keys are and their ranks in iteration 0 (is.c: X_test_index_array, X_test_rank_array). */
    static final int[][] TEST_INDEX = {
        {48427, 17148, 23627, 62548, 4431},
        {357773, 934767, 875723, 898999, 404505},
        {2112377, 662041, 5336171, 3642833, 4250760},
        {41869, 812306, 5102857, 18232239, 26860214},
        {44172927, 72999161, 74326391, 129606274, 21736814}};
    static final int[][] TEST_RANK = {
        {0, 18, 346, 64917, 65463},
        {1249, 11698, 1039987, 1043896, 1048018},
        {104, 17523, 123928, 8288932, 8388264},
        {33422937, 10244, 59149, 33135281, 99},
        {61147, 882988, 266290, 133997595, 133525895}};

    public IsKernel() {
    }

    @Override
    public String name() {
        return "IS";
    }

    @Override
    public void check(char problemClass, int ranks) {
        int c = ClassLetter.require("IS", problemClass, CLASSES);
        VectorSwitch.requested();   // a value other than true or false: refused here, before any work
        adaptiveSplit();            // likewise for the split
        if (ranks < 1 || Integer.bitCount(ranks) != 1) {
            throw new IllegalArgumentException("IS: the number of processes must be a power of two (NPB3.4-MPI IS/is.c), got "
                    + ranks);
        }
        if (ranks > MAX_PROCS[c]) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "IS class %c: at most %d processes (MAX_PROCS, NPB3.4-MPI IS/is.c), got %d", problemClass, MAX_PROCS[c], ranks));
        }
    }

    @Override
    public long heapBytesPerRank(char problemClass, int ranks, int threads) {
        int c = ClassLetter.require("IS", problemClass, CLASSES);
        long keys = (1L << TOTAL_KEYS_LOG_2[c]) / ranks;
        long keyRange = Math.min(1L << MAX_KEY_LOG_2[c], 2L * (1L << MAX_KEY_LOG_2[c]) / ranks + 1024);
        // Keys, the counts (ints) and, with more than one thread, each member's 16-bit histogram. With
        // several ranks two of the three key arrays are off the heap, but they count against the JVM's
        // direct-memory limit (-XX:MaxDirectMemorySize, -Xmx by default), so they stay in the estimate.
        return Integer.BYTES * (IsRanking.keyArrayInts((int) keys, ranks) + keyRange)
                + (threads > 1 ? (long) Character.BYTES * threads * keyRange : 0) + (4L << 20);
    }

    @Override
    public KernelResult run(Comm world, Team team, char problemClass) {
        check(problemClass, world.size());
        int c = ClassLetter.require("IS", problemClass, CLASSES);
        int totalKeysLog2 = TOTAL_KEYS_LOG_2[c];
        long totalKeys = 1L << totalKeysLog2;
        boolean buckets = world.size() == 1 && Boolean.getBoolean(BUCKETS_AT_ONE_RANK);
        IsRanking ranking = new IsRanking(world, team, problemClass, totalKeysLog2, MAX_KEY_LOG_2[c], NUM_BUCKETS_LOG_2[c],
                TEST_INDEX[c], TEST_RANK[c], buckets);

        double seed = findMySeed(world.rank(), world.size(), 4 * totalKeys, SEED, MULTIPLIER);
        ranking.createSequence(seed, MULTIPLIER);

        // Untimed iterations to bring every page and table in (is.c runs rank(1) once); a JVM also
        // needs its JIT compiler to have compiled the ranking loops, which takes a few more.
        int warmUp = warmUpIterations(c);
        for (int i = 0; i < warmUp; i++) {
            ranking.rank(1);
        }
        ranking.resetVerification();

        world.barrier();
        long start = NpbClock.nanos();
        Progress.start();
        for (int iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
            ranking.rank(iteration);
            Progress.iteration(iteration, MAX_ITERATIONS);
        }
        double local = (NpbClock.nanos() - start) * 1e-9;
        double maxTime = world.allreduce(local, Op.MAX);

        // Untimed: sort by the ranks of the last iteration and check the order across ranks.
        ranking.fullVerify();
        int passed = world.allreduce(ranking.passedVerification(), Op.SUM);
        int expected = TEST_ARRAY_SIZE * MAX_ITERATIONS + world.size();
        boolean verified = passed == expected;

        double mops = (double) MAX_ITERATIONS * totalKeys / maxTime / 1.0e6;
        String detail = String.format(Locale.ROOT, " Verification: %d of %d checks passed (%d partial: %d test keys x %d "
                + "iterations; %d full: keys in order on every rank)%s", passed, expected,
                TEST_ARRAY_SIZE * MAX_ITERATIONS, TEST_ARRAY_SIZE, MAX_ITERATIONS, world.size(),
                ranking.failures().isEmpty() ? "" : System.lineSeparator() + ranking.failures().stripTrailing())
                + (world.size() == 2 ? System.lineSeparator() + " " + ranking.describePartition()
                        + System.lineSeparator() + " " + ranking.describeSplit() : "")
                + (buckets ? System.lineSeparator() + " One rank ranked as is.c at np = 1 (bucket sort, then the count; -D"
                        + BUCKETS_AT_ONE_RANK + "=true), not in place" : "");
        return new KernelResult("IS", problemClass, Long.toString(totalKeys), MAX_ITERATIONS, maxTime, mops,
                "keys ranked", verified, detail, warmUp + " rankings untimed (reference: 1)");
    }

    /**
     * Whether {@link #SPLIT} asks for the adaptive two-rank split (unset or {@code adaptive}) or
     * not ({@code buckets}).
     *
     * @throws IllegalArgumentException for any other value
     */
    static boolean adaptiveSplit() {
        String v = System.getProperty(SPLIT, "adaptive").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "adaptive", "" -> true;
            case "buckets" -> false;
            default -> throw new IllegalArgumentException(SPLIT + " must be adaptive or buckets, got '"
                    + System.getProperty(SPLIT) + "'");
        };
    }

    /** Untimed rankings before the timed ones for class index {@code c}. */
    static int warmUpIterations(int c) {
        return WARM_UP_ITERATIONS[c];
    }

    /**
     * The seed of rank {@code kn}'s part of a sequence of {@code nn} numbers cut into
     * {@code np} equal parts: s * a^(kn nn/np) mod 2^46 (is.c: find_my_seed).
     */
    static double findMySeed(int kn, int np, long nn, double s, double a) {
        long nq = nn / np;
        int mq = 0;
        while (nq > 1) {
            mq++;
            nq /= 2;
        }
        double an = a;
        for (int i = 1; i <= mq; i++) {
            an = Randlc.multiply(an, an);
        }
        long kk = kn;
        double t1 = s;
        double t2 = an;
        for (int i = 1; i <= 100; i++) {
            long ik = kk / 2;
            if (2 * ik != kk) {
                t1 = Randlc.multiply(t1, t2);
            }
            if (ik == 0) {
                break;
            }
            t2 = Randlc.multiply(t2, t2);
            kk = ik;
        }
        return t1;
    }
}
