package dev.tessera.examples;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.ProgramOptions;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import dev.tessera.grid.BlockDecomposition;
import dev.tessera.grid.HaloExchange;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * A hybrid 3D heat-equation solver: ranks own blocks of the grid (Cartesian
 * decomposition), threads of each rank's team share the block's planes, and the halo
 * exchange runs while the interior (which needs no ghost) is updated.
 *
 * <p>Problem: u_t = Δu on the unit cube, u = 0 on the boundary, u(0) = sin(πx) sin(πy)
 * sin(πz); exact solution u(t) = exp(-3π²t) u(0). Explicit Euler in time (dt = h²/8, within
 * the stability limit h²/6), 7-point Laplacian. At the end the program compares with the
 * exact solution and prints the verification.
 *
 * <p>Usage: {@code tessera run -np 2 --threads 1 -cp examples/target/classes dev.tessera.examples.Heat3D [-n N] [-t-end T]}
 * ({@code --help} lists the options; TESSERA_N and TESSERA_T_END set them from the environment).
 */
public final class Heat3D {

    private Heat3D() {
    }

    public static void main(String[] args) {
        try (Session rt = Tessera.init(args)) {
            ProgramOptions options = ProgramOptions.of("Heat3D", "Hybrid 3D heat equation on the unit cube, checked against the exact solution.")
                    .add("n", 32, "interior grid points per side (global)")
                    .add("t-end", 0.02, "simulated time");
            if (!options.parse(rt)) {
                return;
            }
            int n = options.getInt("n");
            double tEnd = options.getDouble("t-end");
            double error = solve(rt.world(), rt.team(), n, tEnd, true);
            if (error > 0.01) {
                throw new IllegalStateException("Heat3D: relative error " + error + " above 1%");
            }
        }
    }

    /** Solves on an n^3 interior grid up to tEnd; returns the relative max error against the exact solution. */
    static double solve(Comm world, Team team, int n, double tEnd, boolean report) {
        CartComm grid = world.createCart(3);
        BlockDecomposition block = BlockDecomposition.of(new int[] {n, n, n}, grid);
        int[] e = block.extent();
        int[] off = block.offset();
        HaloExchange halo = HaloExchange.create(grid, e, 1, HaloExchange.Shape.FACES);
        double h = 1.0 / (n + 1);
        double dt = h * h / 8;
        int steps = (int) Math.ceil(tEnd / dt);
        dt = tEnd / steps;
        double[] u = new double[halo.length()];
        double[] next = new double[halo.length()];
        for (int i = 1; i <= e[0]; i++) {
            for (int j = 1; j <= e[1]; j++) {
                for (int k = 1; k <= e[2]; k++) {
                    u[halo.index(i, j, k)] = initial(off, i, j, k, h);
                }
            }
        }
        Stencil stencil = new Stencil(halo, e, dt / (h * h));
        double start = Session.wtime();
        for (int s = 0; s < steps; s++) {
            HaloExchange.Pending pending = halo.begin(u);
            double[] in = u;
            double[] out = next;
            // Interior cells (no ghost in their stencil) while the halo travels.
            team.parallelForRange(2, e[0], Schedule.STATIC, (from, to) -> stencil.interior(in, out, from, to));
            pending.finish();
            team.parallelForRange(1, e[0] + 1, Schedule.STATIC, (from, to) -> stencil.shell(in, out, from, to));
            next = u;
            u = out;
        }
        double seconds = Session.wtime() - start;
        double decay = Math.exp(-3 * Math.PI * Math.PI * tEnd);
        double maxError = 0;
        for (int i = 1; i <= e[0]; i++) {
            for (int j = 1; j <= e[1]; j++) {
                for (int k = 1; k <= e[2]; k++) {
                    maxError = Math.max(maxError, Math.abs(u[halo.index(i, j, k)] - decay * initial(off, i, j, k, h)));
                }
            }
        }
        double relative = world.allreduce(maxError, Op.MAX) / decay;
        if (report && world.rank() == 0) {
            System.out.printf("Heat3D: %d^3 grid, %d ranks x %d threads (%s device), grid of ranks %s%n", n,
                    world.size(), team.size(), world.deviceName(), java.util.Arrays.toString(grid.dims()));
            System.out.printf("  steps            %d (dt %.3e, t %.3f)%n", steps, dt, tEnd);
            System.out.printf("  relative error   %.3e (limit 1.0e-02)%n", relative);
            System.out.printf("  time             %.3f s (%.1f Mcell-updates/s)%n", seconds,
                    (double) n * n * n * steps / seconds / 1e6);
            System.out.println("  verification     " + (relative <= 0.01 ? "SUCCESSFUL" : "FAILED"));
        }
        return relative;
    }

    private static double initial(int[] off, int i, int j, int k, double h) {
        double x = (off[0] + i) * h;
        double y = (off[1] + j) * h;
        double z = (off[2] + k) * h;
        return Math.sin(Math.PI * x) * Math.sin(Math.PI * y) * Math.sin(Math.PI * z);
    }

    /** The 7-point update, split into cells that need no ghost and the one-cell shell that does. */
    private record Stencil(HaloExchange halo, int[] e, double r) {

        void row(double[] in, double[] out, int i, int j, int kFrom, int kTo) {
            int si = halo.index(1, 0, 0);
            int sj = halo.index(0, 1, 0);
            for (int c = halo.index(i, j, kFrom), end = halo.index(i, j, kTo); c < end; c++) {
                out[c] = in[c] + r * (in[c - si] + in[c + si] + in[c - sj] + in[c + sj] + in[c - 1] + in[c + 1] - 6 * in[c]);
            }
        }

        /** Planes [from, to) of cells at least one cell away from the block's faces. */
        void interior(double[] in, double[] out, int from, int to) {
            for (int i = from; i < to; i++) {
                for (int j = 2; j < e[1]; j++) {
                    row(in, out, i, j, 2, e[2]);
                }
            }
        }

        /** The cells of planes [from, to) that touch a face of the block. */
        void shell(double[] in, double[] out, int from, int to) {
            for (int i = from; i < to; i++) {
                boolean facePlane = i == 1 || i == e[0];
                for (int j = 1; j <= e[1]; j++) {
                    if (facePlane || j == 1 || j == e[1]) {
                        row(in, out, i, j, 1, e[2] + 1);
                    } else {
                        row(in, out, i, j, 1, 2);
                        if (e[2] > 1) {
                            row(in, out, i, j, e[2], e[2] + 1);
                        }
                    }
                }
            }
        }
    }
}
