package dev.tessera.examples;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.ProgramOptions;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;

/**
 * Solves the Poisson problem -Δu = f on the unit square with u = 0 on the boundary and
 * f = 2π² sin(πx) sin(πy), whose exact solution is u = sin(πx) sin(πy), by Jacobi
 * iteration on an N x N grid of interior points. Rows are split over the ranks; each
 * iteration exchanges one ghost row with each neighbour, and every 50 iterations an
 * allreduce gives the global residual. At the end the program compares the result with
 * the analytic solution: the error must be of the order of the discretisation error h².
 *
 * <p>Usage: {@code tessera run -np 4 -cp examples/target/classes dev.tessera.examples.Jacobi2D [-n N] [-tolerance TOL]}
 * ({@code --help} lists the options; TESSERA_N and TESSERA_TOLERANCE set them from the environment).
 */
public final class Jacobi2D {

    private Jacobi2D() {
    }

    public static void main(String[] args) {
        try (Session rt = Tessera.init(args)) {
            ProgramOptions options = ProgramOptions.of("Jacobi2D", "2D Poisson equation by Jacobi iteration, rows split over ranks.")
                    .add("n", 64, "interior grid points per side")
                    .add("tolerance", 1e-9, "stop when the residual falls below this");
            if (!options.parse(rt)) {
                return;
            }
            solve(rt.world(), options.getInt("n"), options.getDouble("tolerance"));
        }
    }

    static void solve(Comm world, int n, double tolerance) {
        int p = world.size();
        int me = world.rank();
        if (n < p) {
            throw new IllegalArgumentException("grid of " + n + " rows cannot be split over " + p + " ranks");
        }
        int first = me * n / p;
        int rows = (me + 1) * n / p - first;
        double h = 1.0 / (n + 1);
        // Local rows 1..rows are ours; rows 0 and rows+1 are ghosts (neighbour's rows or boundary zeros).
        int width = n + 2;
        double[] u = new double[(rows + 2) * width];
        double[] next = new double[(rows + 2) * width];
        double[] f = new double[(rows + 2) * width];
        for (int i = 1; i <= rows; i++) {
            double y = (first + i) * h;
            for (int j = 1; j <= n; j++) {
                f[i * width + j] = 2 * Math.PI * Math.PI * Math.sin(Math.PI * j * h) * Math.sin(Math.PI * y);
            }
        }
        int up = me > 0 ? me - 1 : Comm.PROC_NULL;
        int down = me < p - 1 ? me + 1 : Comm.PROC_NULL;
        double start = Session.wtime();
        int iteration = 0;
        double residual = Double.MAX_VALUE;
        while (residual > tolerance && iteration < 200_000) {
            // Halo exchange: send my first row up and receive my lower ghost row from below, and vice versa.
            world.sendrecv(Buffer.of(u, width, width), up, 0, Buffer.of(u, (rows + 1) * width, width), down, 0);
            world.sendrecv(Buffer.of(u, rows * width, width), down, 1, Buffer.of(u, 0, width), up, 1);
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= n; j++) {
                    int k = i * width + j;
                    double v = 0.25 * (u[k - 1] + u[k + 1] + u[k - width] + u[k + width] + h * h * f[k]);
                    local += (v - u[k]) * (v - u[k]);
                    next[k] = v;
                }
            }
            double[] t = u;
            u = next;
            next = t;
            iteration++;
            if (iteration % 50 == 0) {
                residual = Math.sqrt(world.allreduce(local, Op.SUM));
            }
        }
        double maxError = 0;
        for (int i = 1; i <= rows; i++) {
            double y = (first + i) * h;
            for (int j = 1; j <= n; j++) {
                double exact = Math.sin(Math.PI * j * h) * Math.sin(Math.PI * y);
                maxError = Math.max(maxError, Math.abs(u[i * width + j] - exact));
            }
        }
        maxError = world.allreduce(maxError, Op.MAX);
        double seconds = Session.wtime() - start;
        // Second-order scheme: the error against the analytic solution is about (π²/12) h² max|u|.
        double expected = Math.PI * Math.PI / 12 * h * h;
        boolean ok = maxError < 2 * expected;
        if (me == 0) {
            System.out.printf("Jacobi2D: %d x %d grid on %d ranks (%s device)%n", n, n, p, world.deviceName());
            System.out.printf("  iterations       %d (residual %.3e)%n", iteration, residual);
            System.out.printf("  max error        %.3e (discretisation bound %.3e)%n", maxError, 2 * expected);
            System.out.printf("  time             %.3f s%n", seconds);
            System.out.println("  verification     " + (ok ? "SUCCESSFUL" : "FAILED"));
        }
        if (!ok) {
            throw new IllegalStateException("Jacobi2D: error " + maxError + " above the discretisation bound " + 2 * expected);
        }
    }
}
