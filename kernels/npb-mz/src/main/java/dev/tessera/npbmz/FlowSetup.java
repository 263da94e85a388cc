package dev.tessera.npbmz;

import java.util.Arrays;

/**
 * The initial solution and the forcing terms of one BT-MZ or SP-MZ zone, which both
 * references compute alike: initialize.f (transfinite interpolation of the exact solution's
 * boundary values, then the exact values on the six faces) and exact_rhs.f (the forcing that
 * makes the exact solution a steady state of the discrete equations: flux differences and
 * fourth-order dissipation of the exact solution in xi, eta and zeta, negated).
 *
 * <p>Both run once per zone before the time steps, on the calling thread. The faces are
 * written in the reference's order (west, east, south, north, bottom, top), which decides
 * the values on the zone's edges: the east face uses xi = 1 while the south and north faces
 * use xi = i * dnxm1, so the later face wins where they meet. The error norm sums over the
 * edges too, so this order is part of the result.
 */
final class FlowSetup {

    private FlowSetup() {
    }

    /**
     * Sets u (reference: initialize.f). The padding column of u (i = nx where nx is even) is
     * never read; it is set to 1.0 with the rest before the interpolation overwrites every
     * point of the grid.
     */
    static void initialize(FlowZone z) {
        FlowConstants c = z.constants;
        double[] u = z.u;
        int nx = z.nx, ny = z.ny, nz = z.nz;
        Arrays.fill(u, 1.0);
        double[] pface = new double[30];
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int j = 0; j < ny; j++) {
                double eta = j * c.dnym1;
                for (int i = 0; i < nx; i++) {
                    double xi = i * c.dnxm1;
                    // pface[(dir * 2 + side) * 5 + m]
                    FlowConstants.exactSolution(0.0, eta, zeta, pface, 0);
                    FlowConstants.exactSolution(1.0, eta, zeta, pface, 5);
                    FlowConstants.exactSolution(xi, 0.0, zeta, pface, 10);
                    FlowConstants.exactSolution(xi, 1.0, zeta, pface, 15);
                    FlowConstants.exactSolution(xi, eta, 0.0, pface, 20);
                    FlowConstants.exactSolution(xi, eta, 1.0, pface, 25);
                    int p = z.index(i, j, k) * 5;
                    for (int m = 0; m < 5; m++) {
                        double pxi = xi * pface[5 + m] + (1.0 - xi) * pface[m];
                        double peta = eta * pface[15 + m] + (1.0 - eta) * pface[10 + m];
                        double pzeta = zeta * pface[25 + m] + (1.0 - zeta) * pface[20 + m];
                        u[p + m] = pxi + peta + pzeta - pxi * peta - pxi * pzeta - peta * pzeta + pxi * peta * pzeta;
                    }
                }
            }
        }
        // the faces in the reference's order: west and east (dir 0: i = 0 with xi = 0, i = nx-1
        // with xi = 1), south and north (dir 1), bottom and top (dir 2)
        for (int dir = 0; dir < 3; dir++) {
            for (int side = 0; side < 2; side++) {
                int kFrom = dir == 2 ? side * (nz - 1) : 0, kTo = dir == 2 ? kFrom + 1 : nz;
                int jFrom = dir == 1 ? side * (ny - 1) : 0, jTo = dir == 1 ? jFrom + 1 : ny;
                int iFrom = dir == 0 ? side * (nx - 1) : 0, iTo = dir == 0 ? iFrom + 1 : nx;
                for (int k = kFrom; k < kTo; k++) {
                    for (int j = jFrom; j < jTo; j++) {
                        for (int i = iFrom; i < iTo; i++) {
                            FlowConstants.exactSolution(dir == 0 ? side : i * c.dnxm1, dir == 1 ? side : j * c.dnym1,
                                    dir == 2 ? side : k * c.dnzm1, u, z.index(i, j, k) * 5);
                        }
                    }
                }
            }
        }
    }

    /** Sets the forcing terms (reference: exact_rhs.f). */
    static void exactRhs(FlowZone z) {
        double[] f = z.forcing;
        Arrays.fill(f, 0.0);
        int nx = z.nx, ny = z.ny, nz = z.nz;
        int n = Math.max(nx, Math.max(ny, nz));
        Line line = new Line(n);
        // xi direction: lines along i, one per interior (j, k)
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                line.fill(z, 0, j, k, nx);
                line.fluxes(z, f, z.index(0, j, k) * 5, 5, nx, 0);
            }
        }
        // eta direction: lines along j, one per interior (i, k)
        for (int k = 1; k < nz - 1; k++) {
            for (int i = 1; i < nx - 1; i++) {
                line.fill(z, 1, i, k, ny);
                line.fluxes(z, f, z.index(i, 0, k) * 5, 5 * z.nxmax, ny, 1);
            }
        }
        // zeta direction: lines along k, one per interior (i, j)
        for (int j = 1; j < ny - 1; j++) {
            for (int i = 1; i < nx - 1; i++) {
                line.fill(z, 2, i, j, nz);
                line.fluxes(z, f, z.index(i, j, 0) * 5, 5 * z.nxmax * z.ny, nz, 2);
            }
        }
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                for (int i = 1; i < nx - 1; i++) {
                    int p = z.index(i, j, k) * 5;
                    for (int m = 0; m < 5; m++) {
                        f[p + m] = -1.0 * f[p + m];
                    }
                }
            }
        }
    }

    /** The exact solution along one line and the derived quantities exact_rhs.f keeps per line (ue, buf, cuf, q). */
    private static final class Line {
        final double[] ue, buf, cuf, q;
        final double[] dtemp = new double[5];

        Line(int n) {
            ue = new double[n * 5];
            buf = new double[n * 5];
            cuf = new double[n];
            q = new double[n];
        }

        /**
         * Exact solution at the n points of the line along direction dir (0: i, 1: j, 2: k)
         * through the other two indices a, b (dir 0: a = j, b = k; dir 1: a = i, b = k; dir 2: a = i, b = j).
         */
        void fill(FlowZone z, int dir, int a, int b, int n) {
            FlowConstants c = z.constants;
            for (int s = 0; s < n; s++) {
                double xi, eta, zeta;
                switch (dir) {
                    case 0 -> { xi = s * c.dnxm1; eta = a * c.dnym1; zeta = b * c.dnzm1; }
                    case 1 -> { xi = a * c.dnxm1; eta = s * c.dnym1; zeta = b * c.dnzm1; }
                    default -> { xi = a * c.dnxm1; eta = b * c.dnym1; zeta = s * c.dnzm1; }
                }
                FlowConstants.exactSolution(xi, eta, zeta, dtemp, 0);
                System.arraycopy(dtemp, 0, ue, s * 5, 5);
                double dtpp = 1.0 / dtemp[0];
                for (int m = 1; m < 5; m++) {
                    buf[s * 5 + m] = dtpp * dtemp[m];
                }
                // the velocity along the line is component 1 + dir; the other two are the cross terms
                int along = 1 + dir, o1 = dir == 0 ? 2 : 1, o2 = dir == 2 ? 2 : 3;
                cuf[s] = buf[s * 5 + along] * buf[s * 5 + along];
                buf[s * 5] = cuf[s] + buf[s * 5 + o1] * buf[s * 5 + o1] + buf[s * 5 + o2] * buf[s * 5 + o2];
                q[s] = 0.5 * (buf[s * 5 + 1] * ue[s * 5 + 1] + buf[s * 5 + 2] * ue[s * 5 + 2] + buf[s * 5 + 3] * ue[s * 5 + 3]);
            }
        }

        /**
         * Adds the flux differences and the dissipation along the line to the forcing f, whose
         * point s of the line is at f[base + s * stride].
         */
        void fluxes(FlowZone z, double[] f, int base, int stride, int n, int dir) {
            FlowConstants c = z.constants;
            double t2, d1, d2, d3, d4, d5, con1, con2, con3, con4, con5;
            switch (dir) {
                case 0 -> { t2 = c.tx2; d1 = c.dx1tx1; d2 = c.dx2tx1; d3 = c.dx3tx1; d4 = c.dx4tx1; d5 = c.dx5tx1;
                    con1 = c.xxcon1; con2 = c.xxcon2; con3 = c.xxcon3; con4 = c.xxcon4; con5 = c.xxcon5; }
                case 1 -> { t2 = c.ty2; d1 = c.dy1ty1; d2 = c.dy2ty1; d3 = c.dy3ty1; d4 = c.dy4ty1; d5 = c.dy5ty1;
                    con1 = c.yycon1; con2 = c.yycon2; con3 = c.yycon3; con4 = c.yycon4; con5 = c.yycon5; }
                default -> { t2 = c.tz2; d1 = c.dz1tz1; d2 = c.dz2tz1; d3 = c.dz3tz1; d4 = c.dz4tz1; d5 = c.dz5tz1;
                    con1 = c.zzcon1; con2 = c.zzcon2; con3 = c.zzcon3; con4 = c.zzcon4; con5 = c.zzcon5; }
            }
            double[] d = {d1, d2, d3, d4, d5};
            int a = 1 + dir; // the momentum component along the line
            for (int s = 1; s < n - 1; s++) {
                int p = base + s * stride;
                int sm = (s - 1) * 5, s0 = s * 5, sp = (s + 1) * 5;
                f[p] = f[p] - t2 * (ue[sp + a] - ue[sm + a]) + d1 * (ue[sp] - 2.0 * ue[s0] + ue[sm]);
                for (int m = 1; m < 4; m++) {
                    double flux;
                    if (m == a) {
                        flux = (ue[sp + m] * buf[sp + a] + c.c2 * (ue[sp + 4] - q[s + 1]))
                                - (ue[sm + m] * buf[sm + a] + c.c2 * (ue[sm + 4] - q[s - 1]));
                    } else {
                        flux = ue[sp + m] * buf[sp + a] - ue[sm + m] * buf[sm + a];
                    }
                    double con = m == a ? con1 : con2;
                    f[p + m] = f[p + m] - t2 * flux
                            + con * (buf[sp + m] - 2.0 * buf[s0 + m] + buf[sm + m])
                            + d[m] * (ue[sp + m] - 2.0 * ue[s0 + m] + ue[sm + m]);
                }
                f[p + 4] = f[p + 4] - t2 * (buf[sp + a] * (c.c1 * ue[sp + 4] - c.c2 * q[s + 1])
                                - buf[sm + a] * (c.c1 * ue[sm + 4] - c.c2 * q[s - 1]))
                        + 0.5 * con3 * (buf[sp] - 2.0 * buf[s0] + buf[sm])
                        + con4 * (cuf[s + 1] - 2.0 * cuf[s] + cuf[s - 1])
                        + con5 * (buf[sp + 4] - 2.0 * buf[s0 + 4] + buf[sm + 4])
                        + d5 * (ue[sp + 4] - 2.0 * ue[s0 + 4] + ue[sm + 4]);
            }
            // fourth-order dissipation
            double dssp = c.dssp;
            for (int m = 0; m < 5; m++) {
                int s = 1;
                int p = base + s * stride + m;
                f[p] = f[p] - dssp * (5.0 * ue[s * 5 + m] - 4.0 * ue[(s + 1) * 5 + m] + ue[(s + 2) * 5 + m]);
                s = 2;
                p = base + s * stride + m;
                f[p] = f[p] - dssp * (-4.0 * ue[(s - 1) * 5 + m] + 6.0 * ue[s * 5 + m]
                        - 4.0 * ue[(s + 1) * 5 + m] + ue[(s + 2) * 5 + m]);
            }
            for (int m = 0; m < 5; m++) {
                for (int s = 3; s < n - 3; s++) {
                    int p = base + s * stride + m;
                    f[p] = f[p] - dssp * (ue[(s - 2) * 5 + m] - 4.0 * ue[(s - 1) * 5 + m]
                            + 6.0 * ue[s * 5 + m] - 4.0 * ue[(s + 1) * 5 + m] + ue[(s + 2) * 5 + m]);
                }
            }
            for (int m = 0; m < 5; m++) {
                int s = n - 3;
                int p = base + s * stride + m;
                f[p] = f[p] - dssp * (ue[(s - 2) * 5 + m] - 4.0 * ue[(s - 1) * 5 + m]
                        + 6.0 * ue[s * 5 + m] - 4.0 * ue[(s + 1) * 5 + m]);
                s = n - 2;
                p = base + s * stride + m;
                f[p] = f[p] - dssp * (ue[(s - 2) * 5 + m] - 4.0 * ue[(s - 1) * 5 + m] + 5.0 * ue[s * 5 + m]);
            }
        }
    }
}
