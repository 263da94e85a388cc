package dev.tessera.npbmz.sp;

/**
 * The initial state of an SP zone: the solution by transfinite interpolation of the exact
 * solution's boundary values (the reference's initialize.f) and the forcing that makes the
 * exact solution a steady state of the discrete equations (exact_rhs.f). Run once per zone
 * and run, outside the timed loop, so written for clarity rather than speed.
 */
final class SpInitial {

    private SpInitial() {
    }

    /** initialize.f: u everywhere, exact values on the six boundary planes. */
    static void initialize(SpZone z) {
        SpConstants c = z.c;
        int nx = z.nx;
        int ny = z.ny;
        int nz = z.nz;
        double[] u = z.u;
        java.util.Arrays.fill(u, 0.0);
        for (int k = 0; k < nz; k++) {
            for (int j = 0; j < ny; j++) {
                for (int i = 0; i < nx; i++) {
                    int q = z.q(i, j, k);
                    u[q] = 1.0;
                    u[q + 4] = 1.0;
                }
            }
        }
        double[] face = new double[30];
        double[] temp = new double[5];
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int j = 0; j < ny; j++) {
                double eta = j * c.dnym1;
                for (int i = 0; i < nx; i++) {
                    double xi = i * c.dnxm1;
                    SpConstants.exactSolution(0.0, eta, zeta, face, 0);
                    SpConstants.exactSolution(1.0, eta, zeta, face, 5);
                    SpConstants.exactSolution(xi, 0.0, zeta, face, 10);
                    SpConstants.exactSolution(xi, 1.0, zeta, face, 15);
                    SpConstants.exactSolution(xi, eta, 0.0, face, 20);
                    SpConstants.exactSolution(xi, eta, 1.0, face, 25);
                    int q = z.q(i, j, k);
                    for (int m = 0; m < 5; m++) {
                        double pxi = xi * face[5 + m] + (1.0 - xi) * face[m];
                        double peta = eta * face[15 + m] + (1.0 - eta) * face[10 + m];
                        double pzeta = zeta * face[25 + m] + (1.0 - zeta) * face[20 + m];
                        u[q + m] = pxi + peta + pzeta - pxi * peta - pxi * pzeta - peta * pzeta + pxi * peta * pzeta;
                    }
                }
            }
        }
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int j = 0; j < ny; j++) {
                double eta = j * c.dnym1;
                SpConstants.exactSolution(0.0, eta, zeta, temp, 0);
                System.arraycopy(temp, 0, u, z.q(0, j, k), 5);
                SpConstants.exactSolution(1.0, eta, zeta, temp, 0);
                System.arraycopy(temp, 0, u, z.q(nx - 1, j, k), 5);
            }
        }
        for (int k = 0; k < nz; k++) {
            double zeta = k * c.dnzm1;
            for (int i = 0; i < nx; i++) {
                double xi = i * c.dnxm1;
                SpConstants.exactSolution(xi, 0.0, zeta, temp, 0);
                System.arraycopy(temp, 0, u, z.q(i, 0, k), 5);
                SpConstants.exactSolution(xi, 1.0, zeta, temp, 0);
                System.arraycopy(temp, 0, u, z.q(i, ny - 1, k), 5);
            }
        }
        for (int j = 0; j < ny; j++) {
            double eta = j * c.dnym1;
            for (int i = 0; i < nx; i++) {
                double xi = i * c.dnxm1;
                SpConstants.exactSolution(xi, eta, 0.0, temp, 0);
                System.arraycopy(temp, 0, u, z.q(i, j, 0), 5);
                SpConstants.exactSolution(xi, eta, 1.0, temp, 0);
                System.arraycopy(temp, 0, u, z.q(i, j, nz - 1), 5);
            }
        }
    }

    /**
     * exact_rhs.f: the forcing, zero on the boundary, on interior points minus the discrete
     * operator (fluxes and dissipation in x, y and z) applied to the exact solution.
     */
    static void exactRhs(SpZone z) {
        SpConstants c = z.c;
        int nx = z.nx;
        int ny = z.ny;
        int nz = z.nz;
        double[] f = z.forcing;
        java.util.Arrays.fill(f, 0.0);
        int n = Math.max(nx, Math.max(ny, nz));
        double[][] ue = new double[5][n];
        double[][] buf = new double[5][n];
        double[] cuf = new double[n];
        double[] q = new double[n];
        double[] dtemp = new double[5];
        double[] dx = {c.dx1tx1, c.dx2tx1, c.dx3tx1, c.dx4tx1, c.dx5tx1};
        double[] dy = {c.dy1ty1, c.dy2ty1, c.dy3ty1, c.dy4ty1, c.dy5ty1};
        double[] dz = {c.dz1tz1, c.dz2tz1, c.dz3tz1, c.dz4tz1, c.dz5tz1};
        // xi-direction
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                double zeta = k * c.dnzm1;
                double eta = j * c.dnym1;
                for (int i = 0; i < nx; i++) {
                    SpConstants.exactSolution(i * c.dnxm1, eta, zeta, dtemp, 0);
                    exactLine(dtemp, i, 1, ue, buf, cuf, q);
                }
                forcingLine(c, f, z.q(0, j, k), 5, nx, 1, ue, buf, cuf, q, c.tx2, c.xxcon1, c.xxcon2, c.xxcon3, c.xxcon4,
                        c.xxcon5, dx);
            }
        }
        // eta-direction
        for (int k = 1; k < nz - 1; k++) {
            for (int i = 1; i < nx - 1; i++) {
                double zeta = k * c.dnzm1;
                double xi = i * c.dnxm1;
                for (int j = 0; j < ny; j++) {
                    SpConstants.exactSolution(xi, j * c.dnym1, zeta, dtemp, 0);
                    exactLine(dtemp, j, 2, ue, buf, cuf, q);
                }
                forcingLine(c, f, z.q(i, 0, k), 5 * z.nxmax, ny, 2, ue, buf, cuf, q, c.ty2, c.yycon1, c.yycon2, c.yycon3,
                        c.yycon4, c.yycon5, dy);
            }
        }
        // zeta-direction
        for (int j = 1; j < ny - 1; j++) {
            for (int i = 1; i < nx - 1; i++) {
                double eta = j * c.dnym1;
                double xi = i * c.dnxm1;
                for (int k = 0; k < nz; k++) {
                    SpConstants.exactSolution(xi, eta, k * c.dnzm1, dtemp, 0);
                    exactLine(dtemp, k, 3, ue, buf, cuf, q);
                }
                forcingLine(c, f, z.q(i, j, 0), 5 * z.nxmax * ny, nz, 3, ue, buf, cuf, q, c.tz2, c.zzcon1, c.zzcon2,
                        c.zzcon3, c.zzcon4, c.zzcon5, dz);
            }
        }
        // change the sign of the forcing on the interior
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                for (int i = 1; i < nx - 1; i++) {
                    int x = z.q(i, j, k);
                    for (int m = 0; m < 5; m++) {
                        f[x + m] = -1.0 * f[x + m];
                    }
                }
            }
        }
    }

    /** The exact solution at point l of a line and its derived quantities; v = 1, 2, 3 for a line in x, y, z. */
    private static void exactLine(double[] dtemp, int l, int v, double[][] ue, double[][] buf, double[] cuf, double[] q) {
        for (int m = 0; m < 5; m++) {
            ue[m][l] = dtemp[m];
        }
        double dtpp = 1.0 / dtemp[0];
        for (int m = 1; m < 5; m++) {
            buf[m][l] = dtpp * dtemp[m];
        }
        cuf[l] = buf[v][l] * buf[v][l];
        // the two velocity components other than v, in ascending order
        int a = v == 1 ? 2 : 1;
        int b = v == 3 ? 2 : 3;
        buf[0][l] = cuf[l] + buf[a][l] * buf[a][l] + buf[b][l] * buf[b][l];
        q[l] = 0.5 * (buf[1][l] * ue[1][l] + buf[2][l] * ue[2][l] + buf[3][l] * ue[3][l]);
    }

    /**
     * Subtracts the fluxes along a line of n points (point l at {@code f[base + l * stride]}) in
     * direction v (1, 2, 3 = x, y, z) and adds the fourth-order dissipation, as exact_rhs.f
     * does for each direction: con1 for the momentum component along the line, con2 for the
     * two others, con3-con5 for energy.
     */
    private static void forcingLine(SpConstants c, double[] f, int base, int stride, int n, int v, double[][] ue,
            double[][] buf, double[] cuf, double[] q, double t2, double con1, double con2, double con3, double con4,
            double con5, double[] d) {
        double c1 = c.c1;
        double c2 = c.c2;
        for (int l = 1; l < n - 1; l++) {
            int p = l + 1;
            int m1 = l - 1;
            int x = base + l * stride;
            f[x] = f[x] - t2 * (ue[v][p] - ue[v][m1]) + d[0] * (ue[0][p] - 2.0 * ue[0][l] + ue[0][m1]);
            for (int comp = 1; comp <= 3; comp++) {
                double flux = comp == v
                        ? (ue[comp][p] * buf[v][p] + c2 * (ue[4][p] - q[p])) - (ue[comp][m1] * buf[v][m1] + c2 * (ue[4][m1] - q[m1]))
                        : ue[comp][p] * buf[v][p] - ue[comp][m1] * buf[v][m1];
                double con = comp == v ? con1 : con2;
                f[x + comp] = f[x + comp] - t2 * flux + con * (buf[comp][p] - 2.0 * buf[comp][l] + buf[comp][m1])
                        + d[comp] * (ue[comp][p] - 2.0 * ue[comp][l] + ue[comp][m1]);
            }
            f[x + 4] = f[x + 4] - t2 * (buf[v][p] * (c1 * ue[4][p] - c2 * q[p]) - buf[v][m1] * (c1 * ue[4][m1] - c2 * q[m1]))
                    + 0.5 * con3 * (buf[0][p] - 2.0 * buf[0][l] + buf[0][m1])
                    + con4 * (cuf[p] - 2.0 * cuf[l] + cuf[m1])
                    + con5 * (buf[4][p] - 2.0 * buf[4][l] + buf[4][m1])
                    + d[4] * (ue[4][p] - 2.0 * ue[4][l] + ue[4][m1]);
        }
        double dssp = c.dssp;
        for (int m = 0; m < 5; m++) {
            double[] e = ue[m];
            int x = base + stride + m;
            f[x] = f[x] - dssp * (5.0 * e[1] - 4.0 * e[2] + e[3]);
            x = base + 2 * stride + m;
            f[x] = f[x] - dssp * (-4.0 * e[1] + 6.0 * e[2] - 4.0 * e[3] + e[4]);
            for (int l = 3; l <= n - 4; l++) {
                x = base + l * stride + m;
                f[x] = f[x] - dssp * (e[l - 2] - 4.0 * e[l - 1] + 6.0 * e[l] - 4.0 * e[l + 1] + e[l + 2]);
            }
            int l = n - 3;
            x = base + l * stride + m;
            f[x] = f[x] - dssp * (e[l - 2] - 4.0 * e[l - 1] + 6.0 * e[l] - 4.0 * e[l + 1]);
            l = n - 2;
            x = base + l * stride + m;
            f[x] = f[x] - dssp * (e[l - 2] - 4.0 * e[l - 1] + 5.0 * e[l]);
        }
    }
}
