package dev.tessera.npbmz.sp;

/**
 * The right-hand side of one SP step: the reference's compute_rhs
 * (NPB3.4-MZ-MPI/SP-MZ/rhs.f) and txinvr (txinvr.f), cut into the two pieces the step's
 * threads run between barriers.
 *
 * <p>{@link #pointValues} computes, for a range of (j, k) lines including the boundary lines,
 * the reciprocal density, velocities, kinetic energy and speed of sound of every point, and
 * copies the forcing into rhs. {@link #line} then computes the fluxes of one interior (j, k)
 * line in x, y and z with their fourth-order dissipation, scales by dt and, for a step,
 * applies txinvr. It reads u and the point values of the neighbouring lines (written by other
 * threads before the barrier) and writes only its own line of rhs, so a thread can run it and
 * then the x solve of the same line with no barrier in between. The terms are added to each
 * element in the reference's order.
 */
final class SpRhs {

    private SpRhs() {
    }

    /** Point values and rhs = forcing for the lines {@code lo <= j + k * ny < hi}, boundary lines included. */
    static void pointValues(SpZone z, int lo, int hi) {
        double[] u = z.u;
        double[] rhs = z.rhs;
        double[] forcing = z.forcing;
        double[] rhoI = z.rhoI;
        double[] us = z.us;
        double[] vs = z.vs;
        double[] ws = z.ws;
        double[] square = z.square;
        double[] qs = z.qs;
        double[] speed = z.speed;
        double c1c2 = z.c.c1c2;
        int nx = z.nx;
        for (int jk = lo; jk < hi; jk++) {
            int p0 = jk * z.nxmax;
            for (int p = p0, end = p0 + nx; p < end; p++) {
                int q = 5 * p;
                double u1 = u[q];
                double u2 = u[q + 1];
                double u3 = u[q + 2];
                double u4 = u[q + 3];
                double u5 = u[q + 4];
                double rhoInv = 1.0 / u1;
                rhoI[p] = rhoInv;
                us[p] = u2 * rhoInv;
                vs[p] = u3 * rhoInv;
                ws[p] = u4 * rhoInv;
                double sq = 0.5 * (u2 * u2 + u3 * u3 + u4 * u4) * rhoInv;
                square[p] = sq;
                qs[p] = sq * rhoInv;
                speed[p] = Math.sqrt(c1c2 * rhoInv * (u5 - sq));
            }
            System.arraycopy(forcing, 5 * p0, rhs, 5 * p0, 5 * nx);
        }
    }

    /** The fluxes of the interior line (j, k), scaled by dt, then txinvr if {@code transform}. */
    static void line(SpZone z, int j, int k, boolean transform) {
        SpConstants c = z.c;
        int nx = z.nx;
        int ny = z.ny;
        int nz = z.nz;
        int p0 = (k * ny + j) * z.nxmax;
        int q0 = 5 * p0;
        double[] u = z.u;
        double[] rhs = z.rhs;
        double[] us = z.us;
        double[] vs = z.vs;
        double[] ws = z.ws;
        double[] sq = z.square;
        double[] qs = z.qs;
        double[] rho = z.rhoI;
        double c1 = c.c1;
        double c2 = c.c2;
        double dssp = c.dssp;

        // xi-direction fluxes
        {
            double tx2 = c.tx2;
            double dx1tx1 = c.dx1tx1;
            double dx2tx1 = c.dx2tx1;
            double dx3tx1 = c.dx3tx1;
            double dx4tx1 = c.dx4tx1;
            double dx5tx1 = c.dx5tx1;
            double xxcon2 = c.xxcon2;
            double xxcon2con43 = c.xxcon2 * c.con43;
            double xxcon3 = c.xxcon3;
            double xxcon4 = c.xxcon4;
            double xxcon5 = c.xxcon5;
            for (int p = p0 + 1, end = p0 + nx - 1; p < end; p++) {
                int q = 5 * p;
                double uijk = us[p];
                double up1 = us[p + 1];
                double um1 = us[p - 1];
                rhs[q] = rhs[q] + dx1tx1 * (u[q + 5] - 2.0 * u[q] + u[q - 5]) - tx2 * (u[q + 6] - u[q - 4]);
                rhs[q + 1] = rhs[q + 1] + dx2tx1 * (u[q + 6] - 2.0 * u[q + 1] + u[q - 4])
                        + xxcon2con43 * (up1 - 2.0 * uijk + um1)
                        - tx2 * (u[q + 6] * up1 - u[q - 4] * um1 + (u[q + 9] - sq[p + 1] - u[q - 1] + sq[p - 1]) * c2);
                rhs[q + 2] = rhs[q + 2] + dx3tx1 * (u[q + 7] - 2.0 * u[q + 2] + u[q - 3])
                        + xxcon2 * (vs[p + 1] - 2.0 * vs[p] + vs[p - 1])
                        - tx2 * (u[q + 7] * up1 - u[q - 3] * um1);
                rhs[q + 3] = rhs[q + 3] + dx4tx1 * (u[q + 8] - 2.0 * u[q + 3] + u[q - 2])
                        + xxcon2 * (ws[p + 1] - 2.0 * ws[p] + ws[p - 1])
                        - tx2 * (u[q + 8] * up1 - u[q - 2] * um1);
                rhs[q + 4] = rhs[q + 4] + dx5tx1 * (u[q + 9] - 2.0 * u[q + 4] + u[q - 1])
                        + xxcon3 * (qs[p + 1] - 2.0 * qs[p] + qs[p - 1])
                        + xxcon4 * (up1 * up1 - 2.0 * uijk * uijk + um1 * um1)
                        + xxcon5 * (u[q + 9] * rho[p + 1] - 2.0 * u[q + 4] * rho[p] + u[q - 1] * rho[p - 1])
                        - tx2 * ((c1 * u[q + 9] - c2 * sq[p + 1]) * up1 - (c1 * u[q - 1] - c2 * sq[p - 1]) * um1);
            }
            // fourth-order dissipation along the line
            int q = q0 + 5;
            for (int m = 0; m < 5; m++) {
                rhs[q + m] = rhs[q + m] - dssp * (5.0 * u[q + m] - 4.0 * u[q + 5 + m] + u[q + 10 + m]);
            }
            q = q0 + 10;
            for (int m = 0; m < 5; m++) {
                rhs[q + m] = rhs[q + m] - dssp * (-4.0 * u[q - 5 + m] + 6.0 * u[q + m] - 4.0 * u[q + 5 + m] + u[q + 10 + m]);
            }
            for (int x = q0 + 15, end = q0 + 5 * (nx - 3); x < end; x++) {
                rhs[x] = rhs[x] - dssp * (u[x - 10] - 4.0 * u[x - 5] + 6.0 * u[x] - 4.0 * u[x + 5] + u[x + 10]);
            }
            q = q0 + 5 * (nx - 3);
            for (int m = 0; m < 5; m++) {
                rhs[q + m] = rhs[q + m] - dssp * (u[q - 10 + m] - 4.0 * u[q - 5 + m] + 6.0 * u[q + m] - 4.0 * u[q + 5 + m]);
            }
            q = q0 + 5 * (nx - 2);
            for (int m = 0; m < 5; m++) {
                rhs[q + m] = rhs[q + m] - dssp * (u[q - 10 + m] - 4.0 * u[q - 5 + m] + 5.0 * u[q + m]);
            }
        }

        // eta-direction fluxes
        {
            int d = z.nxmax;
            int e = 5 * d;
            double ty2 = c.ty2;
            double dy1ty1 = c.dy1ty1;
            double dy2ty1 = c.dy2ty1;
            double dy3ty1 = c.dy3ty1;
            double dy4ty1 = c.dy4ty1;
            double dy5ty1 = c.dy5ty1;
            double yycon2 = c.yycon2;
            double yycon2con43 = c.yycon2 * c.con43;
            double yycon3 = c.yycon3;
            double yycon4 = c.yycon4;
            double yycon5 = c.yycon5;
            for (int p = p0 + 1, end = p0 + nx - 1; p < end; p++) {
                int q = 5 * p;
                double vijk = vs[p];
                double vp1 = vs[p + d];
                double vm1 = vs[p - d];
                rhs[q] = rhs[q] + dy1ty1 * (u[q + e] - 2.0 * u[q] + u[q - e]) - ty2 * (u[q + e + 2] - u[q - e + 2]);
                rhs[q + 1] = rhs[q + 1] + dy2ty1 * (u[q + e + 1] - 2.0 * u[q + 1] + u[q - e + 1])
                        + yycon2 * (us[p + d] - 2.0 * us[p] + us[p - d])
                        - ty2 * (u[q + e + 1] * vp1 - u[q - e + 1] * vm1);
                rhs[q + 2] = rhs[q + 2] + dy3ty1 * (u[q + e + 2] - 2.0 * u[q + 2] + u[q - e + 2])
                        + yycon2con43 * (vp1 - 2.0 * vijk + vm1)
                        - ty2 * (u[q + e + 2] * vp1 - u[q - e + 2] * vm1
                                + (u[q + e + 4] - sq[p + d] - u[q - e + 4] + sq[p - d]) * c2);
                rhs[q + 3] = rhs[q + 3] + dy4ty1 * (u[q + e + 3] - 2.0 * u[q + 3] + u[q - e + 3])
                        + yycon2 * (ws[p + d] - 2.0 * ws[p] + ws[p - d])
                        - ty2 * (u[q + e + 3] * vp1 - u[q - e + 3] * vm1);
                rhs[q + 4] = rhs[q + 4] + dy5ty1 * (u[q + e + 4] - 2.0 * u[q + 4] + u[q - e + 4])
                        + yycon3 * (qs[p + d] - 2.0 * qs[p] + qs[p - d])
                        + yycon4 * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1)
                        + yycon5 * (u[q + e + 4] * rho[p + d] - 2.0 * u[q + 4] * rho[p] + u[q - e + 4] * rho[p - d])
                        - ty2 * ((c1 * u[q + e + 4] - c2 * sq[p + d]) * vp1 - (c1 * u[q - e + 4] - c2 * sq[p - d]) * vm1);
            }
            dissipateAcross(rhs, u, q0 + 5, q0 + 5 * (nx - 1), e, j, ny, dssp);
        }

        // zeta-direction fluxes
        {
            int d = z.nxmax * ny;
            int e = 5 * d;
            double tz2 = c.tz2;
            double dz1tz1 = c.dz1tz1;
            double dz2tz1 = c.dz2tz1;
            double dz3tz1 = c.dz3tz1;
            double dz4tz1 = c.dz4tz1;
            double dz5tz1 = c.dz5tz1;
            double zzcon2 = c.zzcon2;
            double zzcon2con43 = c.zzcon2 * c.con43;
            double zzcon3 = c.zzcon3;
            double zzcon4 = c.zzcon4;
            double zzcon5 = c.zzcon5;
            for (int p = p0 + 1, end = p0 + nx - 1; p < end; p++) {
                int q = 5 * p;
                double wijk = ws[p];
                double wp1 = ws[p + d];
                double wm1 = ws[p - d];
                rhs[q] = rhs[q] + dz1tz1 * (u[q + e] - 2.0 * u[q] + u[q - e]) - tz2 * (u[q + e + 3] - u[q - e + 3]);
                rhs[q + 1] = rhs[q + 1] + dz2tz1 * (u[q + e + 1] - 2.0 * u[q + 1] + u[q - e + 1])
                        + zzcon2 * (us[p + d] - 2.0 * us[p] + us[p - d])
                        - tz2 * (u[q + e + 1] * wp1 - u[q - e + 1] * wm1);
                rhs[q + 2] = rhs[q + 2] + dz3tz1 * (u[q + e + 2] - 2.0 * u[q + 2] + u[q - e + 2])
                        + zzcon2 * (vs[p + d] - 2.0 * vs[p] + vs[p - d])
                        - tz2 * (u[q + e + 2] * wp1 - u[q - e + 2] * wm1);
                rhs[q + 3] = rhs[q + 3] + dz4tz1 * (u[q + e + 3] - 2.0 * u[q + 3] + u[q - e + 3])
                        + zzcon2con43 * (wp1 - 2.0 * wijk + wm1)
                        - tz2 * (u[q + e + 3] * wp1 - u[q - e + 3] * wm1
                                + (u[q + e + 4] - sq[p + d] - u[q - e + 4] + sq[p - d]) * c2);
                rhs[q + 4] = rhs[q + 4] + dz5tz1 * (u[q + e + 4] - 2.0 * u[q + 4] + u[q - e + 4])
                        + zzcon3 * (qs[p + d] - 2.0 * qs[p] + qs[p - d])
                        + zzcon4 * (wp1 * wp1 - 2.0 * wijk * wijk + wm1 * wm1)
                        + zzcon5 * (u[q + e + 4] * rho[p + d] - 2.0 * u[q + 4] * rho[p] + u[q - e + 4] * rho[p - d])
                        - tz2 * ((c1 * u[q + e + 4] - c2 * sq[p + d]) * wp1 - (c1 * u[q - e + 4] - c2 * sq[p - d]) * wm1);
            }
            dissipateAcross(rhs, u, q0 + 5, q0 + 5 * (nx - 1), e, k, nz, dssp);
        }

        double dt = c.dt;
        for (int x = q0 + 5, end = q0 + 5 * (nx - 1); x < end; x++) {
            rhs[x] = rhs[x] * dt;
        }
        if (transform) {
            txinvr(z, p0);
        }
    }

    /**
     * Fourth-order dissipation across the line, in a direction where the line sits at position
     * {@code pos} of {@code n}: elements {@code [lo, hi)} of rhs, neighbours {@code e} apart.
     */
    private static void dissipateAcross(double[] rhs, double[] u, int lo, int hi, int e, int pos, int n, double dssp) {
        if (pos == 1) {
            for (int x = lo; x < hi; x++) {
                rhs[x] = rhs[x] - dssp * (5.0 * u[x] - 4.0 * u[x + e] + u[x + 2 * e]);
            }
        } else if (pos == 2) {
            for (int x = lo; x < hi; x++) {
                rhs[x] = rhs[x] - dssp * (-4.0 * u[x - e] + 6.0 * u[x] - 4.0 * u[x + e] + u[x + 2 * e]);
            }
        } else if (pos == n - 3) {
            for (int x = lo; x < hi; x++) {
                rhs[x] = rhs[x] - dssp * (u[x - 2 * e] - 4.0 * u[x - e] + 6.0 * u[x] - 4.0 * u[x + e]);
            }
        } else if (pos == n - 2) {
            for (int x = lo; x < hi; x++) {
                rhs[x] = rhs[x] - dssp * (u[x - 2 * e] - 4.0 * u[x - e] + 5.0 * u[x]);
            }
        } else {
            for (int x = lo; x < hi; x++) {
                rhs[x] = rhs[x] - dssp * (u[x - 2 * e] - 4.0 * u[x - e] + 6.0 * u[x] - 4.0 * u[x + e] + u[x + 2 * e]);
            }
        }
    }

    /** txinvr: the block-diagonal transform of the interior points of the line starting at point p0. */
    private static void txinvr(SpZone z, int p0) {
        double[] rhs = z.rhs;
        double[] rho = z.rhoI;
        double[] us = z.us;
        double[] vs = z.vs;
        double[] ws = z.ws;
        double[] speed = z.speed;
        double[] qs = z.qs;
        double c2 = z.c.c2;
        double bt = z.c.bt;
        for (int p = p0 + 1, end = p0 + z.nx - 1; p < end; p++) {
            int q = 5 * p;
            double ru1 = rho[p];
            double uu = us[p];
            double vv = vs[p];
            double ww = ws[p];
            double ac = speed[p];
            double ac2inv = 1.0 / (ac * ac);
            double r1 = rhs[q];
            double r2 = rhs[q + 1];
            double r3 = rhs[q + 2];
            double r4 = rhs[q + 3];
            double r5 = rhs[q + 4];
            double t1 = c2 * ac2inv * (qs[p] * r1 - uu * r2 - vv * r3 - ww * r4 + r5);
            double t2 = bt * ru1 * (uu * r1 - r2);
            double t3 = (bt * ru1 * ac) * t1;
            rhs[q] = r1 - t1;
            rhs[q + 1] = -ru1 * (ww * r1 - r4);
            rhs[q + 2] = ru1 * (vv * r1 - r3);
            rhs[q + 3] = -t2 + t3;
            rhs[q + 4] = t2 + t3;
        }
    }
}
