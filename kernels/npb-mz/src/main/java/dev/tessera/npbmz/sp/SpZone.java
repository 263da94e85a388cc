package dev.tessera.npbmz.sp;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneSolver;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.function.Consumer;

/**
 * One SP-MZ zone: the scalar penta-diagonal ADI solver of NPB SP on an nx x ny x nz grid
 * (the reference's adi.f and what it calls).
 *
 * <p>Layout: flat arrays in the reference's Fortran order. Five-component fields (u, rhs,
 * forcing) hold component m of point (i, j, k) at {@code 5 * ((k * ny + j) * nxmax + i) + m};
 * point fields (rho_i, us, vs, ws, square, qs, speed) at {@code (k * ny + j) * nxmax + i}.
 * {@code nxmax = nx + 1 - nx % 2} pads x to an odd length as the reference does.
 *
 * <p>A step ({@link #step}) is one region on the team in four phases separated by barriers,
 * each phase splitting its lines statically over the members:
 * <ol>
 *   <li>point values and rhs = forcing on every (j, k) line ({@link SpRhs#pointValues});</li>
 *   <li>per interior (j, k) line: the fluxes of compute_rhs, txinvr, the x solve and ninvr
 *       (the same member owns the line from the rhs to the solve, so no barrier is needed
 *       in between);</li>
 *   <li>per interior (i, k) line: the y solve and pinvr;</li>
 *   <li>per interior (i, j) line: the z solve, tzetar and the update of u.</li>
 * </ol>
 * The reference runs the same loops as eleven OpenMP loops with their barriers; the fused
 * phases give the same values (each element receives its terms in the same order) with three
 * barriers and one cache pass fewer per phase. Each member has its own {@link SpLineSolver}
 * scratch; nothing is allocated per step.
 */
final class SpZone implements ZoneSolver {

    final SpConstants c;
    final int nx;
    final int ny;
    final int nz;
    final int nxmax;
    final double[] u;
    final double[] rhs;
    final double[] forcing;
    final double[] rhoI;
    final double[] us;
    final double[] vs;
    final double[] ws;
    final double[] square;
    final double[] qs;
    final double[] speed;
    private SpLineSolver[] lineSolvers = new SpLineSolver[0];
    private final Consumer<TeamContext> stepRegion = ctx -> phases(ctx.id(), ctx.size(), ctx, true);
    private final Consumer<TeamContext> rhsRegion = ctx -> phases(ctx.id(), ctx.size(), ctx, false);

    SpZone(MzProblem problem, SpConstants constants, int nx, int ny, int nz) {
        if (nx < 5 || ny < 5 || nz < 5) {
            throw new IllegalArgumentException("SP-MZ zone " + nx + " x " + ny + " x " + nz
                    + " is too small: the solver needs at least 5 points in each direction");
        }
        this.c = constants;
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.nxmax = nx + 1 - nx % 2;
        int points = nxmax * ny * nz;
        u = new double[5 * points];
        rhs = new double[5 * points];
        forcing = new double[5 * points];
        rhoI = new double[points];
        us = new double[points];
        vs = new double[points];
        ws = new double[points];
        square = new double[points];
        qs = new double[points];
        speed = new double[points];
    }

    /** Index of component 0 of point (i, j, k) in the five-component fields. */
    int q(int i, int j, int k) {
        return 5 * ((k * ny + j) * nxmax + i);
    }

    @Override
    public int nx() {
        return nx;
    }

    @Override
    public int ny() {
        return ny;
    }

    @Override
    public int nz() {
        return nz;
    }

    @Override
    public void initialize() {
        SpInitial.exactRhs(this);
        SpInitial.initialize(this);
    }

    @Override
    public void step(Team team) {
        run(team, true);
    }

    private void run(Team team, boolean step) {
        int members = team.size();
        if (lineSolvers.length < members) {
            SpLineSolver[] more = java.util.Arrays.copyOf(lineSolvers, members);
            for (int m = lineSolvers.length; m < members; m++) {
                more[m] = new SpLineSolver(this);
            }
            lineSolvers = more;
        }
        if (members == 1) {
            phases(0, 1, null, step);
        } else {
            team.region(step ? stepRegion : rhsRegion);
        }
    }

    /** The step's phases (or, without {@code step}, compute_rhs alone) as member {@code id} of {@code n}. */
    private void phases(int id, int n, TeamContext ctx, boolean step) {
        SpLineSolver lines = lineSolvers[id];
        int all = ny * nz;
        SpRhs.pointValues(this, start(all, id, n), start(all, id + 1, n));
        barrier(ctx);
        int jk = (ny - 2) * (nz - 2);
        for (int x = start(jk, id, n), end = start(jk, id + 1, n); x < end; x++) {
            int j = 1 + x % (ny - 2);
            int k = 1 + x / (ny - 2);
            SpRhs.line(this, j, k, step);
            if (step) {
                lines.xLine(j, k);
            }
        }
        if (!step) {
            return;
        }
        barrier(ctx);
        int ik = (nx - 2) * (nz - 2);
        for (int x = start(ik, id, n), end = start(ik, id + 1, n); x < end; x++) {
            lines.yLine(1 + x % (nx - 2), 1 + x / (nx - 2));
        }
        barrier(ctx);
        int ij = (nx - 2) * (ny - 2);
        for (int x = start(ij, id, n), end = start(ij, id + 1, n); x < end; x++) {
            lines.zLine(1 + x % (nx - 2), 1 + x / (nx - 2));
        }
    }

    private static int start(int total, int id, int n) {
        return (int) ((long) total * id / n);
    }

    private static void barrier(TeamContext ctx) {
        if (ctx != null) {
            ctx.barrier();
        }
    }

    // ------------------------------------------------------------------ faces (exch_qbc.f)

    @Override
    public int faceLength(Face face) {
        return switch (face) {
            case WEST, EAST -> 5 * (ny - 2) * (nz - 2);
            case SOUTH, NORTH -> 5 * (nx - 2) * (nz - 2);
        };
    }

    @Override
    public void packFace(Face face, double[] buf, int off) {
        switch (face) {
            case WEST -> copyXFace(1, buf, off, false);
            case EAST -> copyXFace(nx - 2, buf, off, false);
            case SOUTH -> copyYFace(1, buf, off, false);
            case NORTH -> copyYFace(ny - 2, buf, off, false);
        }
    }

    @Override
    public void unpackFace(Face face, double[] buf, int off) {
        switch (face) {
            case WEST -> copyXFace(0, buf, off, true);
            case EAST -> copyXFace(nx - 1, buf, off, true);
            case SOUTH -> copyYFace(0, buf, off, true);
            case NORTH -> copyYFace(ny - 1, buf, off, true);
        }
    }

    /** The plane i = {@code i}, interior j and k, to or from {@code buf} in (m, j, k) order. */
    private void copyXFace(int i, double[] buf, int off, boolean in) {
        int b = off;
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                int x = q(i, j, k);
                if (in) {
                    System.arraycopy(buf, b, u, x, 5);
                } else {
                    System.arraycopy(u, x, buf, b, 5);
                }
                b += 5;
            }
        }
    }

    /** The plane j = {@code j}, interior i and k, to or from {@code buf} in (m, i, k) order. */
    private void copyYFace(int j, double[] buf, int off, boolean in) {
        int len = 5 * (nx - 2);
        int b = off;
        for (int k = 1; k < nz - 1; k++) {
            int x = q(1, j, k);
            if (in) {
                System.arraycopy(buf, b, u, x, len);
            } else {
                System.arraycopy(u, x, buf, b, len);
            }
            b += len;
        }
    }

    // ------------------------------------------------------------------ verification (verify.f, error.f)

    /** The 5 residual rms over dt (rhs_norm after compute_rhs) and the 5 error rms (error_norm), as verify.f sums them. */
    @Override
    public double[] verificationNorms(Team team) {
        double[] norms = new double[10];
        double[] exact = new double[5];
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int j = 0; j < ny; j++) {
                double eta = j * c.dnym1;
                for (int i = 0; i < nx; i++) {
                    SpConstants.exactSolution(i * c.dnxm1, eta, zeta, exact, 0);
                    int x = q(i, j, k);
                    for (int m = 0; m < 5; m++) {
                        double add = u[x + m] - exact[m];
                        norms[5 + m] += add * add;
                    }
                }
            }
        }
        run(team, false);
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                for (int i = 1; i < nx - 1; i++) {
                    int x = q(i, j, k);
                    for (int m = 0; m < 5; m++) {
                        norms[m] += rhs[x + m] * rhs[x + m];
                    }
                }
            }
        }
        double interior = (double) (nz - 2) * (double) (ny - 2) * (double) (nx - 2);
        for (int m = 0; m < 5; m++) {
            norms[m] = Math.sqrt(norms[m] / interior) / c.dt;
            norms[5 + m] = Math.sqrt(norms[5 + m] / interior);
        }
        return norms;
    }
}
