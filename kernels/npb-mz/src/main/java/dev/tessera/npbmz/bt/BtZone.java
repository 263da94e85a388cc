package dev.tessera.npbmz.bt;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneSolver;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.Arrays;
import java.util.Objects;

/**
 * One zone of BT-MZ: the BT solver (the reference's adi.f: compute_rhs, x_solve, y_solve,
 * z_solve, add) on a zone's own nx x ny x nz grid.
 *
 * <p>Layout. Point (i, j, k) has the index {@code p = (k * ny + j) * nxmax + i}; the five
 * solution components of u, rhs and forcing are {@code u[5 p + m]} (m fastest, then i, j, k:
 * the reference's u(5, 0:nxmax-1, 0:ny-1, 0:nz-1)); the per-point quantities rho_i, us, vs,
 * ws, qs, square are {@code a[p]}. nxmax is nx rounded up to odd, as in the reference, so
 * that rows of even length do not map to the same cache sets.
 *
 * <p>One step (one ADI iteration) is one team region of four worksharing loops, each ending
 * in a barrier:
 * <ol>
 * <li>primitive variables for every point, over the collapsed (k, j) rows;</li>
 * <li>for each interior row (j, k): its right-hand side, then its xi line solve (the row is
 *     the line, so the same thread solves the row it just computed, while it is in cache);</li>
 * <li>the eta line solves over the collapsed (k, i) lines;</li>
 * <li>the zeta line solves over the collapsed (j, i) lines, each followed by the update of
 *     u on its own points (the reference's add).</li>
 * </ol>
 * The loops are shared with the static schedule over the same collapsed ranges as the
 * reference's {@code COLLAPSE(2)} OpenMP loops. Each member uses its own {@link BtLineSolver}
 * scratch, allocated when a team larger than any before first calls {@link #step}.
 *
 * <p>Boundary exchange (the reference's exch_qbc.f, copy_x_face/copy_y_face): the values
 * given to the west neighbour are the interior (j, k) points of column i = 1, to the east
 * i = nx-2, to the south row j = 1, to the north j = ny-2; values received from the west
 * go to i = 0, east to i = nx-1, south to j = 0, north to j = ny-1. A face buffer holds the
 * 5 components of each point, then j (or i), then k: the reference's qbc(5, ny-2, nz-2).
 */
final class BtZone implements ZoneSolver {

    final int nx, ny, nz, nxmax, plane;
    final BtConstants c;
    final double[] u, rhs, forcing;
    final double[] rhoI, us, vs, ws, qs, square;
    private BtLineSolver[] solvers = new BtLineSolver[0];

    BtZone(MzProblem problem, int nx, int ny, int nz) {
        Objects.requireNonNull(problem, "problem");
        if (nx < 5 || ny < 5 || nz < 5) {
            throw new IllegalArgumentException("BT-MZ newZone: a zone needs at least 5 points per direction, got "
                    + nx + " x " + ny + " x " + nz);
        }
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.nxmax = nx + 1 - nx % 2;
        this.plane = nxmax * ny;
        this.c = new BtConstants(problem);
        int points = plane * nz;
        u = new double[5 * points];
        rhs = new double[5 * points];
        forcing = new double[5 * points];
        rhoI = new double[points];
        us = new double[points];
        vs = new double[points];
        ws = new double[points];
        qs = new double[points];
        square = new double[points];
    }

    /** Index of point (i, j, k). */
    int index(int i, int j, int k) {
        return (k * ny + j) * nxmax + i;
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
        BtSetup.initialize(this);
        BtSetup.exactRhs(this);
        Arrays.fill(rhs, 0.0);
    }

    @Override
    public void step(Team team) {
        BtLineSolver[] s = solversFor(team.size());
        team.region(ctx -> adi(ctx, s[ctx.id()]));
    }

    private void adi(TeamContext ctx, BtLineSolver solver) {
        int rows = ny - 2, lines = nx - 2;
        ctx.parallelForRange(0, nz * ny, Schedule.STATIC, (from, to) -> BtRhs.primitives(this, from, to));
        ctx.parallelForRange(0, (nz - 2) * rows, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                int k = 1 + r / rows, j = 1 + r % rows;
                BtRhs.row(this, j, k);
                solver.solveX(this, j, k);
            }
        });
        ctx.parallelForRange(0, (nz - 2) * lines, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                solver.solveY(this, 1 + r % lines, 1 + r / lines);
            }
        });
        ctx.parallelForRange(0, (ny - 2) * lines, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                solver.solveZAndAdd(this, 1 + r % lines, 1 + r / lines);
            }
        });
    }

    private BtLineSolver[] solversFor(int members) {
        if (solvers.length < members) {
            BtLineSolver[] grown = Arrays.copyOf(solvers, members);
            int n = Math.max(nx, Math.max(ny, nz));
            for (int m = solvers.length; m < members; m++) {
                grown[m] = new BtLineSolver(n);
            }
            solvers = grown;
        }
        return solvers;
    }

    // ------------------------------------------------------------------ boundary exchange

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
            case WEST -> copyXFace(1, buf, off, true);
            case EAST -> copyXFace(nx - 2, buf, off, true);
            case SOUTH -> copyYFace(1, buf, off, true);
            case NORTH -> copyYFace(ny - 2, buf, off, true);
        }
    }

    @Override
    public void unpackFace(Face face, double[] buf, int off) {
        switch (face) {
            case WEST -> copyXFace(0, buf, off, false);
            case EAST -> copyXFace(nx - 1, buf, off, false);
            case SOUTH -> copyYFace(0, buf, off, false);
            case NORTH -> copyYFace(ny - 1, buf, off, false);
        }
    }

    private void checkBuffer(double[] buf, int off, int length) {
        Objects.requireNonNull(buf, "face buffer");
        if (off < 0 || off > buf.length - length) {
            throw new IllegalArgumentException("face buffer of " + buf.length + " doubles has no room for "
                    + length + " at offset " + off);
        }
    }

    private void copyXFace(int i, double[] buf, int off, boolean out) {
        checkBuffer(buf, off, 5 * (ny - 2) * (nz - 2));
        int o = off;
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                int q = index(i, j, k) * 5;
                if (out) {
                    System.arraycopy(u, q, buf, o, 5);
                } else {
                    System.arraycopy(buf, o, u, q, 5);
                }
                o += 5;
            }
        }
    }

    private void copyYFace(int j, double[] buf, int off, boolean out) {
        int len = 5 * (nx - 2);
        checkBuffer(buf, off, len * (nz - 2));
        int o = off;
        for (int k = 1; k < nz - 1; k++) {
            int q = index(1, j, k) * 5;
            if (out) {
                System.arraycopy(u, q, buf, o, len);
            } else {
                System.arraycopy(buf, o, u, q, len);
            }
            o += len;
        }
    }

    // ------------------------------------------------------------------ verification

    /**
     * The residual rms (rhs_norm of a fresh compute_rhs, divided by dt as verify.f does before
     * summing over zones) then the error rms against the exact solution (error_norm), both per
     * component and after the square root, as verify.f adds them up zone by zone.
     */
    @Override
    public double[] verificationNorms(Team team) {
        team.region(ctx -> {
            ctx.parallelForRange(0, nz * ny, Schedule.STATIC, (from, to) -> BtRhs.primitives(this, from, to));
            ctx.parallelForRange(0, (nz - 2) * (ny - 2), Schedule.STATIC, (from, to) -> {
                for (int r = from; r < to; r++) {
                    BtRhs.row(this, 1 + r % (ny - 2), 1 + r / (ny - 2));
                }
            });
        });
        double[] norms = new double[10];
        double interior = (double) (nz - 2) * (double) (ny - 2) * (double) (nx - 2);
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                for (int i = 1; i < nx - 1; i++) {
                    int q = index(i, j, k) * 5;
                    for (int m = 0; m < 5; m++) {
                        norms[m] += rhs[q + m] * rhs[q + m];
                    }
                }
            }
        }
        double[] exact = new double[5];
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int j = 0; j < ny; j++) {
                double eta = j * c.dnym1;
                for (int i = 0; i < nx; i++) {
                    c.exactSolution(i * c.dnxm1, eta, zeta, exact, 0);
                    int q = index(i, j, k) * 5;
                    for (int m = 0; m < 5; m++) {
                        double d = u[q + m] - exact[m];
                        norms[5 + m] += d * d;
                    }
                }
            }
        }
        for (int m = 0; m < 10; m++) {
            norms[m] = Math.sqrt(norms[m] / interior);
        }
        for (int m = 0; m < 5; m++) {
            norms[m] = norms[m] / c.dt;
        }
        return norms;
    }
}
