package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.MemoryFootprint;
import dev.tessera.npb.NpbKernel;
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
 * layout, the whole grid x-fastest, FFTs along x, y and z in place. On np > 1 ranks the
 * "1D" layout: rank r owns z-slab r of the xyz grid; x and y FFTs run locally, one
 * alltoall ({@link SlabTranspose}) turns the slabs into y-slabs of a z-fastest grid for the
 * z FFT, the evolution and the twiddle factors live there, and the inverse runs the
 * mirror path. np must be a power of two (as the reference requires for verification)
 * and at most nz and ny (beyond that the reference switches to its 2D layout, which this
 * kernel does not implement: {@link #check} refuses it).
 *
 * <p>Inside a rank, every loop over planes, batches of lines or transpose tiles is split
 * over the team's members. Arrays are split into real and imaginary parts; the complex
 * arrays of the reference (u0, u1, u2) become two: the spectral state {@code u0} and one
 * work array that holds u1 and then, transformed in place, u2.
 *
 * <p>Timing as the reference: one untimed pass of setup and forward FFT to touch all
 * data, then everything from setup to the last checksum is timed; time is the maximum
 * over ranks.
 */
public final class FtKernel implements NpbKernel, MemoryFootprint {

    /** Seed and multiplier of the initial conditions (FT/ft_data.f: seed = 314159265, a = 5^13). */
    private static final double SEED = 314159265.0;
    /** alpha of the time evolution (FT/ft_data.f: alpha = 1.0d-6). */
    private static final double ALPHA = 1.0e-6;

    public FtKernel() {
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
        if (ranks > p.nz() || ranks > p.ny()) {
            throw new IllegalArgumentException("FT class " + p.problemClass() + ": " + ranks + " processes exceed nz = "
                    + p.nz() + "; the reference uses its 2D (pencil) layout there, which Tessera's FT does not implement");
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
        Solver s = new Solver(world, team, p);
        // Untimed pass: touch all data and warm the code (FT/ft.f main program).
        s.setup();
        s.forward();
        world.barrier();
        long start = System.nanoTime();
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
            progress(world, start, iter, p.iterations());
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
                mops, "floating point", verified, detail.toString());
    }

    private static void progress(Comm world, long start, int iter, int total) {
        double elapsed = (System.nanoTime() - start) * 1e-9;
        if (world.rank() == 0 && elapsed > 5.0) {
            System.err.printf(Locale.ROOT, "FT: iteration %d of %d, %.1f s elapsed, about %.1f s to go%n",
                    iter, total, elapsed, elapsed / iter * (total - iter));
        }
    }

    /** One rank's arrays and steps of a run. */
    private static final class Solver {
        private final Comm comm;
        private final Team team;
        private final FtProblem p;
        private final int np;
        private final int me;
        private final int nx;
        private final int ny;
        private final int nz;
        private final int nzl;
        private final int nyl;
        private final StockhamFft fftX;
        private final StockhamFft fftY;
        private final StockhamFft fftZ;
        private final AxisFft axes;
        private final SlabTranspose transpose;
        /** Spectral state u0 (in the spectral layout: xyz on one rank, zxy on several). */
        private double[] u0r;
        private double[] u0i;
        /** Work array: u1, then u2 in place. */
        private double[] wr;
        private double[] wi;
        private final double[] twiddle;
        /** Per member: one xy-plane of draws (2 nx ny: real and imaginary parts interleaved). */
        private final double[][] draws;

        Solver(Comm comm, Team team, FtProblem p) {
            this.comm = comm;
            this.team = team;
            this.p = p;
            this.np = comm.size();
            this.me = comm.rank();
            this.nx = p.nx();
            this.ny = p.ny();
            this.nz = p.nz();
            this.nzl = nz / np;
            this.nyl = ny / np;
            int local = nx * ny * nzl;
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
            this.transpose = np > 1 ? new SlabTranspose(comm, team, nx, ny, nz) : null;
            this.u0r = new double[local];
            this.u0i = new double[local];
            this.wr = new double[local];
            this.wi = new double[local];
            this.twiddle = new double[local];
            this.draws = new double[team.size()][2 * nx * ny];
        }

        /** compute_indexmap and compute_initial_conditions (FT/ft.f): twiddle factors, and u1 into the work array. */
        void setup() {
            double ap = -4.0 * ALPHA * Math.PI * Math.PI;
            if (np == 1) {
                team.parallelForRange(0, nz, Schedule.STATIC, (from, to) -> {
                    for (int z = from; to > z; z++) {
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
            } else {
                team.parallelForRange(0, nyl, Schedule.STATIC, (from, to) -> {
                    for (int yl = from; yl < to; yl++) {
                        int jj = wrap(me * nyl + yl, ny);
                        for (int x = 0; x < nx; x++) {
                            int ii = wrap(x, nx);
                            int row = nz * (x + nx * yl);
                            for (int z = 0; z < nz; z++) {
                                int kk = wrap(z, nz);
                                twiddle[row + z] = Math.exp(ap * (ii * ii + jj * jj + kk * kk));
                            }
                        }
                    }
                });
            }
            // Plane z of the xyz grid is the stretch of the sequence starting 2*nx*ny*z draws after SEED.
            int plane = nx * ny;
            team.region(ctx -> {
                double[] buf = draws[ctx.id()];
                ctx.parallelForRange(0, nzl, Schedule.STATIC, (from, to) -> {
                    for (int zl = from; zl < to; zl++) {
                        long skip = 2L * plane * (me * nzl + zl);
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

        /** fft(1, u1, u0): the work array transformed, then made the spectral state. */
        void forward() {
            axes.transform(fftX, 1, wr, wi, nx, ny, nzl, 0);
            axes.transform(fftY, 1, wr, wi, nx, ny, nzl, 1);
            if (np == 1) {
                axes.transform(fftZ, 1, wr, wi, nx, ny, nz, 2);
            } else {
                transpose.xyzToZxy(wr, wi);
                axes.transform(fftZ, 1, wr, wi, nz, nx, nyl, 0);
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
            int planes = np == 1 ? nz : nyl;
            int planeSize = twiddle.length / planes;
            double[] ar = u0r;
            double[] ai = u0i;
            double[] br = wr;
            double[] bi = wi;
            team.parallelForRange(0, planes, Schedule.STATIC, (from, to) -> {
                int lo = from * planeSize;
                int hi = to * planeSize;
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

        /** fft(-1, u1, u2), in place on the work array, ending in the xyz layout. */
        void inverse() {
            if (np == 1) {
                axes.transform(fftZ, -1, wr, wi, nx, ny, nz, 2);
            } else {
                axes.transform(fftZ, -1, wr, wi, nz, nx, nyl, 0);
                transpose.zxyToXyz(wr, wi);
            }
            axes.transform(fftY, -1, wr, wi, nx, ny, nzl, 1);
            axes.transform(fftX, -1, wr, wi, nx, ny, nzl, 0);
        }

        /** checksum (FT/ft.f): sum of u2 at 1024 points (j mod nx, 3j mod ny, 5j mod nz) / ntotal, over all ranks. */
        double[] checksum() {
            double[] chk = new double[2];
            int z0 = me * nzl;
            for (int j = 1; j <= 1024; j++) {
                int x = j % nx;
                int y = (3 * j) % ny;
                int z = (5 * j) % nz;
                if (z >= z0 && z < z0 + nzl) {
                    int i = x + nx * (y + ny * (z - z0));
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
