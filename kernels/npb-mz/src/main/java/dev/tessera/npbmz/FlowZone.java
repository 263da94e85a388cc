package dev.tessera.npbmz;

import dev.tessera.task.Team;

/**
 * What a BT-MZ zone and an SP-MZ zone have in common: the fields of the flow solution on the
 * zone's own nx x ny x nz grid, the initial solution and forcing (initialize.f and
 * exact_rhs.f, the same in both references), the boundary faces (exch_qbc.f) and the
 * verification norms (rhs_norm and error_norm as verify.f sums them). The subclasses add the
 * solver: its time step and the compute_rhs the residual norm is taken of.
 *
 * <p>Layout, the references' Fortran order: component m of point (i, j, k) of the
 * five-component fields (u, rhs, forcing) is at {@code 5 * index(i, j, k) + m}, and the
 * per-point fields (rhoI, us, vs, ws, qs, square) hold point (i, j, k) at
 * {@code index(i, j, k) = (k * ny + j) * nxmax + i}. nxmax is nx rounded up to odd, as in the
 * references, so that rows of even length do not map to the same cache sets.
 *
 * <p>The fields are public and final so that the solvers' hot loops, in the benchmark
 * packages, read them directly.
 */
public abstract class FlowZone implements ZoneSolver {

    public final int nx, ny, nz, nxmax;
    /** The constants of the zone's problem (the subclass keeps them under its own type too). */
    public final FlowConstants constants;
    public final double[] u, rhs, forcing;
    public final double[] rhoI, us, vs, ws, qs, square;
    private final String benchmark;

    /**
     * A zone of {@code benchmark} ("BT-MZ", "SP-MZ": named in errors) with nx x ny x nz points,
     * at least 5 in each direction.
     */
    protected FlowZone(String benchmark, FlowConstants constants, int nx, int ny, int nz) {
        if (nx < 5 || ny < 5 || nz < 5) {
            throw new IllegalArgumentException(benchmark + " newZone: a zone needs at least 5 points per direction, got "
                    + nx + " x " + ny + " x " + nz);
        }
        this.benchmark = benchmark;
        this.constants = constants;
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
        qs = new double[points];
        square = new double[points];
    }

    /** Index of point (i, j, k) in the per-point fields; times 5, of its component 0 in u, rhs and forcing. */
    public final int index(int i, int j, int k) {
        return (k * ny + j) * nxmax + i;
    }

    @Override
    public final int nx() {
        return nx;
    }

    @Override
    public final int ny() {
        return ny;
    }

    @Override
    public final int nz() {
        return nz;
    }

    /** Sets u to the initial solution (initialize.f) and the forcing terms (exact_rhs.f). */
    protected final void initializeFlow() {
        FlowSetup.exactRhs(this);
        FlowSetup.initialize(this);
    }

    // ------------------------------------------------------------------ boundary exchange (exch_qbc.f)

    @Override
    public final int faceLength(Face face) {
        return ZoneFaces.length(face, nx, ny, nz);
    }

    @Override
    public final void packFace(Face face, double[] buf, int off) {
        ZoneFaces.copy(benchmark, face, u, nx, ny, nz, nxmax, buf, off, true);
    }

    @Override
    public final void unpackFace(Face face, double[] buf, int off) {
        ZoneFaces.copy(benchmark, face, u, nx, ny, nz, nxmax, buf, off, false);
    }

    // ------------------------------------------------------------------ verification (verify.f, error.f)

    /** Sets rhs as a fresh compute_rhs does, its loops spread over {@code team} (the residual norm's input). */
    protected abstract void computeRhs(Team team);

    /**
     * The residual rms (rhs_norm of a fresh compute_rhs, divided by dt as verify.f does before
     * summing over zones) then the error rms against the exact solution over every point
     * (error_norm), both per component and after the square root, as verify.f adds them up
     * zone by zone. Each norm is summed in the same point order whatever the team, so the
     * result does not depend on the layout.
     */
    @Override
    public final double[] verificationNorms(Team team) {
        computeRhs(team);
        double[] norms = new double[10];
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
        FlowConstants c = constants;
        double[] exact = new double[5];
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    FlowConstants.exactSolution(i * c.dnxm1, j * c.dnym1, k * c.dnzm1, exact, 0);
                    int q = index(i, j, k) * 5;
                    for (int m = 0; m < 5; m++) {
                        double d = u[q + m] - exact[m];
                        norms[5 + m] += d * d;
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
