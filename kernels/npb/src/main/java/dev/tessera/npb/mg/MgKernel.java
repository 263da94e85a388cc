package dev.tessera.npb.mg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.npb.CompilerQuiet;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.MemoryFootprint;
import dev.tessera.npb.NpbKernel;
import dev.tessera.npb.Progress;
import dev.tessera.npb.VectorSwitch;
import dev.tessera.task.Team;
import java.util.Locale;

/**
 * NPB MG: V-cycle multigrid for the 3D Poisson problem A u = v on a periodic n^3 grid,
 * v zero but for ten +1 and ten -1 charges; the result is the L2 norm of the final
 * residual (NPB3.4-MPI/MG/mg.f).
 *
 * <p>Distribution as the reference ({@code setup}): np = 2^p ranks form a periodic
 * Cartesian grid of 2^(p/3) ranks along x, 2^((p - p/3)/2) along y and the rest along
 * z; every level of the hierarchy (2^k points a side, k = 1 .. log2 n) on which each rank
 * owns at least two points along every axis is split over the ranks in blocks with one
 * ghost layer, refreshed after every operator by the ghost exchange
 * ({@link MgLevel#exchange}, the reference's {@code comm3}). The coarser levels are held
 * whole by every rank ({@link CoarseAgglomeration}) where the reference idles ranks
 * instead, and optionally ({@link Tuning#replicateSide}) further levels, which trades
 * three latency-bound exchanges per level and V-cycle for redundant work; the finest level must be split (np <= n^3 / 8), which {@link #check}
 * enforces. Inside a rank every operator runs over the team's members ({@link MgOperators});
 * see {@link Tuning} for the switches.
 *
 * <p>Timing as the reference: initialisation, untimed V-cycles (the reference runs one;
 * see {@link #warmUpCycles}) and a fresh initialisation, then the timed part: residual,
 * nit times (V-cycle, residual), norm. Between the untimed V-cycles and the fresh
 * initialisation, with two or more ranks, the V-cycle's messages run alone
 * ({@link #EXCHANGE_WARM_UP}) and, before the timer, each rank waits for its JVM's JIT
 * compilers to be idle ({@link CompilerQuiet}). Neither computes anything the timed part reads.
 */
public final class MgKernel implements NpbKernel, MemoryFootprint {

    /**
     * Untimed V-cycles (each followed by the residual, as in the timed loop) before the fresh
     * initialisation and the timed part: 6 for classes S, W and A, 2 for B (the grid of A,
     * but 20 timed V-cycles instead of 4, so what the JIT does inside them weighs a fifth as
     * much) and C (V-cycles 8 times longer). The reference runs one. With one, the per-member
     * lambdas of resid and psinv (the loops over planes and lines that call the line
     * methods) and the framework's send and receive paths were still compiled inside the
     * timed part: at 2 x 1 on shm, class A, -Xlog:jit+compilation counted 131 and 168
     * compilations per rank JVM in the 1.2 s timed part (load 10), resid's lambda reaching
     * C2 0.4 s and psinv's 1.1 s after the timer started. Each rank's JVM counts only its own
     * half of the loop iterations, so at 2 x 1 the JIT's thresholds are reached later than at
     * 1 x 1 or 1 x 2, and its compiler threads take a core from a rank that the other rank
     * then waits for at the next ghost exchange. The timed part starts again from the
     * initialisation, so the result is that of a cold run.
     */
    static int warmUpCycles(char problemClass) {
        char c = Character.toUpperCase(problemClass);
        return c == 'B' || c == 'C' ? 2 : 6;
    }

    /**
     * Rounds of {@link MgOperators#warmTeam} after the untimed V-cycles, at two or more threads
     * per rank ({@code -Dtessera.npb.mg.teamWarmRounds=N}, 0: none); 300 by default (1800 team
     * regions on 16^3 blocks, a few ms): the team's dispatch path reaches C1 before the timer.
     * Class A at 1 x 2, the same build, 8 alternating rounds: median 8686 Mop/s against 8207
     * with 0, ahead in 7 of 8. 1000 rounds were slower than none (4 of 4 rounds, 6792 against
     * 7402): they also brought {@code residPlanes} and {@code psinvPlanes} to C2 inside the timed
     * part (docs/npb.md, stop 46).
     */
    static final int TEAM_WARM_ROUNDS = Integer.getInteger("tessera.npb.mg.teamWarmRounds", 300);

    /**
     * How a rank works on the hierarchy; none of it changes a bit of the result.
     *
     * @param serialSide levels of at most this many points a side (32: 32^3 and below) are
     *     worked on by the rank's first thread alone: each operator on them costs a team
     *     region (a hand-off to the other members and back) for a few to a few hundred
     *     microseconds of work; 0 (the default: not faster at 1 x 2 in an A/B, docs/npb.md,
     *     stop 37): every level over all members ({@code -Dtessera.npb.mg.serialSide})
     * @param replicateSide with two or more ranks, levels of at most this many points a side
     *     (and below the finest) are held whole and computed by every rank
     *     ({@link CoarseAgglomeration}) instead of split and exchanged: one allgather down the
     *     V-cycle instead of three ghost exchanges per level (one down, two up); 16 by default
     *     (class A at 2 x 1 on a quiet machine, 10 alternating rounds: 6884 Mop/s against 5934
     *     with 0, docs/npb.md, stop 37); 0: only the levels that must be
     *     ({@code -Dtessera.npb.mg.replicateSide})
     * @param fusedGhosts the ghosts along the axes with one rank (all three at one rank, x
     *     and y at 2 ranks) are filled by the operator that writes the block, plane by plane
     *     on the member that computed the plane, instead of by the first thread alone in a
     *     pass over the whole block afterwards; on by default (class A at 1 x 2 on a quiet
     *     machine, 10 alternating rounds: 7583 Mop/s against 6489 off; the loaded series of
     *     stop 37 had read it slower, docs/npb.md; {@code -Dtessera.npb.mg.fusedGhosts=false}
     *     turns it off)
     * @param overlapZ where a level's exchange is the z swap alone (z split over the ranks, x
     *     and y filled by the operators: two ranks), resid, psinv and rprj3 compute planes 1
     *     and m3 - 2 first, start their swap, compute the other planes while it travels and
     *     wait for it last, instead of computing every plane and then swapping; off by default
     *     (class A at 2 x 1 on shm, 11 alternating rounds against main: median 4135 against
     *     4115 Mop/s, not resolved from the noise; docs/npb.md, stop 41;
     *     {@code -Dtessera.npb.mg.overlapZ=true} turns it on)
     * @param vector resid and psinv with the Vector API ({@link MgVectorKernels}) where the JVM
     *     has the module {@code jdk.incubator.vector}, the scalar loops otherwise; on by default
     *     ({@link MgVector}: {@code -Dtessera.npb.vector=false} or {@code TESSERA_NPB_VECTOR=false}
     *     turns it off; docs/npb.md, stop 45)
     */
    record Tuning(int serialSide, int replicateSide, boolean fusedGhosts, boolean overlapZ, boolean vector) {

        Tuning {
            if (serialSide < 0 || replicateSide < 0) {
                throw new IllegalArgumentException("MG: serialSide and replicateSide must be >= 0, got " + serialSide
                        + " and " + replicateSide);
            }
        }

        /** The first three switches, the z exchange not overlapped, scalar stencils. */
        Tuning(int serialSide, int replicateSide, boolean fusedGhosts) {
            this(serialSide, replicateSide, fusedGhosts, false, false);
        }

        /** The first four switches, scalar stencils. */
        Tuning(int serialSide, int replicateSide, boolean fusedGhosts, boolean overlapZ) {
            this(serialSide, replicateSide, fusedGhosts, overlapZ, false);
        }

        /** These switches with the vector stencils on or off. */
        Tuning withVector(boolean on) {
            return new Tuning(serialSide, replicateSide, fusedGhosts, overlapZ, on);
        }

        /** The defaults, each overridable by its system property. */
        static Tuning fromProperties() {
            return new Tuning(Integer.getInteger("tessera.npb.mg.serialSide", 0),
                    Integer.getInteger("tessera.npb.mg.replicateSide", 16),
                    Boolean.parseBoolean(System.getProperty("tessera.npb.mg.fusedGhosts", "true")),
                    Boolean.parseBoolean(System.getProperty("tessera.npb.mg.overlapZ", "false")),
                    MgVector.enabled());
        }

        /** As before this tuning: every level over every member, replicated only where needed, ghosts afterwards, scalar. */
        static final Tuning NONE = new Tuning(0, 0, false, false, false);

        /** Doubles (ghosts included) of the largest block worked on serially. */
        int serialPoints() {
            long m = serialSide == 0 ? 0 : serialSide + 2L;
            return (int) Math.min(Integer.MAX_VALUE, m * m * m);
        }
    }

    /** Untimed V-cycles before the timed part; -1: the class's {@link #warmUpCycles(char)}. */
    private final int warmUpCycles;
    /** Untimed ghost exchanges on the coarsest split level ({@link Solver#warmUpExchanges}); -1: {@link #exchangeWarmUpFromProperty()}. */
    private final int exchangeWarmUp;
    /** null: {@link Tuning#fromProperties()} at each run. */
    private final Tuning tuning;
    /** The L2 norm of the last run (every rank computes the same); for tests. */
    private volatile double lastNorm = Double.NaN;

    public MgKernel() {
        this(-1);
    }

    /** A kernel with {@code warmUpCycles} untimed V-cycles (-1: the class's; tests compare 1 with it). */
    MgKernel(int warmUpCycles) {
        this(warmUpCycles, null);
    }

    /** A kernel with {@code warmUpCycles} untimed V-cycles and the given tuning (null: from the properties). */
    MgKernel(int warmUpCycles, Tuning tuning) {
        this(warmUpCycles, tuning, -1);
    }

    /**
     * A kernel with {@code warmUpCycles} untimed V-cycles, the given tuning (null: from the properties) and
     * {@code exchangeWarmUp} untimed ghost exchanges on the coarsest split level (-1: from the property).
     */
    MgKernel(int warmUpCycles, Tuning tuning, int exchangeWarmUp) {
        this.warmUpCycles = warmUpCycles;
        this.tuning = tuning;
        this.exchangeWarmUp = exchangeWarmUp;
    }

    /**
     * Untimed ghost exchanges on the coarsest level split over the ranks, after the untimed V-cycles
     * ({@link Solver#warmUpExchanges}): {@code -Dtessera.npb.mg.exchangeWarmUp=N}, default
     * {@link #EXCHANGE_WARM_UP}; 0 turns them off.
     */
    static int exchangeWarmUpFromProperty() {
        int n = Integer.getInteger("tessera.npb.mg.exchangeWarmUp", EXCHANGE_WARM_UP);
        if (n < 0) {
            throw new IllegalArgumentException("MG: tessera.npb.mg.exchangeWarmUp must be >= 0, got " + n);
        }
        return n;
    }

    /**
     * The default of {@link #exchangeWarmUpFromProperty()}. The message path (the communicator's
     * isend and irecv, the device's matching, send and wait) runs about 30 times per V-cycle and
     * rank, so after the untimed V-cycles the JIT had compiled it at most at tier 3, and finished
     * it inside the timed part, where each C1 or C2 compilation in one rank's JVM takes a core from
     * one of the two ranks and the other waits for it at the next exchange. 4000 exchanges on the
     * coarsest split level (a quarter as many on each finer one) call the send and receive paths
     * about 10,000 times, past the JIT's tier-4 threshold (5000 calls).
     */
    static final int EXCHANGE_WARM_UP = 4000;

    /** The L2 norm of the last run, bit for bit (NaN before the first). */
    double lastNorm() {
        return lastNorm;
    }

    /** The report's WARM-UP line. */
    static String warmUpText(int cycles) {
        if (cycles == 1) {
            return "1 V-cycle untimed, then initialised again (as the reference)";
        }
        return cycles + " V-cycles untimed, then initialised again (reference: 1)";
    }

    /**
     * The report's WARM-UP line, with the team regions of {@link MgOperators#warmTeam} and the untimed
     * ghost exchanges of {@link Solver#warmUpExchanges} if any, and the wait for the JIT
     * ({@link #awaitCompilers}) if it ran.
     */
    static String warmUpText(int cycles, long teamRegions, int exchanges, boolean compilerQuiet) {
        String text = warmUpText(cycles);
        if (teamRegions > 0) {
            text += "; " + teamRegions + " team regions on scratch blocks untimed";
        }
        if (exchanges > 0) {
            text += "; " + exchanges + " ghost exchanges untimed";
        }
        return compilerQuiet ? text + "; then waited for the JIT compilers to be idle" : text;
    }

    /**
     * Whether, with two or more ranks, each rank waits for its JVM's JIT compilers to be idle
     * before the timed part ({@link CompilerQuiet}): {@code -Dtessera.npb.mg.compilerQuiet}, true by
     * default. At one rank there is no such wait: no other rank waits for a rank whose core a
     * compiler thread takes, and at 1 x 1 the compilers have the second core to themselves (in the
     * A/B of stop 46, 1 x 1 with the wait read 0.98x of main, in the noise, in 4 of 5 rounds below it).
     */
    static boolean compilerQuietFromProperty() {
        return Boolean.parseBoolean(System.getProperty("tessera.npb.mg.compilerQuiet", "true"));
    }

    /**
     * Waits (at most {@link CompilerQuiet#LIMIT}) until this JVM's compiler threads have been idle for
     * {@link CompilerQuiet#QUIET}: the second initialisation queues C2 compilations of its own methods
     * (the charges' search) and the untimed work's last ones may still run; at 2 x 1 (one run under
     * load) they took 45-67 ms of C2 time per rank JVM inside the timed part, each taking a core from
     * a rank (docs/npb.md, stop 46).
     */
    private static void awaitCompilers() {
        try {
            new CompilerQuiet().await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String name() {
        return "MG";
    }

    @Override
    public void check(char problemClass, int ranks) {
        MgProblem p = MgProblem.of(problemClass);
        VectorSwitch.requested();   // a value other than true or false: refused here, before any work
        if (ranks < 1 || Integer.bitCount(ranks) != 1) {
            throw new IllegalArgumentException("MG: the number of processes must be a power of two (1, 2, 4, 8, ...), got "
                    + ranks + " (NPB3.4 MG decomposes the grid over 2^p processes)");
        }
        int[] dims = gridDims(ranks);
        int most = Math.max(dims[0], Math.max(dims[1], dims[2]));
        if (p.n() < 2 * most) {
            throw new IllegalArgumentException("MG class " + p.problemClass() + ": " + ranks + " processes put " + most
                    + " ranks along one axis of the " + p.n() + "^3 grid; each needs at least 2 points of it");
        }
    }

    /** The reference's process grid (MG/mg.f setup) as {z, y, x} rank counts. */
    static int[] gridDims(int ranks) {
        int logp = Integer.numberOfTrailingZeros(ranks);
        int px = 1 << (logp / 3);
        int py = 1 << ((logp - logp / 3) / 2);
        return new int[] {ranks / (px * py), py, px};
    }

    /** u, v and r of the finest block, and u and r of the coarser levels (1/7 of the finest each). */
    @Override
    public long heapBytesPerRank(char problemClass, int ranks, int threads) {
        MgProblem p = MgProblem.of(problemClass);
        int[] dims = gridDims(ranks);
        long finest = (long) (p.n() / dims[2] + 2) * (p.n() / dims[1] + 2) * (p.n() / dims[0] + 2);
        return 8L * finest * 23 / 7 + (1L << 24);
    }

    @Override
    public KernelResult run(Comm world, Team team, char problemClass) {
        check(problemClass, world.size());
        MgProblem p = MgProblem.of(problemClass);
        int lt = p.levels();
        int np = world.size();
        int[] dims = gridDims(np);
        long bytes = heapBytesPerRank(p.problemClass(), np, team.size());
        long max = Runtime.getRuntime().maxMemory();
        if (bytes > max) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "MG class %c on rank %d of %d needs about %d MiB of heap, this JVM allows %d MiB (raise -Xmx)",
                    p.problemClass(), world.rank(), np, bytes >> 20, max >> 20));
        }
        CartComm grid = world.createCart(dims, new boolean[] {true, true, true}, false);
        Solver s = new Solver(grid, team, p, tuning != null ? tuning : Tuning.fromProperties());

        // Initialisation and the untimed V-cycles (MG/mg.f main program: one), then start over.
        int cycles = warmUpCycles >= 0 ? warmUpCycles : warmUpCycles(p.problemClass());
        s.initialise();
        s.resid(lt);
        s.norm(s.r[lt], lt);
        for (int w = 0; w < cycles; w++) {
            s.vcycle();
            s.resid(lt);
        }
        long teamRegions = s.ops.warmTeam(TEAM_WARM_ROUNDS, MgProblem.OPERATOR, p.smoother());
        int exchanges = s.warmUpExchanges(exchangeWarmUp >= 0 ? exchangeWarmUp : exchangeWarmUpFromProperty());
        s.initialise();
        boolean quiet = np > 1 && compilerQuietFromProperty();
        if (quiet) {
            awaitCompilers();
        }
        grid.barrier();

        long start = System.nanoTime();
        Progress.start();
        s.resid(lt);
        s.norm(s.r[lt], lt);
        for (int it = 1; it <= p.iterations(); it++) {
            s.vcycle();
            s.resid(lt);
            Progress.iteration(it, p.iterations());
        }
        double[] norms = s.norm(s.r[lt], lt);
        double seconds = grid.allreduce((System.nanoTime() - start) * 1e-9, Op.MAX);
        grid.free();

        double rnm2 = norms[0];
        lastNorm = rnm2;
        double err = Math.abs(rnm2 - p.verifyValue()) / p.verifyValue();
        boolean verified = err <= MgProblem.EPSILON;
        String detail = String.format(Locale.ROOT, " L2 Norm is %20.13E%n The correct L2 Norm is %20.13E%n Error is %20.13E%n %s%n",
                rnm2, p.verifyValue(), err, MgVector.describe(s.ops.vector()));
        double mops = seconds > 0 ? 1e-6 * p.operations() / seconds : 0.0;
        return new KernelResult("MG", p.problemClass(), p.n() + "x" + p.n() + "x" + p.n(), p.iterations(), seconds,
                mops, "floating point", verified, detail, warmUpText(cycles, teamRegions, exchanges, quiet));
    }

    /** One rank's hierarchy and the V-cycle (MG/mg.f mg3P) over it. */
    private static final class Solver {
        private final CartComm grid;
        private final Team team;
        private final MgProblem p;
        private final int lt;
        private final MgLevel[] level;
        /** u[k], r[k]: correction and residual of level k (index 0 unused); v: right-hand side of the finest level. */
        final double[][] u;
        final double[][] r;
        private final double[] v;
        private final MgOperators ops;
        /** The boundary to the replicated coarse levels (null when every level is split), and its scratch block. */
        private final CoarseAgglomeration agglomeration;
        private final double[] shareBlock;
        /** ghost[k]: the leading axes of level k whose ghosts its operators fill ({@link MgLevel#localLeadingAxes}). */
        private final int[] ghost;
        /** {@link Tuning#overlapZ}. */
        private final boolean overlapZ;

        Solver(CartComm grid, Team team, MgProblem p, Tuning tuning) {
            this.grid = grid;
            this.team = team;
            this.p = p;
            this.lt = p.levels();
            this.overlapZ = tuning.overlapZ();
            this.level = new MgLevel[lt + 1];
            this.u = new double[lt + 1][];
            this.r = new double[lt + 1][];
            int[] dims = grid.dims();
            int most = Math.max(dims[0], Math.max(dims[1], dims[2]));
            int replicatedUpTo = 0;
            this.ghost = new int[lt + 1];
            for (int k = 1; k <= lt; k++) {
                boolean replicated = (1 << k) < 2 * most
                        || (grid.size() > 1 && k < lt && (1 << k) <= tuning.replicateSide());
                if (replicated) {
                    replicatedUpTo = k;
                }
                level[k] = new MgLevel(grid, k, replicated);
                u[k] = new double[level[k].length()];
                r[k] = new double[level[k].length()];
                ghost[k] = tuning.fusedGhosts() ? level[k].localLeadingAxes() : 0;
            }
            this.v = new double[level[lt].length()];
            this.ops = new MgOperators(team, tuning.serialPoints(), tuning.vector());
            if (replicatedUpTo > 0) {
                agglomeration = new CoarseAgglomeration(grid, new MgLevel(grid, replicatedUpTo, false),
                        level[replicatedUpTo]);
                shareBlock = agglomeration.newShare();
            } else {
                agglomeration = null;
                shareBlock = null;
            }
        }

        /**
         * Runs the messages of the V-cycle without its computation, so that the message path is
         * compiled before the timed part (see {@link #EXCHANGE_WARM_UP}): {@code coarsest} rounds, each
         * with the ghost exchange of u on the coarsest level split over the ranks and on every
         * replicated level (in place), that of every finer split level in every 4th, 16th, ... round
         * (4^j for the j-th finer level, at most {@link #MOST_ROUNDS_BETWEEN}: the finer exchanges cost
         * more), and in every 16th round the allgather to the replicated levels and the norm of u on
         * the coarsest split level (its plane loop and two allreduces: the timed part's first norm
         * had compiled the plane loop with C2 in one rank's JVM and not yet in the other's). The
         * kinds interleave so that the JIT's profile of the shared methods (the exchange's own, the
         * send, receive and wait paths) holds every branch the V-cycle takes before C2 compiles them:
         * with the split levels' exchanges alone, C2 left out the branches of the replicated levels
         * and of the first small message, and threw its code away and compiled again inside the timed
         * part ({@code -Xlog:deoptimization}: unstable_if in {@code GhostExchange.exchange}, an
         * uncommon trap in the device's {@code isend}).
         *
         * <p>Returns how many ghost exchanges ran; none where every level is exchanged in place (one
         * rank) or {@code coarsest} is 0. The exchanges copy each block's faces into its neighbours'
         * ghosts, the allgather writes r of the coarsest replicated level, the norm only reads, and
         * the fresh initialisation afterwards writes every u and r again before they are read, so the
         * timed part computes the same bits.
         */
        int warmUpExchanges(int coarsest) {
            if (coarsest <= 0 || grid.size() == 1) {
                return 0;
            }
            int total = 0;
            int firstSplit = 1;
            while (level[firstSplit].replicated) {
                firstSplit++;
            }
            for (int round = 0; round < coarsest; round++) {
                int every = 1;
                for (int k = 1; k <= lt; k++) {
                    if (level[k].replicated) {
                        level[k].exchange(u[k], ghost[k]);   // in place (and nothing where the operators fill the ghosts)
                        continue;
                    }
                    if (round % every == 0) {
                        level[k].exchange(u[k], ghost[k]);
                        total++;
                    }
                    every = Math.min(every * 4, MOST_ROUNDS_BETWEEN);
                }
                if (round % 16 == 0) {
                    if (agglomeration != null) {
                        agglomeration.gather(shareBlock, r[agglomeration.share().k]);
                    }
                    norm(u[firstSplit], firstSplit);
                }
            }
            return total;
        }

        /** The most rounds of {@link #warmUpExchanges} between two exchanges of one level. */
        static final int MOST_ROUNDS_BETWEEN = 64;

        /** zero3(u) and zran3(v) on the finest level. */
        void initialise() {
            ops.zero(u[lt]);
            RandomCharges.fill(grid, team, level[lt], p.n(), v);
            level[lt].exchange(v);
        }

        /** resid(u, v, r) on the finest level, with the exchange of r. */
        void resid(int k) {
            residExchanged(k, v);
        }

        /**
         * r[k] = rhs - A u[k] and the exchange of r[k]. Where that exchange is the z swap
         * alone and {@link Tuning#overlapZ} is on, planes 1 and m3 - 2 are computed first, their
         * swap started, the other planes computed while it travels, and the swap waited for
         * last; otherwise the operator, then the exchange. The same planes are computed the
         * same way either way.
         */
        private void residExchanged(int k, double[] rhs) {
            MgLevel l = level[k];
            if (overlapZ && l.splitsZ(ghost[k])) {
                int last = l.m3 - 2;
                ops.resid(u[k], rhs, r[k], l.m1, l.m2, l.m3, MgProblem.OPERATOR, ghost[k], 1, 2);
                ops.resid(u[k], rhs, r[k], l.m1, l.m2, l.m3, MgProblem.OPERATOR, ghost[k], Math.max(2, last), last + 1);
                Request[] swap = l.startZ(r[k]);
                ops.resid(u[k], rhs, r[k], l.m1, l.m2, l.m3, MgProblem.OPERATOR, ghost[k], 2, last);
                l.finishZ(swap);
                return;
            }
            ops.resid(u[k], rhs, r[k], l.m1, l.m2, l.m3, MgProblem.OPERATOR, ghost[k]);
            l.exchange(r[k], ghost[k]);
        }

        /** u[k] = u[k] + C r[k] and the exchange of u[k], overlapped as {@link #residExchanged}. */
        private void psinvExchanged(int k) {
            MgLevel l = level[k];
            if (overlapZ && l.splitsZ(ghost[k])) {
                int last = l.m3 - 2;
                ops.psinv(r[k], u[k], l.m1, l.m2, l.m3, p.smoother(), ghost[k], 1, 2);
                ops.psinv(r[k], u[k], l.m1, l.m2, l.m3, p.smoother(), ghost[k], Math.max(2, last), last + 1);
                Request[] swap = l.startZ(u[k]);
                ops.psinv(r[k], u[k], l.m1, l.m2, l.m3, p.smoother(), ghost[k], 2, last);
                l.finishZ(swap);
                return;
            }
            ops.psinv(r[k], u[k], l.m1, l.m2, l.m3, p.smoother(), ghost[k]);
            l.exchange(u[k], ghost[k]);
        }

        /** r[k - 1] = P r[k] on a split coarse level and the exchange of r[k - 1], overlapped as {@link #residExchanged}. */
        private void restrictExchanged(int k) {
            MgLevel f = level[k];
            MgLevel c = level[k - 1];
            if (overlapZ && c.splitsZ(ghost[k - 1])) {
                int last = c.m3 - 2;
                ops.restrict(r[k], f.m1, f.m2, f.m3, r[k - 1], c.m1, c.m2, c.m3, ghost[k - 1], 1, 2);
                ops.restrict(r[k], f.m1, f.m2, f.m3, r[k - 1], c.m1, c.m2, c.m3, ghost[k - 1], Math.max(2, last),
                        last + 1);
                Request[] swap = c.startZ(r[k - 1]);
                ops.restrict(r[k], f.m1, f.m2, f.m3, r[k - 1], c.m1, c.m2, c.m3, ghost[k - 1], 2, last);
                c.finishZ(swap);
                return;
            }
            ops.restrict(r[k], f.m1, f.m2, f.m3, r[k - 1], c.m1, c.m2, c.m3, ghost[k - 1]);
            c.exchange(r[k - 1], ghost[k - 1]);
        }

        /** norm2u3: {L2 norm, max norm} of x's interior over all ranks. */
        double[] norm(double[] x, int k) {
            MgLevel l = level[k];
            double[] local = ops.localNorms(x, l.m1, l.m2, l.m3);
            double[] sum = {local[0]};
            grid.allreduce(Buffer.of(sum), Op.SUM);
            double maxAbs = grid.allreduce(local[1], Op.MAX);
            double size = 1 << k;
            return new double[] {Math.sqrt(sum[0] / (size * size * size)), maxAbs};
        }

        /** mg3P: restrict the residual down to level 1, smooth there, prolongate and smooth back up. */
        void vcycle() {
            for (int k = lt; k >= 2; k--) {
                MgLevel f = level[k];
                MgLevel c = level[k - 1];
                if (c.replicated && !f.replicated) {
                    MgLevel s = agglomeration.share();
                    ops.restrict(r[k], f.m1, f.m2, f.m3, shareBlock, s.m1, s.m2, s.m3);
                    agglomeration.gather(shareBlock, r[k - 1]);
                } else {
                    restrictExchanged(k);
                }
            }
            ops.zero(u[1]);
            psinvExchanged(1);
            for (int k = 2; k <= lt; k++) {
                MgLevel c = level[k - 1];
                MgLevel f = level[k];
                // Below the finest level u[k] is zeroed and then interpolated into (mg3P); the
                // operators do both in one pass where the interpolation writes every point.
                if (c.replicated && !f.replicated) {
                    agglomeration.extract(u[k - 1], shareBlock);
                    MgLevel s = agglomeration.share();
                    if (k < lt) {
                        ops.zeroInterpolate(shareBlock, s.m1, s.m2, s.m3, u[k], f.m1, f.m2, f.m3);
                    } else {
                        ops.interpolate(shareBlock, s.m1, s.m2, s.m3, u[k], f.m1, f.m2, f.m3);
                    }
                } else if (k < lt) {
                    ops.zeroInterpolate(u[k - 1], c.m1, c.m2, c.m3, u[k], f.m1, f.m2, f.m3);
                } else {
                    ops.interpolate(u[k - 1], c.m1, c.m2, c.m3, u[k], f.m1, f.m2, f.m3);
                }
                residExchanged(k, k < lt ? r[k] : v);
                psinvExchanged(k);
            }
        }
    }
}
