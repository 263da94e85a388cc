package dev.tessera.npbmz.lu;

import static dev.tessera.npbmz.lu.LuCoefficients.C1;
import static dev.tessera.npbmz.lu.LuCoefficients.C2;
import static dev.tessera.npbmz.lu.LuCoefficients.C3;
import static dev.tessera.npbmz.lu.LuCoefficients.C4;
import static dev.tessera.npbmz.lu.LuCoefficients.C5;

/**
 * The steady-state residual of one zone, rsd = L(u) - frct, where L is LU's discrete
 * operator: central differences of the inviscid fluxes, the viscous fluxes, and fourth-order
 * dissipation, in x (xi), y (eta) and z (zeta) (reference: rhs.f of NPB3.4-MZ LU-MZ).
 *
 * <p>The work comes in four phases so a team can share it the way rhs.f's OpenMP loops do:
 * {@link #initRows} (rsd = -frct, rho_i = 1/u1, qs = |m|^2 / 2 u1, every point of a set of
 * j rows), {@link #xFlux} (the x terms of a set of interior j rows; reads only those rows),
 * {@link #yFlux} (the y terms of a set of interior k planes; reads every row of them) and
 * {@link #zFlux} (the z terms of a set of interior j rows; reads every plane). Phases that
 * read what another member wrote need a barrier in between: init and x may share rows
 * without one, y needs all of init, z needs all of y. Within a phase the updates of rsd
 * happen in rhs.f's order, so each point sees the same sequence of floating-point
 * operations as the reference.
 *
 * <p>Arrays are those of {@link LuZone}: 5 components per point, point (i, j, k) at
 * 5 * ((k * ny + j) * nxmax + i); scalars rho_i and qs at (k * ny + j) * nxmax + i. The
 * scratch arrays belong to the calling member (flux 5 x n, col 6 x n, acc 5 x n with
 * n = max(nx, ny, nz)), like rhs.f's threadprivate flux, utmp and rtmp.
 *
 * <p>The same operator with a zero forcing, applied to the exact solution, gives the forcing
 * term (erhs.f). erhs.f divides by rho where rhs.f multiplies by 1/rho in the convective
 * fluxes; using rhs.f's form for both changes frct in the last bit only.
 */
final class LuResidual {

    private final int nx, ny, nz, nxmax;
    private final double[] u, rsd, frct, rho, qs;

    // Constant prefixes of rhs.f's products (left-associative, so hoisting them is exact).
    private final double tx2, ty2, tz2, dssp;
    private final double r43tx3, r43ty3, r43tz3;
    private final double vx3, vy3, vz3;          // 0.5 * (1 - c1 c5) * t3
    private final double sx3, sy3, sz3;          // (1/6) * t3
    private final double cx3, cy3, cz3;          // c1 c5 * t3
    private final double tx3, ty3, tz3;
    private final double txc, tyc, tzc;          // t3 * c3 * c4
    private final double dx1t, dx2t, dx3t, dx4t, dx5t;
    private final double dy1t, dy2t, dy3t, dy4t, dy5t;
    private final double dz1t, dz2t, dz3t, dz4t, dz5t;

    LuResidual(LuCoefficients c, int nx, int ny, int nz, int nxmax,
               double[] u, double[] rsd, double[] frct, double[] rho, double[] qs) {
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.nxmax = nxmax;
        this.u = u;
        this.rsd = rsd;
        this.frct = frct;
        this.rho = rho;
        this.qs = qs;
        tx2 = c.tx2;
        ty2 = c.ty2;
        tz2 = c.tz2;
        tx3 = c.tx3;
        ty3 = c.ty3;
        tz3 = c.tz3;
        dssp = c.dssp;
        r43tx3 = (4.0 / 3.0) * c.tx3;
        r43ty3 = (4.0 / 3.0) * c.ty3;
        r43tz3 = (4.0 / 3.0) * c.tz3;
        vx3 = 0.50 * (1.0 - C1 * C5) * c.tx3;
        vy3 = 0.50 * (1.0 - C1 * C5) * c.ty3;
        vz3 = 0.50 * (1.0 - C1 * C5) * c.tz3;
        sx3 = (1.0 / 6.0) * c.tx3;
        sy3 = (1.0 / 6.0) * c.ty3;
        sz3 = (1.0 / 6.0) * c.tz3;
        cx3 = C1 * C5 * c.tx3;
        cy3 = C1 * C5 * c.ty3;
        cz3 = C1 * C5 * c.tz3;
        txc = c.tx3 * C3 * C4;
        tyc = c.ty3 * C3 * C4;
        tzc = c.tz3 * C3 * C4;
        dx1t = c.dx1 * c.tx1;
        dx2t = c.dx2 * c.tx1;
        dx3t = c.dx3 * c.tx1;
        dx4t = c.dx4 * c.tx1;
        dx5t = c.dx5 * c.tx1;
        dy1t = c.dy1 * c.ty1;
        dy2t = c.dy2 * c.ty1;
        dy3t = c.dy3 * c.ty1;
        dy4t = c.dy4 * c.ty1;
        dy5t = c.dy5 * c.ty1;
        dz1t = c.dz1 * c.tz1;
        dz2t = c.dz2 * c.tz1;
        dz3t = c.dz3 * c.tz1;
        dz4t = c.dz4 * c.tz1;
        dz5t = c.dz5 * c.tz1;
    }

    /** Scratch length each member needs per array: 6 values per point of the longest line. */
    static int scratchLength(int nx, int ny, int nz) {
        return 6 * Math.max(nx, Math.max(ny, nz));
    }

    /** The whole residual on the calling thread (initialisation, tests). */
    void computeSerial(double[] flux, double[] col, double[] acc) {
        initRows(0, ny);
        xFlux(1, ny - 1, flux);
        yFlux(1, nz - 1, flux, col);
        zFlux(1, ny - 1, flux, col, acc);
    }

    /** rsd = -frct, rho_i and qs at every point of rows [j0, j1), all planes. */
    void initRows(int j0, int j1) {
        for (int k = 0; k < nz; k++) {
            for (int j = j0; j < j1; j++) {
                int s = (k * ny + j) * nxmax;
                int p = 5 * s;
                for (int i = 0; i < nx; i++, s++, p += 5) {
                    rsd[p] = -frct[p];
                    rsd[p + 1] = -frct[p + 1];
                    rsd[p + 2] = -frct[p + 2];
                    rsd[p + 3] = -frct[p + 3];
                    rsd[p + 4] = -frct[p + 4];
                    double tmp = 1.0 / u[p];
                    rho[s] = tmp;
                    double u2 = u[p + 1], u3 = u[p + 2], u4 = u[p + 3];
                    qs[s] = 0.50 * (u2 * u2 + u3 * u3 + u4 * u4) * tmp;
                }
            }
        }
    }

    /** The x (xi) terms of rows [j0, j1) clipped to the interior rows, every interior plane. */
    void xFlux(int j0, int j1, double[] flux) {
        int jLo = Math.max(j0, 1), jHi = Math.min(j1, ny - 1);
        for (int k = 1; k < nz - 1; k++) {
            for (int j = jLo; j < jHi; j++) {
                xRow((k * ny + j) * nxmax, flux);
            }
        }
    }

    private void xRow(int s0, double[] flux) {
        final double[] u = this.u, rsd = this.rsd, rho = this.rho, qs = this.qs;
        final int p0 = 5 * s0;
        for (int i = 0; i < nx; i++) {
            int p = p0 + 5 * i;
            double u2 = u[p + 1], u5 = u[p + 4];
            double u21 = u2 * rho[s0 + i];
            double q = qs[s0 + i];
            int f = 5 * i;
            flux[f] = u2;
            flux[f + 1] = u2 * u21 + C2 * (u5 - q);
            flux[f + 2] = u[p + 2] * u21;
            flux[f + 3] = u[p + 3] * u21;
            flux[f + 4] = (C1 * u5 - C2 * q) * u21;
        }
        for (int i = 1; i < nx - 1; i++) {
            int p = p0 + 5 * i, f = 5 * i;
            for (int m = 0; m < 5; m++) {
                rsd[p + m] = rsd[p + m] - tx2 * (flux[f + 5 + m] - flux[f - 5 + m]);
            }
        }
        for (int i = 1; i < nx; i++) {
            int p = p0 + 5 * i;
            double tmp = rho[s0 + i];
            double u21i = tmp * u[p + 1], u31i = tmp * u[p + 2], u41i = tmp * u[p + 3], u51i = tmp * u[p + 4];
            tmp = rho[s0 + i - 1];
            double u21im1 = tmp * u[p - 4], u31im1 = tmp * u[p - 3], u41im1 = tmp * u[p - 2], u51im1 = tmp * u[p - 1];
            int f = 5 * i;
            flux[f + 1] = r43tx3 * (u21i - u21im1);
            flux[f + 2] = tx3 * (u31i - u31im1);
            flux[f + 3] = tx3 * (u41i - u41im1);
            flux[f + 4] = vx3 * ((u21i * u21i + u31i * u31i + u41i * u41i)
                    - (u21im1 * u21im1 + u31im1 * u31im1 + u41im1 * u41im1))
                    + sx3 * (u21i * u21i - u21im1 * u21im1)
                    + cx3 * (u51i - u51im1);
        }
        for (int i = 1; i < nx - 1; i++) {
            int p = p0 + 5 * i, f = 5 * i;
            rsd[p] = rsd[p] + dx1t * (u[p - 5] - 2.0 * u[p] + u[p + 5]);
            rsd[p + 1] = rsd[p + 1] + txc * (flux[f + 6] - flux[f + 1]) + dx2t * (u[p - 4] - 2.0 * u[p + 1] + u[p + 6]);
            rsd[p + 2] = rsd[p + 2] + txc * (flux[f + 7] - flux[f + 2]) + dx3t * (u[p - 3] - 2.0 * u[p + 2] + u[p + 7]);
            rsd[p + 3] = rsd[p + 3] + txc * (flux[f + 8] - flux[f + 3]) + dx4t * (u[p - 2] - 2.0 * u[p + 3] + u[p + 8]);
            rsd[p + 4] = rsd[p + 4] + txc * (flux[f + 9] - flux[f + 4]) + dx5t * (u[p - 1] - 2.0 * u[p + 4] + u[p + 9]);
        }
        dissipate(u, p0, 5, nx, rsd, p0, 5);
    }

    /**
     * Fourth-order dissipation along one line of n points: the line's values start at
     * src[s0] with stride ss, the residual it updates at dst[d0] with stride ds (5 components
     * each). One-sided stencils at the two points next to each end, as rhs.f.
     */
    private void dissipate(double[] src, int s0, int ss, int n, double[] dst, int d0, int ds) {
        final double dssp = this.dssp;
        for (int m = 0; m < 5; m++) {
            int a = s0 + m;
            int d = d0 + m;
            double v1 = src[a + ss], v2 = src[a + 2 * ss], v3 = src[a + 3 * ss], v4 = src[a + 4 * ss];
            dst[d + ds] = dst[d + ds] - dssp * (+5.0 * v1 - 4.0 * v2 + v3);
            dst[d + 2 * ds] = dst[d + 2 * ds] - dssp * (-4.0 * v1 + 6.0 * v2 - 4.0 * v3 + v4);
        }
        for (int i = 3; i < n - 3; i++) {
            int a = s0 + i * ss;
            int d = d0 + i * ds;
            for (int m = 0; m < 5; m++) {
                dst[d + m] = dst[d + m] - dssp * (src[a + m - 2 * ss] - 4.0 * src[a + m - ss]
                        + 6.0 * src[a + m] - 4.0 * src[a + m + ss] + src[a + m + 2 * ss]);
            }
        }
        for (int m = 0; m < 5; m++) {
            int a = s0 + m;
            int d = d0 + m;
            double w5 = src[a + (n - 5) * ss], w4 = src[a + (n - 4) * ss], w3 = src[a + (n - 3) * ss], w2 = src[a + (n - 2) * ss];
            dst[d + (n - 3) * ds] = dst[d + (n - 3) * ds] - dssp * (w5 - 4.0 * w4 + 6.0 * w3 - 4.0 * w2);
            dst[d + (n - 2) * ds] = dst[d + (n - 2) * ds] - dssp * (w4 - 4.0 * w3 + 5.0 * w2);
        }
    }

    /** The y (eta) terms of planes [k0, k1) clipped to the interior planes. */
    void yFlux(int k0, int k1, double[] flux, double[] col) {
        int kLo = Math.max(k0, 1), kHi = Math.min(k1, nz - 1);
        final double[] u = this.u, rsd = this.rsd, rho = this.rho, qs = this.qs;
        final int sj = nxmax, pj = 5 * nxmax;
        for (int k = kLo; k < kHi; k++) {
            for (int i = 1; i < nx - 1; i++) {
                int s0 = k * ny * nxmax + i;
                int p0 = 5 * s0;
                // col: u1..u5 and rho of every point of the line, 6 per point
                for (int j = 0; j < ny; j++) {
                    int p = p0 + j * pj, c = 6 * j;
                    col[c] = u[p];
                    col[c + 1] = u[p + 1];
                    col[c + 2] = u[p + 2];
                    col[c + 3] = u[p + 3];
                    col[c + 4] = u[p + 4];
                    col[c + 5] = rho[s0 + j * sj];
                }
                for (int j = 0; j < ny; j++) {
                    int c = 6 * j, f = 5 * j;
                    double u3 = col[c + 2], u5 = col[c + 4];
                    double u31 = u3 * col[c + 5];
                    double q = qs[s0 + j * sj];
                    flux[f] = u3;
                    flux[f + 1] = col[c + 1] * u31;
                    flux[f + 2] = u3 * u31 + C2 * (u5 - q);
                    flux[f + 3] = col[c + 3] * u31;
                    flux[f + 4] = (C1 * u5 - C2 * q) * u31;
                }
                for (int j = 1; j < ny - 1; j++) {
                    int p = p0 + j * pj, f = 5 * j;
                    for (int m = 0; m < 5; m++) {
                        rsd[p + m] = rsd[p + m] - ty2 * (flux[f + 5 + m] - flux[f - 5 + m]);
                    }
                }
                for (int j = 1; j < ny; j++) {
                    int c = 6 * j;
                    double tmp = col[c + 5];
                    double u21j = tmp * col[c + 1], u31j = tmp * col[c + 2], u41j = tmp * col[c + 3], u51j = tmp * col[c + 4];
                    tmp = col[c - 1];
                    double u21jm1 = tmp * col[c - 5], u31jm1 = tmp * col[c - 4], u41jm1 = tmp * col[c - 3], u51jm1 = tmp * col[c - 2];
                    int f = 5 * j;
                    flux[f + 1] = ty3 * (u21j - u21jm1);
                    flux[f + 2] = r43ty3 * (u31j - u31jm1);
                    flux[f + 3] = ty3 * (u41j - u41jm1);
                    flux[f + 4] = vy3 * ((u21j * u21j + u31j * u31j + u41j * u41j)
                            - (u21jm1 * u21jm1 + u31jm1 * u31jm1 + u41jm1 * u41jm1))
                            + sy3 * (u31j * u31j - u31jm1 * u31jm1)
                            + cy3 * (u51j - u51jm1);
                }
                for (int j = 1; j < ny - 1; j++) {
                    int p = p0 + j * pj, f = 5 * j, c = 6 * j;
                    rsd[p] = rsd[p] + dy1t * (col[c - 6] - 2.0 * col[c] + col[c + 6]);
                    rsd[p + 1] = rsd[p + 1] + tyc * (flux[f + 6] - flux[f + 1]) + dy2t * (col[c - 5] - 2.0 * col[c + 1] + col[c + 7]);
                    rsd[p + 2] = rsd[p + 2] + tyc * (flux[f + 7] - flux[f + 2]) + dy3t * (col[c - 4] - 2.0 * col[c + 2] + col[c + 8]);
                    rsd[p + 3] = rsd[p + 3] + tyc * (flux[f + 8] - flux[f + 3]) + dy4t * (col[c - 3] - 2.0 * col[c + 3] + col[c + 9]);
                    rsd[p + 4] = rsd[p + 4] + tyc * (flux[f + 9] - flux[f + 4]) + dy5t * (col[c - 2] - 2.0 * col[c + 4] + col[c + 10]);
                }
                dissipate(col, 0, 6, ny, rsd, p0, pj);
            }
        }
    }

    /**
     * The z (zeta) terms of rows [j0, j1) clipped to the interior rows. The line's residual is
     * accumulated in {@code acc} and written back once, as rhs.f does with rtmp.
     */
    void zFlux(int j0, int j1, double[] flux, double[] col, double[] acc) {
        int jLo = Math.max(j0, 1), jHi = Math.min(j1, ny - 1);
        final double[] u = this.u, rsd = this.rsd, rho = this.rho, qs = this.qs;
        final int sk = nxmax * ny, pk = 5 * sk;
        for (int j = jLo; j < jHi; j++) {
            for (int i = 1; i < nx - 1; i++) {
                int s0 = j * nxmax + i;
                int p0 = 5 * s0;
                for (int k = 0; k < nz; k++) {
                    int p = p0 + k * pk, c = 6 * k;
                    col[c] = u[p];
                    col[c + 1] = u[p + 1];
                    col[c + 2] = u[p + 2];
                    col[c + 3] = u[p + 3];
                    col[c + 4] = u[p + 4];
                    col[c + 5] = rho[s0 + k * sk];
                }
                for (int k = 0; k < nz; k++) {
                    int c = 6 * k, f = 5 * k;
                    double u4 = col[c + 3], u5 = col[c + 4];
                    double u41 = u4 * col[c + 5];
                    double q = qs[s0 + k * sk];
                    flux[f] = u4;
                    flux[f + 1] = col[c + 1] * u41;
                    flux[f + 2] = col[c + 2] * u41;
                    flux[f + 3] = u4 * u41 + C2 * (u5 - q);
                    flux[f + 4] = (C1 * u5 - C2 * q) * u41;
                }
                for (int k = 1; k < nz - 1; k++) {
                    int p = p0 + k * pk, f = 5 * k;
                    for (int m = 0; m < 5; m++) {
                        acc[f + m] = rsd[p + m] - tz2 * (flux[f + 5 + m] - flux[f - 5 + m]);
                    }
                }
                for (int k = 1; k < nz; k++) {
                    int c = 6 * k;
                    double tmp = col[c + 5];
                    double u21k = tmp * col[c + 1], u31k = tmp * col[c + 2], u41k = tmp * col[c + 3], u51k = tmp * col[c + 4];
                    tmp = col[c - 1];
                    double u21km1 = tmp * col[c - 5], u31km1 = tmp * col[c - 4], u41km1 = tmp * col[c - 3], u51km1 = tmp * col[c - 2];
                    int f = 5 * k;
                    flux[f + 1] = tz3 * (u21k - u21km1);
                    flux[f + 2] = tz3 * (u31k - u31km1);
                    flux[f + 3] = r43tz3 * (u41k - u41km1);
                    flux[f + 4] = vz3 * ((u21k * u21k + u31k * u31k + u41k * u41k)
                            - (u21km1 * u21km1 + u31km1 * u31km1 + u41km1 * u41km1))
                            + sz3 * (u41k * u41k - u41km1 * u41km1)
                            + cz3 * (u51k - u51km1);
                }
                for (int k = 1; k < nz - 1; k++) {
                    int f = 5 * k, c = 6 * k;
                    acc[f] = acc[f] + dz1t * (col[c - 6] - 2.0 * col[c] + col[c + 6]);
                    acc[f + 1] = acc[f + 1] + tzc * (flux[f + 6] - flux[f + 1]) + dz2t * (col[c - 5] - 2.0 * col[c + 1] + col[c + 7]);
                    acc[f + 2] = acc[f + 2] + tzc * (flux[f + 7] - flux[f + 2]) + dz3t * (col[c - 4] - 2.0 * col[c + 2] + col[c + 8]);
                    acc[f + 3] = acc[f + 3] + tzc * (flux[f + 8] - flux[f + 3]) + dz4t * (col[c - 3] - 2.0 * col[c + 3] + col[c + 9]);
                    acc[f + 4] = acc[f + 4] + tzc * (flux[f + 9] - flux[f + 4]) + dz5t * (col[c - 2] - 2.0 * col[c + 4] + col[c + 10]);
                }
                dissipate(col, 0, 6, nz, acc, 0, 5);
                for (int k = 1; k < nz - 1; k++) {
                    int p = p0 + k * pk, f = 5 * k;
                    rsd[p] = acc[f];
                    rsd[p + 1] = acc[f + 1];
                    rsd[p + 2] = acc[f + 2];
                    rsd[p + 3] = acc[f + 3];
                    rsd[p + 4] = acc[f + 4];
                }
            }
        }
    }
}
