package dev.tessera.npbmz.lu;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneFaces;
import dev.tessera.npbmz.ZoneSolver;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The LU solver on one zone of LU-MZ: SSOR iterations for the five coupled equations on the
 * zone's nx x ny x nz points (reference: NPB3.4-MZ LU-MZ, ssor.f and the routines it calls).
 *
 * <p>Layout. Flat arrays, x fastest, as the reference's u(5, nxmax, ny, nz): the five
 * components of point (i, j, k) (0-based; 0 and n-1 are the zone's boundary, which on the x
 * and y faces holds the neighbours' values after the exchange) are at
 * {@code 5 * ((k * ny + j) * nxmax + i) + m}; rho_i and qs at {@code (k * ny + j) * nxmax + i}.
 * nxmax is nx rounded up to an odd number (lu_data.f/zone_setup.f), which keeps the rows of
 * power-of-two zones from mapping onto the same cache sets.
 *
 * <p>One step (one SSOR iteration) is one {@link Team#region}. Members own static blocks of
 * interior rows j, the same blocks in every phase, so that most phases need no barrier:
 * <ol>
 *   <li>rsd *= dt on the member's rows;
 *   <li>the lower sweep, planes k upwards, pipelined: member m sweeps plane k of its rows
 *       once member m-1 has finished plane k ({@link SweepPipeline}; ssor.f's
 *       sync_left/blts/sync_right of the OpenMP version);
 *   <li>the upper sweep, planes downwards, pipelined the other way (member m waits for m+1).
 *       It needs no barrier after the lower sweep: a member starts the upper sweep only after
 *       its downstream neighbour has finished both sweeps of that plane;
 *   <li>barrier (the sweeps read u in the neighbours' rows); u += rsd / (omega (2 - omega))
 *       on the member's rows, then the residual's first phases on them (rsd = -frct,
 *       rho_i, qs, x fluxes), which read only those rows;
 *   <li>barrier; the y fluxes, members owning blocks of planes; barrier; the z fluxes by rows.
 * </ol>
 * One fork/join and three barriers per step (the OpenMP version: two parallel regions, ssor's
 * and rhs's, with six barriers besides their joins), the barriers made of the
 * pipeline's counters rather than the team's barrier: a member's counter advances by
 * 2 (nz - 2) + 2 per step, planes and barriers together.
 *
 * <p>Boundary exchange (exch_qbc.f of LU-MZ): a zone gives its first and last <em>interior</em>
 * points (i = 1 and nx-2, j = 1 and ny-2) and receives into its boundary points (i = 0 and
 * nx-1, j = 0 and ny-1), interior j (or i) and k only, 5 components per point, m fastest,
 * then the face's first index, then k.
 */
public final class LuZone implements ZoneSolver {

    private final LuCoefficients coeff;
    private final int nx, ny, nz, nxmax;
    private final double[] u, rsd, frct, rho, qs;
    private final LuResidual residual;
    private final LuSweeps sweeps;
    private final Consumer<TeamContext> stepBody = this::memberStep;
    private final double updateFactor;
    private Scratch[] scratch = new Scratch[0];
    private SweepPipeline pipeline = new SweepPipeline(1);

    /** Per-member work arrays (rhs.f's threadprivate flux, utmp, rtmp; buts.f's tv row). */
    private record Scratch(double[] flux, double[] col, double[] acc, double[] tv) {
    }

    LuZone(LuCoefficients coeff, int nx, int ny, int nz) {
        if (nx < 5 || ny < 5 || nz < 5) {
            throw new IllegalArgumentException("LU-MZ zone of " + nx + " x " + ny + " x " + nz
                    + " points: LU needs at least 5 points in each direction");
        }
        this.coeff = Objects.requireNonNull(coeff, "coefficients");
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.nxmax = nx + 1 - nx % 2;
        long points = (long) nxmax * ny * nz;
        if (5 * points > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("LU-MZ zone of " + nx + " x " + ny + " x " + nz
                    + " points is too large for one Java array (" + 5 * points + " doubles)");
        }
        int n = (int) points;
        u = new double[5 * n];
        rsd = new double[5 * n];
        frct = new double[5 * n];
        rho = new double[n];
        qs = new double[n];
        residual = new LuResidual(coeff, nx, ny, nz, nxmax, u, rsd, frct, rho, qs);
        sweeps = new LuSweeps(coeff, nx, ny, nxmax, u, rsd, rho, qs);
        updateFactor = 1.0 / (coeff.omega * (2.0 - coeff.omega));
    }

    /** A zone of {@code problem} with its own point counts. */
    public LuZone(MzProblem problem, int nx, int ny, int nz) {
        this(new LuCoefficients(Objects.requireNonNull(problem, "problem")), nx, ny, nz);
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

    // ------------------------------------------------------------------ initial state

    /** setbv, setiv, erhs and rhs (lu.f's set-up, also its reset after the warm-up step). */
    @Override
    public void initialize() {
        setBoundaryValues();
        setInitialValues();
        computeForcing();
        Scratch s = newScratch();
        residual.computeSerial(s.flux, s.col, s.acc);
    }

    private int vec(int i, int j, int k) {
        return 5 * ((k * ny + j) * nxmax + i);
    }

    /** setbv.f: the exact solution on the six faces. */
    private void setBoundaryValues() {
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                coeff.exact(i, j, 0, nx, ny, nz, u, vec(i, j, 0));
                coeff.exact(i, j, nz - 1, nx, ny, nz, u, vec(i, j, nz - 1));
            }
        }
        for (int k = 0; k < nz; k++) {
            for (int i = 0; i < nx; i++) {
                coeff.exact(i, 0, k, nx, ny, nz, u, vec(i, 0, k));
                coeff.exact(i, ny - 1, k, nx, ny, nz, u, vec(i, ny - 1, k));
            }
        }
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                coeff.exact(0, j, k, nx, ny, nz, u, vec(0, j, k));
                coeff.exact(nx - 1, j, k, nx, ny, nz, u, vec(nx - 1, j, k));
            }
        }
    }

    /** setiv.f: interior values by transfinite (tri-linear) interpolation of the face values. */
    private void setInitialValues() {
        double[] e = new double[30];
        for (int k = 1; k < nz - 1; k++) {
            double zeta = (double) k / (nz - 1);
            for (int j = 1; j < ny - 1; j++) {
                double eta = (double) j / (ny - 1);
                for (int i = 1; i < nx - 1; i++) {
                    double xi = (double) i / (nx - 1);
                    coeff.exact(0, j, k, nx, ny, nz, e, 0);
                    coeff.exact(nx - 1, j, k, nx, ny, nz, e, 5);
                    coeff.exact(i, 0, k, nx, ny, nz, e, 10);
                    coeff.exact(i, ny - 1, k, nx, ny, nz, e, 15);
                    coeff.exact(i, j, 0, nx, ny, nz, e, 20);
                    coeff.exact(i, j, nz - 1, nx, ny, nz, e, 25);
                    int p = vec(i, j, k);
                    for (int m = 0; m < 5; m++) {
                        double pxi = (1.0 - xi) * e[m] + xi * e[5 + m];
                        double peta = (1.0 - eta) * e[10 + m] + eta * e[15 + m];
                        double pzeta = (1.0 - zeta) * e[20 + m] + zeta * e[25 + m];
                        u[p + m] = pxi + peta + pzeta - pxi * peta - peta * pzeta - pzeta * pxi + pxi * peta * pzeta;
                    }
                }
            }
        }
    }

    /** erhs.f: frct = L(exact solution), the residual operator with zero forcing applied to the exact solution. */
    private void computeForcing() {
        int n = rho.length;
        double[] exact = new double[5 * n];
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    coeff.exact(i, j, k, nx, ny, nz, exact, vec(i, j, k));
                }
            }
        }
        LuResidual forcing = new LuResidual(coeff, nx, ny, nz, nxmax,
                exact, frct, new double[5 * n], new double[n], new double[n]);
        Scratch s = newScratch();
        forcing.computeSerial(s.flux, s.col, s.acc);
    }

    private Scratch newScratch() {
        int len = LuResidual.scratchLength(nx, ny, nz);
        return new Scratch(new double[len], new double[len], new double[len], new double[5 * nx]);
    }

    // ------------------------------------------------------------------ one SSOR iteration

    @Override
    public void step(Team team) {
        Objects.requireNonNull(team, "team");
        int members = team.size();
        if (scratch.length < members) {
            Scratch[] grown = new Scratch[members];
            for (int m = 0; m < members; m++) {
                grown[m] = m < scratch.length ? scratch[m] : newScratch();
            }
            scratch = grown;
        }
        if (pipeline.members() != members || pipeline.aborted()) {
            pipeline = new SweepPipeline(members);
        }
        team.region(stepBody);
    }

    /** First index of member {@code id}'s static block of [lo, hi) among {@code size} members. */
    private static int block(int lo, int hi, int id, int size) {
        return lo + (int) ((long) (hi - lo) * id / size);
    }

    private void memberStep(TeamContext ctx) {
        try {
            ssor(ctx);
        } catch (RuntimeException | Error e) {
            pipeline.abort();
            throw e;
        }
    }

    private void ssor(TeamContext ctx) {
        final int id = ctx.id(), size = ctx.size();
        final int j0 = block(1, ny - 1, id, size), j1 = block(1, ny - 1, id + 1, size);
        final Scratch s = scratch[id];
        final SweepPipeline pl = size > 1 ? pipeline : null;
        final int planes = nz - 2;

        scaleByDt(j0, j1);

        long base = pl == null ? 0 : pl.finished(id);
        for (int p = 0; p < planes; p++) {
            if (pl != null && id > 0) {
                pl.await(id - 1, base + p + 1);
            }
            sweeps.lower(1 + p, j0, j1);
            if (pl != null) {
                pl.publish(id, base + p + 1);
            }
        }
        base += planes;
        for (int p = 0; p < planes; p++) {
            if (pl != null && id < size - 1) {
                pl.await(id + 1, base + p + 1);
            }
            sweeps.upper(nz - 2 - p, j0, j1, s.tv);
            if (pl != null) {
                pl.publish(id, base + p + 1);
            }
        }
        base += planes;
        if (pl != null) {
            pl.barrier(id, size, base);
        }

        update(j0, j1);
        residual.initRows(id == 0 ? 0 : j0, id == size - 1 ? ny : j1);
        residual.xFlux(j0, j1, s.flux);
        if (pl != null) {
            pl.barrier(id, size, base + 1);
        }
        residual.yFlux(block(1, nz - 1, id, size), block(1, nz - 1, id + 1, size), s.flux, s.col);
        if (pl != null) {
            pl.barrier(id, size, base + 2);
        }
        residual.zFlux(j0, j1, s.flux, s.col, s.acc);
    }

    /** ssor.f: rsd = dt * rsd at the interior points of rows [j0, j1). */
    private void scaleByDt(int j0, int j1) {
        final double dt = coeff.dt;
        for (int k = 1; k < nz - 1; k++) {
            for (int j = j0; j < j1; j++) {
                int p = vec(1, j, k), end = vec(nx - 1, j, k);
                for (; p < end; p++) {
                    rsd[p] = dt * rsd[p];
                }
            }
        }
    }

    /** ssor.f: u = u + rsd / (omega (2 - omega)) at the interior points of rows [j0, j1). */
    private void update(int j0, int j1) {
        final double tmp = updateFactor;
        for (int k = 1; k < nz - 1; k++) {
            for (int j = j0; j < j1; j++) {
                int p = vec(1, j, k), end = vec(nx - 1, j, k);
                for (; p < end; p++) {
                    u[p] = u[p] + tmp * rsd[p];
                }
            }
        }
    }

    // ------------------------------------------------------------------ boundary exchange

    @Override
    public int faceLength(Face face) {
        return ZoneFaces.length(face, nx, ny, nz);
    }

    @Override
    public void packFace(Face face, double[] buf, int off) {
        ZoneFaces.copy("LU-MZ", face, u, nx, ny, nz, nxmax, buf, off, true);
    }

    @Override
    public void unpackFace(Face face, double[] buf, int off) {
        ZoneFaces.copy("LU-MZ", face, u, nx, ny, nz, nxmax, buf, off, false);
    }

    // ------------------------------------------------------------------ verification

    /**
     * l2norm.f of rsd (5), error.f (5), pintgr.f (1): this zone's terms of verify.f's sums. Each
     * norm is the zone's own RMS (square root of the zone's mean square); lu.f adds these over
     * the rank's zones and MPI_Reduce(SUM)s them over ranks, so the verified quantity is a sum
     * of per-zone RMS values, not a global RMS. Computed serially, in the reference's
     * single-thread order, so the result does not depend on the team ({@code team} is unused).
     */
    @Override
    public double[] verificationNorms(Team team) {
        double[] norms = new double[11];
        double[] e = new double[5];
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                for (int i = 1; i < nx - 1; i++) {
                    int p = vec(i, j, k);
                    coeff.exact(i, j, k, nx, ny, nz, e, 0);
                    for (int m = 0; m < 5; m++) {
                        norms[m] += rsd[p + m] * rsd[p + m];
                        double d = e[m] - u[p + m];
                        norms[5 + m] += d * d;
                    }
                }
            }
        }
        double interior = (double) (nz - 2) * (double) (ny - 2) * (double) (nx - 2);
        for (int m = 0; m < 10; m++) {
            norms[m] = Math.sqrt(norms[m] / interior);
        }
        norms[10] = surfaceIntegral();
        return norms;
    }

    /** c2 (e - |m|^2 / 2 rho) at a point: the pressure term pintgr.f integrates. */
    private double pressure(int i, int j, int k) {
        int p = vec(i, j, k);
        double u2 = u[p + 1], u3 = u[p + 2], u4 = u[p + 3];
        return LuCoefficients.C2 * (u[p + 4] - 0.5 * (u2 * u2 + u3 * u3 + u4 * u4) / u[p]);
    }

    /**
     * pintgr.f of LU-MZ: a surface integral of the pressure over three pairs of planes of the
     * zone (k = 2 and nz-2; j = 1 and ny-3; i = 1 and nx-2, 0-based), by the trapezoid rule.
     */
    private double surfaceIntegral() {
        double frc1 = 0.0;
        for (int j = 1; j <= ny - 4; j++) {
            for (int i = 1; i <= nx - 3; i++) {
                frc1 = frc1 + (pressure(i, j, 2) + pressure(i + 1, j, 2) + pressure(i, j + 1, 2) + pressure(i + 1, j + 1, 2)
                        + pressure(i, j, nz - 2) + pressure(i + 1, j, nz - 2)
                        + pressure(i, j + 1, nz - 2) + pressure(i + 1, j + 1, nz - 2));
            }
        }
        double frc2 = 0.0;
        for (int k = 2; k <= nz - 3; k++) {
            for (int i = 1; i <= nx - 3; i++) {
                frc2 = frc2 + (pressure(i, 1, k) + pressure(i + 1, 1, k) + pressure(i, 1, k + 1) + pressure(i + 1, 1, k + 1)
                        + pressure(i, ny - 3, k) + pressure(i + 1, ny - 3, k)
                        + pressure(i, ny - 3, k + 1) + pressure(i + 1, ny - 3, k + 1));
            }
        }
        double frc3 = 0.0;
        for (int k = 2; k <= nz - 3; k++) {
            for (int j = 1; j <= ny - 4; j++) {
                frc3 = frc3 + (pressure(1, j, k) + pressure(1, j + 1, k) + pressure(1, j, k + 1) + pressure(1, j + 1, k + 1)
                        + pressure(nx - 2, j, k) + pressure(nx - 2, j + 1, k)
                        + pressure(nx - 2, j, k + 1) + pressure(nx - 2, j + 1, k + 1));
            }
        }
        double frc = 0.0;
        frc = frc + coeff.dxi * coeff.deta * frc1;
        frc = frc + coeff.dxi * coeff.dzeta * frc2;
        frc = frc + coeff.deta * coeff.dzeta * frc3;
        return 0.25 * frc;
    }

    /** Component m of the solution at 0-based point (i, j, k) (tests). */
    double solution(int m, int i, int j, int k) {
        return u[vec(i, j, k) + m];
    }

    @Override
    public String toString() {
        return "LuZone[" + nx + " x " + ny + " x " + nz + "]";
    }
}
