package dev.tessera.npbmz.lu;

import dev.tessera.npbmz.FlowConstants;
import dev.tessera.npbmz.MzProblem;

/**
 * The constants of the LU-MZ discretisation for one problem class, shared by all its zones:
 * mesh metrics, diffusion and dissipation coefficients, the gas constants c1..c5, the SSOR
 * time step and relaxation factor, and the coefficients of the manufactured exact solution.
 *
 * <p>Sources (NPB3.4-MZ, LU-MZ): setcoeff.f (metrics, diffusion, dissipation, the table ce);
 * lu_data.f (c1..c5, omega_default = 1.2); exact.f (the exact solution, a quartic in each
 * coordinate: the same polynomials and table ce as BT-MZ's and SP-MZ's, so it is
 * {@link FlowConstants#exactSolution}). The metrics use the <em>average</em> zone size of the class
 * (gx / x_zones - 1 intervals), not a zone's own size, exactly as setcoeff.f does; the exact
 * solution on the other hand is evaluated on a zone's own nx x ny x nz grid, so every zone
 * carries the same manufactured solution stretched over its points.
 */
final class LuCoefficients {

    // lu_data.f
    static final double C1 = 1.40;
    static final double C2 = 0.40;
    static final double C3 = 1.00e-01;
    static final double C4 = 1.00;
    static final double C5 = 1.40;
    static final double OMEGA_DEFAULT = 1.2;

    final double dt;
    final double omega;
    final double dxi, deta, dzeta;
    final double tx1, tx2, tx3;
    final double ty1, ty2, ty3;
    final double tz1, tz2, tz3;
    final double dx1, dx2, dx3, dx4, dx5;
    final double dy1, dy2, dy3, dy4, dy5;
    final double dz1, dz2, dz3, dz4, dz5;
    final double dssp;

    LuCoefficients(MzProblem p) {
        this(p, OMEGA_DEFAULT);
    }

    LuCoefficients(MzProblem p, double omega) {
        this.dt = p.dt();
        this.omega = omega;
        dxi = 1.0 / ((double) p.gx() / (double) p.xZones() - 1);
        deta = 1.0 / ((double) p.gy() / (double) p.yZones() - 1);
        dzeta = 1.0 / ((double) (p.gz() - 1));
        tx1 = 1.0 / (dxi * dxi);
        tx2 = 1.0 / (2.0 * dxi);
        tx3 = 1.0 / dxi;
        ty1 = 1.0 / (deta * deta);
        ty2 = 1.0 / (2.0 * deta);
        ty3 = 1.0 / deta;
        tz1 = 1.0 / (dzeta * dzeta);
        tz2 = 1.0 / (2.0 * dzeta);
        tz3 = 1.0 / dzeta;
        dx1 = dx2 = dx3 = dx4 = dx5 = 0.75;
        dy1 = dy2 = dy3 = dy4 = dy5 = 0.75;
        dz1 = dz2 = dz3 = dz4 = dz5 = 1.00;
        dssp = Math.max(Math.max(dx1, dy1), dz1) / 4.0;
    }

    /**
     * The exact solution at 0-based point (i, j, k) of a zone of nx x ny x nz points, written
     * into out[off .. off+5). exact.f's (i, j, k) are 1-based, hence xi = i / (nx - 1) here.
     */
    void exact(int i, int j, int k, int nx, int ny, int nz, double[] out, int off) {
        double xi = (double) i / (nx - 1);
        double eta = (double) j / (ny - 1);
        double zeta = (double) k / (nz - 1);
        FlowConstants.exactSolution(xi, eta, zeta, out, off);
    }
}
