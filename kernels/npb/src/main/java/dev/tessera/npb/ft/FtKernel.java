package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.MemoryFootprint;
import dev.tessera.npb.NpbKernel;
import dev.tessera.npb.Progress;
import dev.tessera.npb.Randlc;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import java.util.Locale;

/**
 * NPB FT: solves a 3D heat equation spectrally, u(t) = IFFT(exp(-4 alpha pi^2 |k|^2 t)
 * FFT(u(0))), with one forward 3D FFT and, per time step, one pointwise evolution, one
 * inverse 3D FFT and a checksum of 1024 points (NPB3.4-MPI/FT/ft.f).
 *
 * <p>Distribution (the reference's layouts, FT/ft.f {@code setup}): on one rank the "0D"
 * layout, the whole grid x-fastest, FFTs along x, y and z in place. On 1 < np <= nz ranks
 * the "1D" layout: rank r owns z-slab r of the xyz grid; x and y FFTs run locally, one
 * all-to-all exchange ({@link SlabTranspose}) turns the slabs into y-slabs of an xzy grid (the
 * reference's is z-fastest; x stays fastest here, so the transposes move whole x-lines and
 * the z FFT is a strided one) for the z FFT, the evolution and the twiddle factors live
 * there, and the inverse runs the mirror path. On np > nz ranks the "2D" layout: an
 * nz x np/nz process grid of x-, y- and z-pencils with two transposes over its rows and
 * columns ({@link PencilTranspose}).
 * np must be a power of two (as the reference requires for verification) and at most
 * nz * min(nz, ny).
 *
 * <p>Inside a rank, every loop over planes, batches of lines or transpose tiles is split
 * over the team's members. Arrays are split into real and imaginary parts; the complex
 * arrays of the reference (u0, u1, u2) become two: the spectral state {@code u0} and one
 * work array that holds u1 and then, transformed in place, u2.
 *
 * <p>Timing as the reference: one untimed pass of setup and forward FFT to touch all
 * data (plus, unlike the reference, a few untimed time steps: {@link #warmUpSteps(char)}), then
 * everything from setup to the last checksum is timed; time is the maximum over ranks.
 */
public final class FtKernel implements NpbKernel, MemoryFootprint {

    /** Seed and multiplier of the initial conditions (FT/ft_data.f: seed = 314159265, a = 5^13). */
    private static final double SEED = 314159265.0;
    /** alpha of the time evolution (FT/ft_data.f: alpha = 1.0d-6). */
    private static final double ALPHA = 1.0e-6;
    /**
     * Untimed time steps (evolve, inverse FFT, checksum) after the reference's untimed setup and
     * forward FFT: 6 for classes S, W and A, 2 for B and C, whose steps are four and more times
     * longer. The reference runs none; without them, C2 compiled the evolution and the inverse
     * path inside the timed part, where at 1 rank x 2 threads or 2 ranks x 1 thread its compiler
     * threads share the two cores with the ranks' work. Class A, fresh JVMs: 1x2 0.79-0.86 s
     * without, 0.67-0.68 s with one step, the same as a second run in the same JVM; 2x1 on shm
     * (two JVMs, each compiling for its rank) 0.97-1.16 s with two steps, 0.92-1.00 with four,
     * 0.89-0.93 with six. The timed part starts again from setup, so the checksums are those of
     * a cold run ({@code FtWarmUpTest}).
     */
    static int warmUpSteps(char problemClass) {
        char c = Character.toUpperCase(problemClass);
        return c == 'B' || c == 'C' ? 2 : 6;
    }

    /**
     * Setups and forward FFTs run again, untimed, after the warm-up's time steps: 2 for classes
     * S, W and A, none for B and C (not measured there). The timed part starts with setup and
     * the forward FFT, which the warm-up had run only once, so C2 compiled setup's loops, the
     * forward transforms' strided batches and their transposes inside the timed part, where at
     * 1 x 2 and 2 x 1 the compiler threads share the two cores with the work: class A at 2 x 1
     * on the 2-vCPU Intel Xeon, the C2 threads used 97-165 ms of CPU per rank JVM in a 1.4-1.6 s
     * timed part with none, 16-25 ms with two (docs/npb.md, stop 39). Setup overwrites all the
     * data, so the timed part is still a cold run's ({@code FtWarmUpTest}). {@code -Dtessera.npb.ft.warmUpSetups=N}
     * overrides the count (0: as before).
     */
    static int warmUpSetups(char problemClass) {
        char c = Character.toUpperCase(problemClass);
        return c == 'B' || c == 'C' ? 0 : 2;
    }

    /** Rows of the process grid chosen by the caller (0: the reference's default choice). */
    private final int rows;
    /** Untimed time steps before the timed part; -1: the class's {@link #warmUpSteps(char)}. */
    private final int warmUpSteps;

    public FtKernel() {
        this(0, -1);
    }

    /**
     * A kernel on an np1 x np/np1 process grid, as the reference's {@code inputft.data}
     * allows (np1 = 1: 1D layout, np1 > 1: 2D layout); for tests of the 2D layout on few ranks.
     */
    FtKernel(int np1) {
        this(np1, -1);
    }

    /** As {@link #FtKernel(int)}, with {@code warmUpSteps} untimed time steps (-1: the class's; tests compare 0 with it). */
    FtKernel(int np1, int warmUpSteps) {
        this.rows = np1;
        this.warmUpSteps = warmUpSteps;
    }

    @Override
    public String name() {
        return "FT";
    }

    @Override
    public void check(char problemClass, int ranks) {
        FtProblem p = FtProblem.of(problemClass);
        if (ranks < 1 || Integer.bitCount(ranks) != 1) {
            throw new IllegalArgumentException("FT: the number of processes must be a power of two (1, 2, 4, ...), got "
                    + ranks + " (NPB3.4 FT verifies only on a power of two)");
        }
        int most = p.nz() * Math.min(p.nz(), p.ny());
        if (ranks > most) {
            throw new IllegalArgumentException("FT class " + p.problemClass() + ": " + ranks + " processes exceed "
                    + most + " = nz * min(nz, ny), the most the reference's 2D layout (nz x np/nz process grid) can"
                    + " split the " + p.nx() + "x" + p.ny() + "x" + p.nz() + " grid over");
        }
    }

    /**
     * u0 and the work array (re, im), the twiddle factors, on np > 1 the alltoall send and
     * receive buffers (2 doubles per point each), and per thread a plane of draws and the
     * FFT batches.
     */
    @Override
    public long heapBytesPerRank(char problemClass, int ranks, int threads) {
        FtProblem p = FtProblem.of(problemClass);
        long local = p.points() / ranks;
        int maxLength = Math.max(p.nx(), Math.max(p.ny(), p.nz()));
        return 8L * local * (ranks == 1 ? 5 : 9) + 16L * p.nx() * p.ny() * threads
                + 4L * 8 * maxLength * 128 * threads + (1L << 24);
    }

    @Override
    public KernelResult run(Comm world, Team team, char problemClass) {
        check(problemClass, world.size());
        FtProblem p = FtProblem.of(problemClass);
        Solver s = new Solver(world, team, p, rows);
        // Untimed pass: touch all data and warm the code (FT/ft.f main program), then our untimed
        // time steps (see warmUpSteps).
        int warmUp = warmUpSteps >= 0 ? warmUpSteps : warmUpSteps(problemClass);
        s.setup();
        s.forward();
        for (int w = 0; w < warmUp; w++) {
            s.evolve();
            s.inverse();
            s.checksum();
        }
        int setups = warmUp == 0 ? 0 : Integer.getInteger("tessera.npb.ft.warmUpSetups", warmUpSetups(problemClass));
        for (int w = 0; w < setups; w++) {
            s.setup();
            s.forward();
        }
        world.barrier();
        long start = System.nanoTime();
        Progress.start();
        s.setup();
        s.forward();
        double[] sumRe = new double[p.iterations()];
        double[] sumIm = new double[p.iterations()];
        for (int iter = 1; iter <= p.iterations(); iter++) {
            s.evolve();
            s.inverse();
            double[] chk = s.checksum();
            sumRe[iter - 1] = chk[0];
            sumIm[iter - 1] = chk[1];
            Progress.iteration(iter, p.iterations());
        }
        double seconds = world.allreduce((System.nanoTime() - start) * 1e-9, Op.MAX);
        StringBuilder detail = new StringBuilder();
        boolean verified = true;
        for (int i = 0; i < p.iterations(); i++) {
            double dr = sumRe[i] - p.checksumRe()[i];
            double di = sumIm[i] - p.checksumIm()[i];
            double err = Math.hypot(dr, di) / Math.hypot(p.checksumRe()[i], p.checksumIm()[i]);
            boolean ok = err <= FtProblem.EPSILON;
            verified &= ok;
            detail.append(String.format(Locale.ROOT, " T = %5d     Checksum = %22.12E %22.12E  reference %22.12E %22.12E  %s%n",
                    i + 1, sumRe[i], sumIm[i], p.checksumRe()[i], p.checksumIm()[i], ok ? "ok" : "WRONG (err " + err + ")"));
        }
        double mops = seconds > 0 ? 1e-6 * p.operations() / seconds : 0.0;
        return new KernelResult("FT", p.problemClass(), p.nx() + "x" + p.ny() + "x" + p.nz(), p.iterations(), seconds,
                mops, "floating point", verified, detail.toString(), warmUpText(warmUp, setups));
    }

    /** The report's WARM-UP line. */
    static String warmUpText(int steps, int setups) {
        if (steps == 0 && setups == 0) {
            return "setup and forward FFT once untimed (as the reference)";
        }
        return "setup and forward FFT, then " + steps + (steps == 1 ? " time step" : " time steps")
                + " (evolve, inverse FFT, checksum)"
                + (setups == 0 ? "" : ", then setup and forward FFT " + setups + (setups == 1 ? " more time" : " more times"))
                + " untimed (reference: setup and forward FFT)";
    }

    /**
     * One rank's arrays and steps of a run. Process grid np1 x np2 (rank = me1 * np2 + me2)
     * as the reference's setup: 0D (1 x 1), 1D (1 x np) or 2D (nz x np/nz). Layout 1
     * (where the data starts and the checksum is taken) is {@code nx x nyl1 x nzl}, layout
     * 3 (where the z FFT, the twiddle factors and the evolution are) {@code nx x nz x nyl3}
     * in 1D ({@link SlabTranspose}), {@code nz x nxl x nyl3} in 2D (0D: layout 1 throughout).
     */
    private static final class Solver {
        private final Comm comm;
        private final Team team;
        private final FtProblem p;
        private final int layout;
        private final int nx;
        private final int ny;
        private final int nz;
        /** Layout 1: y and z extents and starts. */
        private final int nyl1;
        private final int nzl;
        private final int ys1;
        private final int zs1;
        /** Layouts 2 and 3: x extent and start; layout 3: y extent and start. */
        private final int nxl;
        private final int xs3;
        private final int nyl3;
        private final int ys3;
        private final StockhamFft fftX;
        private final StockhamFft fftY;
        private final StockhamFft fftZ;
        private final AxisFft axes;
        private final SlabTranspose slab;
        private final PencilTranspose pencil;
        /** Spectral state u0 (layout 3). */
        private double[] u0r;
        private double[] u0i;
        /** Work array: u1, then u2 in place. */
        private double[] wr;
        private double[] wi;
        private final double[] twiddle;
        /** Per member: one line of planes of draws (2 nx nyl1: real and imaginary parts interleaved). */
        private final double[][] draws;

        Solver(Comm comm, Team team, FtProblem p, int rows) {
            this.comm = comm;
            this.team = team;
            this.p = p;
            int np = comm.size();
            int me = comm.rank();
            this.nx = p.nx();
            this.ny = p.ny();
            this.nz = p.nz();
            int np1 = rows > 0 ? rows : np <= nz ? 1 : nz;
            if (np % np1 != 0 || nx % np1 != 0 || ny % np1 != 0 || nz % (np / np1) != 0 || ny % (np / np1) != 0) {
                throw new IllegalArgumentException("FT: a " + np1 + " x " + np / np1 + " process grid does not divide the "
                        + nx + "x" + ny + "x" + nz + " grid");
            }
            this.layout = np == 1 ? 0 : np1 == 1 ? 1 : 2;
            int np2 = np / np1;
            int me1 = me / np2;
            int me2 = me % np2;
            this.nyl1 = ny / np1;
            this.nzl = nz / np2;
            this.ys1 = me1 * nyl1;
            this.zs1 = me2 * nzl;
            this.nxl = nx / np1;
            this.xs3 = me1 * nxl;
            this.nyl3 = ny / np2;
            this.ys3 = me2 * nyl3;
            int local = nx * nyl1 * nzl;
            long bytes = new FtKernel().heapBytesPerRank(p.problemClass(), np, team.size());
            long max = Runtime.getRuntime().maxMemory();
            if (bytes > max) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "FT class %c on rank %d of %d needs about %d MiB of heap, this JVM allows %d MiB (raise -Xmx)",
                        p.problemClass(), me, np, bytes >> 20, max >> 20));
            }
            this.fftX = new StockhamFft(nx);
            this.fftY = new StockhamFft(ny);
            this.fftZ = new StockhamFft(nz);
            this.axes = new AxisFft(team, Math.max(nx, Math.max(ny, nz)));
            this.slab = layout == 1 ? new SlabTranspose(comm, nx, ny, nz) : null;
            if (layout == 2) {
                Comm xzComm = comm.split(me1, me2);
                Comm xyComm = comm.split(me2, me1);
                this.pencil = new PencilTranspose(xyComm, xzComm, team, local);
            } else {
                this.pencil = null;
            }
            this.u0r = new double[local];
            this.u0i = new double[local];
            this.wr = new double[local];
            this.wi = new double[local];
            this.twiddle = new double[local];
            this.draws = new double[team.size()][2 * nx * nyl1];
        }

        /** compute_indexmap and compute_initial_conditions (FT/ft.f): twiddle factors, and u1 into the work array. */
        void setup() {
            double ap = -4.0 * ALPHA * Math.PI * Math.PI;
            if (layout == 0) {
                team.parallelForRange(0, nz, Schedule.STATIC, (from, to) -> {
                    for (int z = from; z < to; z++) {
                        int kk = wrap(z, nz);
                        for (int y = 0; y < ny; y++) {
                            int jj = wrap(y, ny);
                            int row = nx * (y + ny * z);
                            for (int x = 0; x < nx; x++) {
                                int ii = wrap(x, nx);
                                twiddle[row + x] = Math.exp(ap * (ii * ii + jj * jj + kk * kk));
                            }
                        }
                    }
                });
            } else if (layout == 1) {
                // Layout 3 of the 1D layout is xzy (SlabTranspose): x + nx (z + nz yl).
                team.parallelForRange(0, nyl3, Schedule.STATIC, (from, to) -> {
                    for (int yl = from; yl < to; yl++) {
                        int jj = wrap(ys3 + yl, ny);
                        for (int z = 0; z < nz; z++) {
                            int kk = wrap(z, nz);
                            int row = nx * (z + nz * yl);
                            for (int x = 0; x < nx; x++) {
                                int ii = wrap(x, nx);
                                twiddle[row + x] = Math.exp(ap * (ii * ii + jj * jj + kk * kk));
                            }
                        }
                    }
                });
            } else {
                team.parallelForRange(0, nyl3, Schedule.STATIC, (from, to) -> {
                    for (int yl = from; yl < to; yl++) {
                        int jj = wrap(ys3 + yl, ny);
                        for (int xl = 0; xl < nxl; xl++) {
                            int ii = wrap(xs3 + xl, nx);
                            int row = nz * (xl + nxl * yl);
                            for (int z = 0; z < nz; z++) {
                                int kk = wrap(z, nz);
                                twiddle[row + z] = Math.exp(ap * (ii * ii + jj * jj + kk * kk));
                            }
                        }
                    }
                });
            }
            // Point (x, y, z) holds draws 2(x + nx (y + ny z)) + 1 and + 2 after SEED (real, imaginary):
            // each local z plane's y range is one stretch of 2 nx nyl1 draws.
            int plane = nx * nyl1;
            team.region(ctx -> {
                double[] buf = draws[ctx.id()];
                ctx.parallelForRange(0, nzl, Schedule.STATIC, (from, to) -> {
                    for (int zl = from; zl < to; zl++) {
                        long skip = 2L * nx * ((long) (zs1 + zl) * ny + ys1);
                        double[] x = {SEED};
                        Randlc.randlc(x, Randlc.power(Randlc.A, skip));
                        InterleavedRandlc.fill(2 * plane, x[0], Randlc.A, buf, 0);
                        int base = plane * zl;
                        for (int q = 0; q < plane; q++) {
                            wr[base + q] = buf[2 * q];
                            wi[base + q] = buf[2 * q + 1];
                        }
                    }
                });
            });
        }

        /** The reference's mapping of index i of n to the signed frequency in [-n/2, n/2). */
        private static int wrap(int i, int n) {
            return (i + n / 2) % n - n / 2;
        }

        /** fft(1, u1, u0): the work array transformed to layout 3, then made the spectral state. */
        void forward() {
            switch (layout) {
                case 0 -> {
                    axes.transform(fftX, 1, wr, wi, nx, ny, nz, 0);
                    axes.transform(fftY, 1, wr, wi, nx, ny, nz, 1);
                    axes.transform(fftZ, 1, wr, wi, nx, ny, nz, 2);
                }
                case 1 -> {
                    // The transpose's local passes are the y FFT's scatter and the z FFT's gather (SlabTranspose).
                    axes.transform(fftX, 1, wr, wi, nx, ny, nzl, 0);
                    axes.transformStridedInto(fftY, 1, wr, wi, nx, ny, nzl, slab.sendBuffer(), nyl3);
                    double[] recv = slab.exchange();
                    axes.transformColumnsFrom(fftZ, 1, recv, slab.sendBuffer(), slab.ownBlock(), nzl, wr, wi, nx, nz, nyl3);
                }
                default -> {
                    axes.transform(fftX, 1, wr, wi, nx, nyl1, nzl, 0);
                    pencil.xy(wr, wi, nx, nyl1, nzl, ny, nxl, nzl);
                    axes.transform(fftY, 1, wr, wi, ny, nxl, nzl, 0);
                    pencil.xz(wr, wi, ny, nxl, nzl, nz, nxl, nyl3);
                    axes.transform(fftZ, 1, wr, wi, nz, nxl, nyl3, 0);
                }
            }
            double[] t = u0r;
            u0r = wr;
            wr = t;
            t = u0i;
            u0i = wi;
            wi = t;
        }

        /** evolve (FT/ft.f): u0 = u0 * twiddle, u1 = u0. */
        void evolve() {
            int chunk = 4096;
            int n = twiddle.length;
            double[] ar = u0r;
            double[] ai = u0i;
            double[] br = wr;
            double[] bi = wi;
            team.parallelForRange(0, (n + chunk - 1) / chunk, Schedule.STATIC, (from, to) -> {
                int lo = from * chunk;
                int hi = Math.min(n, to * chunk);
                for (int i = lo; i < hi; i++) {
                    double t = twiddle[i];
                    double r = ar[i] * t;
                    double im = ai[i] * t;
                    ar[i] = r;
                    ai[i] = im;
                    br[i] = r;
                    bi[i] = im;
                }
            });
        }

        /** fft(-1, u1, u2), in place on the work array, from layout 3 to layout 1. */
        void inverse() {
            switch (layout) {
                case 0 -> {
                    axes.transform(fftZ, -1, wr, wi, nx, ny, nz, 2);
                    axes.transform(fftY, -1, wr, wi, nx, ny, nz, 1);
                    axes.transform(fftX, -1, wr, wi, nx, ny, nz, 0);
                }
                case 1 -> {
                    // The transpose's local passes are the FFTs' own gather and scatter (SlabTranspose).
                    axes.transformStridedInto(fftZ, -1, wr, wi, nx, nz, nyl3, slab.sendBuffer(), nzl);
                    double[] recv = slab.exchange();
                    axes.transformColumnsFrom(fftY, -1, recv, slab.sendBuffer(), slab.ownBlock(), nyl3, wr, wi, nx, ny, nzl);
                    axes.transform(fftX, -1, wr, wi, nx, ny, nzl, 0);
                }
                default -> {
                    axes.transform(fftZ, -1, wr, wi, nz, nxl, nyl3, 0);
                    pencil.xz(wr, wi, nz, nxl, nyl3, ny, nxl, nzl);
                    axes.transform(fftY, -1, wr, wi, ny, nxl, nzl, 0);
                    pencil.xy(wr, wi, ny, nxl, nzl, nx, nyl1, nzl);
                    axes.transform(fftX, -1, wr, wi, nx, nyl1, nzl, 0);
                }
            }
        }

        /** checksum (FT/ft.f): sum of u2 at 1024 points (j mod nx, 3j mod ny, 5j mod nz) / ntotal, over all ranks. */
        double[] checksum() {
            double[] chk = new double[2];
            for (int j = 1; j <= 1024; j++) {
                int x = j % nx;
                int y = (3 * j) % ny;
                int z = (5 * j) % nz;
                if (y >= ys1 && y < ys1 + nyl1 && z >= zs1 && z < zs1 + nzl) {
                    int i = x + nx * (y - ys1 + nyl1 * (z - zs1));
                    chk[0] += wr[i];
                    chk[1] += wi[i];
                }
            }
            double total = (double) p.points();
            chk[0] /= total;
            chk[1] /= total;
            comm.allreduce(Buffer.of(chk), Op.SUM);
            return chk;
        }
    }
}
