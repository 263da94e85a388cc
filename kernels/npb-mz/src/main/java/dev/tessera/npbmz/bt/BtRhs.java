package dev.tessera.npbmz.bt;

/**
 * The right-hand side of one BT zone (the reference's rhs.f, compute_rhs), split in the two
 * passes its OpenMP version separates by a barrier:
 *
 * <ol>
 * <li>{@link #primitives}: for every point, 1/rho, the three velocities, the kinetic energy
 *     ("square") and square/rho ("qs");</li>
 * <li>{@link #row}: for one interior row (j, k) of points, rhs = forcing + the xi, eta and
 *     zeta flux differences, each followed by its fourth-order dissipation, times dt (the
 *     copy of the forcing folded into the xi fluxes, the product with dt into the zeta
 *     dissipation: the same operations on every element, in the same order).</li>
 * </ol>
 *
 * <p>Pass 2 writes only its own row and reads pass 1's arrays and u around it, so rows can be
 * spread over threads freely once pass 1 is complete everywhere. Each row is finished
 * direction by direction in the reference's order (x fluxes, x dissipation, y fluxes, ...),
 * so every element of rhs accumulates its terms in the reference's order; the whole row
 * (5 * nx doubles) stays in the L1 cache across the six short passes.
 *
 * <p>The boundary points of rhs are never written: the forcing there is zero and the line
 * solves never read them (see {@link BtLineSolver}).
 */
final class BtRhs {

    private BtRhs() {
    }

    /** Pass 1 over the rows [from, to) of the collapsed (k, j) range [0, nz * ny). */
    static void primitives(BtZone z, int from, int to) {
        double[] u = z.u, rhoI = z.rhoI, us = z.us, vs = z.vs, ws = z.ws, square = z.square, qs = z.qs;
        int nx = z.nx, nxmax = z.nxmax;
        for (int row = from; row < to; row++) {
            int p0 = row * nxmax; // (k * ny + j) * nxmax
            for (int p = p0; p < p0 + nx; p++) {
                int q = p * 5;
                double u1 = u[q + 1], u2 = u[q + 2], u3 = u[q + 3];
                double rhoInv = 1.0 / u[q];
                rhoI[p] = rhoInv;
                us[p] = u1 * rhoInv;
                vs[p] = u2 * rhoInv;
                ws[p] = u3 * rhoInv;
                double sq = 0.5 * (u1 * u1 + u2 * u2 + u3 * u3) * rhoInv;
                square[p] = sq;
                qs[p] = sq * rhoInv;
            }
        }
    }

    /** Pass 2 for the interior row (j, k): rhs[., 1 .. nx-2, j, k]. */
    static void row(BtZone z, int j, int k) {
        BtConstants c = z.c;
        double[] u = z.u, rhs = z.rhs, forcing = z.forcing;
        double[] rhoI = z.rhoI, us = z.us, vs = z.vs, ws = z.ws, square = z.square, qs = z.qs;
        int nx = z.nx;
        int p0 = z.index(0, j, k);
        double c1 = c.c1, c2 = c.c2, dssp = c.dssp;


        // xi-direction fluxes
        {
            double tx2 = c.tx2, dx1tx1 = c.dx1tx1, dx2tx1 = c.dx2tx1, dx3tx1 = c.dx3tx1, dx4tx1 = c.dx4tx1,
                    dx5tx1 = c.dx5tx1, xxcon2 = c.xxcon2, xxcon3 = c.xxcon3, xxcon4 = c.xxcon4, xxcon5 = c.xxcon5,
                    xxcon2con43 = c.xxcon2 * c.con43;
            for (int p = p0 + 1; p < p0 + nx - 1; p++) {
                int q = p * 5, qp = q + 5, qm = q - 5;
                double uijk = us[p], up1 = us[p + 1], um1 = us[p - 1];
                rhs[q] = forcing[q] + dx1tx1 * (u[qp] - 2.0 * u[q] + u[qm]) - tx2 * (u[qp + 1] - u[qm + 1]);
                rhs[q + 1] = forcing[q + 1] + dx2tx1 * (u[qp + 1] - 2.0 * u[q + 1] + u[qm + 1])
                        + xxcon2con43 * (up1 - 2.0 * uijk + um1)
                        - tx2 * (u[qp + 1] * up1 - u[qm + 1] * um1
                                + (u[qp + 4] - square[p + 1] - u[qm + 4] + square[p - 1]) * c2);
                rhs[q + 2] = forcing[q + 2] + dx3tx1 * (u[qp + 2] - 2.0 * u[q + 2] + u[qm + 2])
                        + xxcon2 * (vs[p + 1] - 2.0 * vs[p] + vs[p - 1])
                        - tx2 * (u[qp + 2] * up1 - u[qm + 2] * um1);
                rhs[q + 3] = forcing[q + 3] + dx4tx1 * (u[qp + 3] - 2.0 * u[q + 3] + u[qm + 3])
                        + xxcon2 * (ws[p + 1] - 2.0 * ws[p] + ws[p - 1])
                        - tx2 * (u[qp + 3] * up1 - u[qm + 3] * um1);
                rhs[q + 4] = forcing[q + 4] + dx5tx1 * (u[qp + 4] - 2.0 * u[q + 4] + u[qm + 4])
                        + xxcon3 * (qs[p + 1] - 2.0 * qs[p] + qs[p - 1])
                        + xxcon4 * (up1 * up1 - 2.0 * uijk * uijk + um1 * um1)
                        + xxcon5 * (u[qp + 4] * rhoI[p + 1] - 2.0 * u[q + 4] * rhoI[p] + u[qm + 4] * rhoI[p - 1])
                        - tx2 * ((c1 * u[qp + 4] - c2 * square[p + 1]) * up1
                                - (c1 * u[qm + 4] - c2 * square[p - 1]) * um1);
            }
            dissipation(u, rhs, p0 * 5, 5, nx, dssp);
        }

        // eta-direction fluxes
        {
            int s = z.nxmax, s5 = s * 5;
            double ty2 = c.ty2, dy1ty1 = c.dy1ty1, dy2ty1 = c.dy2ty1, dy3ty1 = c.dy3ty1, dy4ty1 = c.dy4ty1,
                    dy5ty1 = c.dy5ty1, yycon2 = c.yycon2, yycon3 = c.yycon3, yycon4 = c.yycon4, yycon5 = c.yycon5,
                    yycon2con43 = c.yycon2 * c.con43;
            for (int p = p0 + 1; p < p0 + nx - 1; p++) {
                int q = p * 5, qp = q + s5, qm = q - s5;
                double vijk = vs[p], vp1 = vs[p + s], vm1 = vs[p - s];
                rhs[q] = rhs[q] + dy1ty1 * (u[qp] - 2.0 * u[q] + u[qm]) - ty2 * (u[qp + 2] - u[qm + 2]);
                rhs[q + 1] = rhs[q + 1] + dy2ty1 * (u[qp + 1] - 2.0 * u[q + 1] + u[qm + 1])
                        + yycon2 * (us[p + s] - 2.0 * us[p] + us[p - s])
                        - ty2 * (u[qp + 1] * vp1 - u[qm + 1] * vm1);
                rhs[q + 2] = rhs[q + 2] + dy3ty1 * (u[qp + 2] - 2.0 * u[q + 2] + u[qm + 2])
                        + yycon2con43 * (vp1 - 2.0 * vijk + vm1)
                        - ty2 * (u[qp + 2] * vp1 - u[qm + 2] * vm1
                                + (u[qp + 4] - square[p + s] - u[qm + 4] + square[p - s]) * c2);
                rhs[q + 3] = rhs[q + 3] + dy4ty1 * (u[qp + 3] - 2.0 * u[q + 3] + u[qm + 3])
                        + yycon2 * (ws[p + s] - 2.0 * ws[p] + ws[p - s])
                        - ty2 * (u[qp + 3] * vp1 - u[qm + 3] * vm1);
                rhs[q + 4] = rhs[q + 4] + dy5ty1 * (u[qp + 4] - 2.0 * u[q + 4] + u[qm + 4])
                        + yycon3 * (qs[p + s] - 2.0 * qs[p] + qs[p - s])
                        + yycon4 * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1)
                        + yycon5 * (u[qp + 4] * rhoI[p + s] - 2.0 * u[q + 4] * rhoI[p] + u[qm + 4] * rhoI[p - s])
                        - ty2 * ((c1 * u[qp + 4] - c2 * square[p + s]) * vp1
                                - (c1 * u[qm + 4] - c2 * square[p - s]) * vm1);
            }
            crossDissipation(u, rhs, p0, nx, s5, j, z.ny, dssp, 1.0);
        }

        // zeta-direction fluxes
        {
            int s = z.plane, s5 = s * 5;
            double tz2 = c.tz2, dz1tz1 = c.dz1tz1, dz2tz1 = c.dz2tz1, dz3tz1 = c.dz3tz1, dz4tz1 = c.dz4tz1,
                    dz5tz1 = c.dz5tz1, zzcon2 = c.zzcon2, zzcon3 = c.zzcon3, zzcon4 = c.zzcon4, zzcon5 = c.zzcon5,
                    zzcon2con43 = c.zzcon2 * c.con43;
            for (int p = p0 + 1; p < p0 + nx - 1; p++) {
                int q = p * 5, qp = q + s5, qm = q - s5;
                double wijk = ws[p], wp1 = ws[p + s], wm1 = ws[p - s];
                rhs[q] = rhs[q] + dz1tz1 * (u[qp] - 2.0 * u[q] + u[qm]) - tz2 * (u[qp + 3] - u[qm + 3]);
                rhs[q + 1] = rhs[q + 1] + dz2tz1 * (u[qp + 1] - 2.0 * u[q + 1] + u[qm + 1])
                        + zzcon2 * (us[p + s] - 2.0 * us[p] + us[p - s])
                        - tz2 * (u[qp + 1] * wp1 - u[qm + 1] * wm1);
                rhs[q + 2] = rhs[q + 2] + dz3tz1 * (u[qp + 2] - 2.0 * u[q + 2] + u[qm + 2])
                        + zzcon2 * (vs[p + s] - 2.0 * vs[p] + vs[p - s])
                        - tz2 * (u[qp + 2] * wp1 - u[qm + 2] * wm1);
                rhs[q + 3] = rhs[q + 3] + dz4tz1 * (u[qp + 3] - 2.0 * u[q + 3] + u[qm + 3])
                        + zzcon2con43 * (wp1 - 2.0 * wijk + wm1)
                        - tz2 * (u[qp + 3] * wp1 - u[qm + 3] * wm1
                                + (u[qp + 4] - square[p + s] - u[qm + 4] + square[p - s]) * c2);
                rhs[q + 4] = rhs[q + 4] + dz5tz1 * (u[qp + 4] - 2.0 * u[q + 4] + u[qm + 4])
                        + zzcon3 * (qs[p + s] - 2.0 * qs[p] + qs[p - s])
                        + zzcon4 * (wp1 * wp1 - 2.0 * wijk * wijk + wm1 * wm1)
                        + zzcon5 * (u[qp + 4] * rhoI[p + s] - 2.0 * u[q + 4] * rhoI[p] + u[qm + 4] * rhoI[p - s])
                        - tz2 * ((c1 * u[qp + 4] - c2 * square[p + s]) * wp1
                                - (c1 * u[qm + 4] - c2 * square[p - s]) * wm1);
            }
            crossDissipation(u, rhs, p0, nx, s5, k, z.nz, dssp, c.dt);
        }

    }

    /**
     * Fourth-order dissipation along the row itself (xi): the row's n points start at u[base],
     * {@code stride} doubles apart; the one-sided stencils at both ends as in the reference.
     */
    private static void dissipation(double[] u, double[] rhs, int base, int stride, int n, double dssp) {
        for (int m = 0; m < 5; m++) {
            int q = base + stride + m;
            rhs[q] = rhs[q] - dssp * (5.0 * u[q] - 4.0 * u[q + stride] + u[q + 2 * stride]);
            q += stride;
            rhs[q] = rhs[q] - dssp * (-4.0 * u[q - stride] + 6.0 * u[q] - 4.0 * u[q + stride] + u[q + 2 * stride]);
        }
        for (int i = 3; i < n - 3; i++) {
            for (int m = 0; m < 5; m++) {
                int q = base + i * stride + m;
                rhs[q] = rhs[q] - dssp * (u[q - 2 * stride] - 4.0 * u[q - stride] + 6.0 * u[q]
                        - 4.0 * u[q + stride] + u[q + 2 * stride]);
            }
        }
        for (int m = 0; m < 5; m++) {
            int q = base + (n - 3) * stride + m;
            rhs[q] = rhs[q] - dssp * (u[q - 2 * stride] - 4.0 * u[q - stride] + 6.0 * u[q] - 4.0 * u[q + stride]);
            q += stride;
            rhs[q] = rhs[q] - dssp * (u[q - 2 * stride] - 4.0 * u[q - stride] + 5.0 * u[q]);
        }
    }

    /**
     * Fourth-order dissipation across the row (eta or zeta): every point of the row uses the
     * same stencil, chosen by the row's position {@code at} among {@code n} points in that
     * direction; {@code s5} is the distance in doubles between neighbours in that direction.
     * Each result is then multiplied by {@code scale}: dt after the zeta dissipation, the
     * reference's last loop over rhs; 1 (exact) after the eta one.
     */
    private static void crossDissipation(double[] u, double[] rhs, int p0, int nx, int s5, int at, int n,
            double dssp, double scale) {
        int from = (p0 + 1) * 5, to = (p0 + nx - 1) * 5;
        if (at == 1) {
            for (int q = from; q < to; q++) {
                rhs[q] = (rhs[q] - dssp * (5.0 * u[q] - 4.0 * u[q + s5] + u[q + 2 * s5])) * scale;
            }
        } else if (at == 2) {
            for (int q = from; q < to; q++) {
                rhs[q] = (rhs[q] - dssp * (-4.0 * u[q - s5] + 6.0 * u[q] - 4.0 * u[q + s5] + u[q + 2 * s5])) * scale;
            }
        } else if (at == n - 3) {
            for (int q = from; q < to; q++) {
                rhs[q] = (rhs[q] - dssp * (u[q - 2 * s5] - 4.0 * u[q - s5] + 6.0 * u[q] - 4.0 * u[q + s5])) * scale;
            }
        } else if (at == n - 2) {
            for (int q = from; q < to; q++) {
                rhs[q] = (rhs[q] - dssp * (u[q - 2 * s5] - 4.0 * u[q - s5] + 5.0 * u[q])) * scale;
            }
        } else {
            for (int q = from; q < to; q++) {
                rhs[q] = (rhs[q] - dssp * (u[q - 2 * s5] - 4.0 * u[q - s5] + 6.0 * u[q]
                        - 4.0 * u[q + s5] + u[q + 2 * s5])) * scale;
            }
        }
    }
}
