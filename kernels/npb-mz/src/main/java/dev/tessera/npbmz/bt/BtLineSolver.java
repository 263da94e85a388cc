package dev.tessera.npbmz.bt;

/**
 * The block-tridiagonal line solves of BT's ADI step (the reference's x_solve.f, y_solve.f,
 * z_solve.f), one line at a time, with the scratch space of one thread.
 *
 * <p>Along a line of points 0 .. n-1 the implicit factor is a tridiagonal system of 5 x 5
 * blocks A(s) x(s-1) + B(s) x(s) + C(s) x(s+1) = r(s), built from the flux Jacobian F and
 * the viscous Jacobian N of each point (F and N as in the reference):
 * <pre>
 *   A(s) = -dt*t2 F(s-1) - dt*t1 N(s-1) - dt*t1 D
 *   B(s) =  I + 2 dt*t1 N(s) + 2 dt*t1 D
 *   C(s) =  dt*t2 F(s+1) - dt*t1 N(s+1) - dt*t1 D        (D: the diagonal of dx1..dx5)
 * </pre>
 * The reference puts identity rows at the two boundary points (lhsinit) and zero right-hand
 * sides there, so the boundary unknowns stay zero and never contribute: A(1) and C(n-2) only
 * ever multiply zeros. This class therefore solves the interior points 1 .. n-2 only, needs
 * the Jacobians of the interior points only, and ends the forward sweep with binvrhs instead
 * of binvcrhs (the C' it would compute multiplies a zero). Every operation that remains is
 * the reference's, in its order, so the results are the reference's bit for bit.
 *
 * <p>Layout of the scratch {@code lhs}: point s's blocks A, B, C at {@code 75 s}, {@code 75 s
 * + 25}, {@code 75 s + 50} (row-major blocks, see {@link BlockOps}). Each point's Jacobians are
 * computed once into {@code fj}/{@code nj} and scattered straight into A(s+1), B(s), C(s-1),
 * instead of being stored per point and read three times as the reference does.
 *
 * <p>Instances are not thread-safe: each member of a team uses its own.
 */
final class BtLineSolver {

    private final double[] lhs;
    private final double[] line;
    private final double[] fj = new double[25];
    private final double[] nj = new double[25];

    /** Scratch for lines of up to {@code n} points. */
    BtLineSolver(int n) {
        lhs = new double[75 * n];
        line = new double[5 * n];
    }

    /** Solves the xi line (j, k) in place in rhs (reference: x_solve.f, one (j, k) iteration). */
    void solveX(BtZone z, int j, int k) {
        BtConstants c = z.c;
        int n = z.nx;
        int p0 = z.index(0, j, k);
        for (int s = 1; s < n - 1; s++) {
            jacobianX(z, p0 + s);
            scatter(s, n - 2, c.dttx1, c.dttx2, c.dx1, c.dx2, c.dx3, c.dx4, c.dx5);
        }
        eliminate(z.rhs, p0 * 5, n - 2);
    }

    /** Solves the eta line (i, k) (reference: y_solve.f, one (i, k) iteration). */
    void solveY(BtZone z, int i, int k) {
        BtConstants c = z.c;
        int n = z.ny;
        int p0 = z.index(i, 0, k), stride = z.nxmax;
        double[] rhs = z.rhs, r = line;
        for (int s = 1; s < n - 1; s++) {
            int p = p0 + s * stride;
            jacobianY(z, p);
            scatter(s, n - 2, c.dtty1, c.dtty2, c.dy1, c.dy2, c.dy3, c.dy4, c.dy5);
            System.arraycopy(rhs, p * 5, r, s * 5, 5);
        }
        eliminate(r, 0, n - 2);
        for (int s = 1; s < n - 1; s++) {
            System.arraycopy(r, s * 5, rhs, (p0 + s * stride) * 5, 5);
        }
    }

    /**
     * Solves the zeta line (i, j) and adds the update to u (reference: z_solve.f for one (i, j),
     * then add.f for the same points: no other line reads this line's u or rhs afterwards).
     */
    void solveZAndAdd(BtZone z, int i, int j) {
        BtConstants c = z.c;
        int n = z.nz;
        int p0 = z.index(i, j, 0), stride = z.plane;
        double[] rhs = z.rhs, u = z.u, r = line;
        for (int s = 1; s < n - 1; s++) {
            int p = p0 + s * stride;
            jacobianZ(z, p);
            scatter(s, n - 2, c.dttz1, c.dttz2, c.dz1, c.dz2, c.dz3, c.dz4, c.dz5);
            System.arraycopy(rhs, p * 5, r, s * 5, 5);
        }
        eliminate(r, 0, n - 2);
        for (int s = 1; s < n - 1; s++) {
            int q = (p0 + s * stride) * 5, o = s * 5;
            u[q] = u[q] + r[o];
            u[q + 1] = u[q + 1] + r[o + 1];
            u[q + 2] = u[q + 2] + r[o + 2];
            u[q + 3] = u[q + 3] + r[o + 3];
            u[q + 4] = u[q + 4] + r[o + 4];
        }
    }

    /**
     * Block elimination of the interior points 1 .. last, whose right-hand sides are at
     * r[ro + 5 s]: forward sweep (reference: the matvec_sub / matmul_sub / binvcrhs loop),
     * then back substitution.
     */
    private void eliminate(double[] r, int ro, int last) {
        double[] l = lhs;
        for (int s = 1; s <= last; s++) {
            int a = 75 * s, b = a + 25, cc = a + 50, rs = ro + 5 * s;
            if (s > 1) {
                BlockOps.matvecSub(l, a, r, rs - 5, r, rs);
                BlockOps.matmulSub(l, a, l, cc - 75, l, b);
            }
            if (s < last) {
                BlockOps.binvcrhs(l, b, l, cc, r, rs);
            } else {
                BlockOps.binvrhs(l, b, r, rs);
            }
        }
        for (int s = last - 1; s >= 1; s--) {
            BlockOps.matvecSub(l, 75 * s + 50, r, ro + 5 * s + 5, r, ro + 5 * s);
        }
    }

    /**
     * Scatters point s's Jacobians (fj, nj) into B(s), and into A(s+1) and C(s-1) where those
     * are interior points; t1 = dt * t1 and t2 = dt * t2 of the direction, d1..d5 its diagonal.
     */
    private void scatter(int s, int last, double t1, double t2, double d1, double d2, double d3, double d4,
            double d5) {
        double[] l = lhs, f = fj, nv = nj;
        double t1x2 = t1 * 2.0;
        int b = 75 * s + 25;
        for (int e = 0; e < 25; e++) {
            l[b + e] = t1x2 * nv[e];
        }
        l[b] = 1.0 + t1x2 * nv[0] + t1x2 * d1;
        l[b + 6] = 1.0 + t1x2 * nv[6] + t1x2 * d2;
        l[b + 12] = 1.0 + t1x2 * nv[12] + t1x2 * d3;
        l[b + 18] = 1.0 + t1x2 * nv[18] + t1x2 * d4;
        l[b + 24] = 1.0 + t1x2 * nv[24] + t1x2 * d5;
        if (s < last) {
            int a = 75 * (s + 1);
            for (int e = 0; e < 25; e++) {
                l[a + e] = -t2 * f[e] - t1 * nv[e];
            }
            l[a] -= t1 * d1;
            l[a + 6] -= t1 * d2;
            l[a + 12] -= t1 * d3;
            l[a + 18] -= t1 * d4;
            l[a + 24] -= t1 * d5;
        }
        if (s > 1) {
            int cc = 75 * (s - 1) + 50;
            for (int e = 0; e < 25; e++) {
                l[cc + e] = t2 * f[e] - t1 * nv[e];
            }
            l[cc] -= t1 * d1;
            l[cc + 6] -= t1 * d2;
            l[cc + 12] -= t1 * d3;
            l[cc + 18] -= t1 * d4;
            l[cc + 24] -= t1 * d5;
        }
    }

    // The Jacobians below are the reference's fjac/njac entries, with its association of
    // every product kept (the three directions differ in small ways, e.g. u2/u1 in x).

    private void jacobianX(BtZone z, int p) {
        BtConstants c = z.c;
        double[] u = z.u, f = fj, nv = nj;
        int q = p * 5;
        double u1 = u[q], u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2;
        double qs = z.qs[p], square = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;

        f[0] = 0.0; f[1] = 1.0; f[2] = 0.0; f[3] = 0.0; f[4] = 0.0;
        f[5] = -(u2 * t2 * u2) + c2 * qs;
        f[6] = (2.0 - c2) * (u2 / u1);
        f[7] = -c2 * (u3 * t1);
        f[8] = -c2 * (u4 * t1);
        f[9] = c2;
        f[10] = -(u2 * u3) * t2; f[11] = u3 * t1; f[12] = u2 * t1; f[13] = 0.0; f[14] = 0.0;
        f[15] = -(u2 * u4) * t2; f[16] = u4 * t1; f[17] = 0.0; f[18] = u2 * t1; f[19] = 0.0;
        f[20] = (c2 * 2.0 * square - c1 * u5) * (u2 * t2);
        f[21] = c1 * u5 * t1 - c2 * (u2 * u2 * t2 + qs);
        f[22] = -c2 * (u3 * u2) * t2;
        f[23] = -c2 * (u4 * u2) * t2;
        f[24] = c1 * (u2 * t1);

        java.util.Arrays.fill(nv, 0.0);
        nv[5] = -con43 * c3c4 * t2 * u2;
        nv[6] = con43 * c3c4 * t1;
        nv[10] = -c3c4 * t2 * u3;
        nv[12] = c3c4 * t1;
        nv[15] = -c3c4 * t2 * u4;
        nv[18] = c3c4 * t1;
        nv[20] = -(con43 * c3c4 - c1345) * t3 * (u2 * u2)
                - (c3c4 - c1345) * t3 * (u3 * u3)
                - (c3c4 - c1345) * t3 * (u4 * u4)
                - c1345 * t2 * u5;
        nv[21] = (con43 * c3c4 - c1345) * t2 * u2;
        nv[22] = (c3c4 - c1345) * t2 * u3;
        nv[23] = (c3c4 - c1345) * t2 * u4;
        nv[24] = c1345 * t1;
    }

    private void jacobianY(BtZone z, int p) {
        BtConstants c = z.c;
        double[] u = z.u, f = fj, nv = nj;
        int q = p * 5;
        double u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2;
        double qs = z.qs[p], square = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;

        f[0] = 0.0; f[1] = 0.0; f[2] = 1.0; f[3] = 0.0; f[4] = 0.0;
        f[5] = -(u2 * u3) * t2; f[6] = u3 * t1; f[7] = u2 * t1; f[8] = 0.0; f[9] = 0.0;
        f[10] = -(u3 * u3 * t2) + c2 * qs;
        f[11] = -c2 * u2 * t1;
        f[12] = (2.0 - c2) * u3 * t1;
        f[13] = -c2 * u4 * t1;
        f[14] = c2;
        f[15] = -(u3 * u4) * t2; f[16] = 0.0; f[17] = u4 * t1; f[18] = u3 * t1; f[19] = 0.0;
        f[20] = (c2 * 2.0 * square - c1 * u5) * u3 * t2;
        f[21] = -c2 * u2 * u3 * t2;
        f[22] = c1 * u5 * t1 - c2 * (qs + u3 * u3 * t2);
        f[23] = -c2 * (u3 * u4) * t2;
        f[24] = c1 * u3 * t1;

        java.util.Arrays.fill(nv, 0.0);
        nv[5] = -c3c4 * t2 * u2;
        nv[6] = c3c4 * t1;
        nv[10] = -con43 * c3c4 * t2 * u3;
        nv[12] = con43 * c3c4 * t1;
        nv[15] = -c3c4 * t2 * u4;
        nv[18] = c3c4 * t1;
        nv[20] = -(c3c4 - c1345) * t3 * (u2 * u2)
                - (con43 * c3c4 - c1345) * t3 * (u3 * u3)
                - (c3c4 - c1345) * t3 * (u4 * u4)
                - c1345 * t2 * u5;
        nv[21] = (c3c4 - c1345) * t2 * u2;
        nv[22] = (con43 * c3c4 - c1345) * t2 * u3;
        nv[23] = (c3c4 - c1345) * t2 * u4;
        nv[24] = c1345 * t1;
    }

    private void jacobianZ(BtZone z, int p) {
        BtConstants c = z.c;
        double[] u = z.u, f = fj, nv = nj;
        int q = p * 5;
        double u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        // the reference divides again (1/u1) here; rho_i holds the same quotient
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2;
        double qs = z.qs[p], square = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3 = c.c3, c4 = c.c4, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;

        f[0] = 0.0; f[1] = 0.0; f[2] = 0.0; f[3] = 1.0; f[4] = 0.0;
        f[5] = -(u2 * u4) * t2; f[6] = u4 * t1; f[7] = 0.0; f[8] = u2 * t1; f[9] = 0.0;
        f[10] = -(u3 * u4) * t2; f[11] = 0.0; f[12] = u4 * t1; f[13] = u3 * t1; f[14] = 0.0;
        f[15] = -(u4 * u4 * t2) + c2 * qs;
        f[16] = -c2 * u2 * t1;
        f[17] = -c2 * u3 * t1;
        f[18] = (2.0 - c2) * u4 * t1;
        f[19] = c2;
        f[20] = (c2 * 2.0 * square - c1 * u5) * u4 * t2;
        f[21] = -c2 * (u2 * u4) * t2;
        f[22] = -c2 * (u3 * u4) * t2;
        f[23] = c1 * (u5 * t1) - c2 * (qs + u4 * u4 * t2);
        f[24] = c1 * u4 * t1;

        java.util.Arrays.fill(nv, 0.0);
        nv[5] = -c3c4 * t2 * u2;
        nv[6] = c3c4 * t1;
        nv[10] = -c3c4 * t2 * u3;
        nv[12] = c3c4 * t1;
        nv[15] = -con43 * c3c4 * t2 * u4;
        nv[18] = con43 * c3 * c4 * t1;
        nv[20] = -(c3c4 - c1345) * t3 * (u2 * u2)
                - (c3c4 - c1345) * t3 * (u3 * u3)
                - (con43 * c3c4 - c1345) * t3 * (u4 * u4)
                - c1345 * t2 * u5;
        nv[21] = (c3c4 - c1345) * t2 * u2;
        nv[22] = (c3c4 - c1345) * t2 * u3;
        nv[23] = (con43 * c3c4 - c1345) * t2 * u4;
        nv[24] = c1345 * t1;
    }
}
