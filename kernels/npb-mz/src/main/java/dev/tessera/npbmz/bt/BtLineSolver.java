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
 * computed once, into locals, and written straight into A(s+1), B(s), C(s-1), instead of
 * being stored per point and read three times as the reference does.
 *
 * <p>Instances are not thread-safe: each member of a team uses its own.
 */
final class BtLineSolver {

    private final double[] lhs;
    private final double[] line;

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
            formX(z, p0 + s, s, n - 2, c.dttx1, c.dttx2, c.dxs);
        }
        eliminate(z.rhs, p0 * 5, n - 2, 0);
    }

    /** Solves the eta line (i, k) (reference: y_solve.f, one (i, k) iteration). */
    void solveY(BtZone z, int i, int k) {
        BtConstants c = z.c;
        int n = z.ny;
        int p0 = z.index(i, 0, k), stride = z.nxmax;
        double[] rhs = z.rhs, r = line;
        for (int s = 1; s < n - 1; s++) {
            int p = p0 + s * stride;
            formY(z, p, s, n - 2, c.dtty1, c.dtty2, c.dys);
            System.arraycopy(rhs, p * 5, r, s * 5, 5);
        }
        eliminate(r, 0, n - 2, 1);
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
            formZ(z, p, s, n - 2, c.dttz1, c.dttz2, c.dzs);
            System.arraycopy(rhs, p * 5, r, s * 5, 5);
        }
        eliminate(r, 0, n - 2, 2);
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
     * then back substitution. Zones have at least 5 points a side, so last >= 3. The kernels
     * of direction {@code dir} (0 xi, 1 eta, 2 zeta) know the zeros its form method leaves in
     * A, B and C and never read those slots (which may hold another direction's values).
     */
    private void eliminate(double[] r, int ro, int last, int dir) {
        double[] l = lhs;
        int a = 75 * last;
        switch (dir) {
            case 0 -> {
                BlockOps.firstX(l, 100, 125, r, ro + 5);
                for (int s = 2, b = 150; s < last; s++, b += 75) {
                    BlockOps.stepX(l, b, b + 25, b + 50, b - 25, r, ro + 5 * s, ro + 5 * s - 5);
                }
                BlockOps.lastStepX(l, a, a + 25, a - 25, r, ro + 5 * last, ro + 5 * last - 5);
            }
            case 1 -> {
                BlockOps.firstY(l, 100, 125, r, ro + 5);
                for (int s = 2, b = 150; s < last; s++, b += 75) {
                    BlockOps.stepY(l, b, b + 25, b + 50, b - 25, r, ro + 5 * s, ro + 5 * s - 5);
                }
                BlockOps.lastStepY(l, a, a + 25, a - 25, r, ro + 5 * last, ro + 5 * last - 5);
            }
            default -> {
                BlockOps.firstZ(l, 100, 125, r, ro + 5);
                for (int s = 2, b = 150; s < last; s++, b += 75) {
                    BlockOps.stepZ(l, b, b + 25, b + 50, b - 25, r, ro + 5 * s, ro + 5 * s - 5);
                }
                BlockOps.lastStepZ(l, a, a + 25, a - 25, r, ro + 5 * last, ro + 5 * last - 5);
            }
        }
        for (int s = last - 1; s >= 1; s--) {
            BlockOps.matvecSub(l, 75 * s + 50, r, ro + 5 * s + 5, r, ro + 5 * s);
        }
    }

    // The Jacobians below are the reference's fjac/njac entries, with its association of
    // every product kept (the three directions differ in small ways, e.g. u2/u1 in x). Entries
    // that are zero in the reference are left out, and so are the entries of A, B and C they
    // leave exactly zero: those slots are never read (BlockOps knows the zero patterns).

    /** Point p's Jacobians (x_solve.f's fjac, njac) into B(s), A(s+1) and C(s-1), exact zeros left out. */
    private void formX(BtZone z, int p, int s, int last, double t1d, double t2d, double[] d) {
        BtConstants c = z.c;
        double[] u = z.u, l = lhs;
        int q = p * 5;
        double u1 = u[q], u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2, qs = z.qs[p], sq = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3 = c.c3, c4 = c.c4, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;
        double f21 = -(u2 * t2 * u2) + c2 * qs;
        double f22 = (2.0 - c2) * (u2 / u1);
        double f23 = -c2 * (u3 * t1);
        double f24 = -c2 * (u4 * t1);
        double f31 = -(u2 * u3) * t2;
        double f32 = u3 * t1;
        double f33 = u2 * t1;
        double f41 = -(u2 * u4) * t2;
        double f42 = u4 * t1;
        double f44 = u2 * t1;
        double f51 = (c2 * 2.0 * sq - c1 * u5) * (u2 * t2);
        double f52 = c1 * u5 * t1 - c2 * (u2 * u2 * t2 + qs);
        double f53 = -c2 * (u3 * u2) * t2;
        double f54 = -c2 * (u4 * u2) * t2;
        double f55 = c1 * (u2 * t1);
        double n21 = -con43 * c3c4 * t2 * u2;
        double n22 = con43 * c3c4 * t1;
        double n31 = -c3c4 * t2 * u3;
        double n33 = c3c4 * t1;
        double n41 = -c3c4 * t2 * u4;
        double n44 = c3c4 * t1;
        double n51 = -(con43 * c3c4 - c1345) * t3 * (u2 * u2) - (c3c4 - c1345) * t3 * (u3 * u3) - (c3c4 - c1345) * t3 * (u4 * u4) - c1345 * t2 * u5;
        double n52 = (con43 * c3c4 - c1345) * t2 * u2;
        double n53 = (c3c4 - c1345) * t2 * u3;
        double n54 = (c3c4 - c1345) * t2 * u4;
        double n55 = c1345 * t1;
        double t1x2 = t1d * 2.0;
        int b = 75 * s + 25;
        l[b + 0] = 1.0 + t1x2 * d[0];
        l[b + 5] = t1x2 * n21;
        l[b + 6] = 1.0 + t1x2 * n22 + t1x2 * d[1];
        l[b + 10] = t1x2 * n31;
        l[b + 12] = 1.0 + t1x2 * n33 + t1x2 * d[2];
        l[b + 15] = t1x2 * n41;
        l[b + 18] = 1.0 + t1x2 * n44 + t1x2 * d[3];
        l[b + 20] = t1x2 * n51;
        l[b + 21] = t1x2 * n52;
        l[b + 22] = t1x2 * n53;
        l[b + 23] = t1x2 * n54;
        l[b + 24] = 1.0 + t1x2 * n55 + t1x2 * d[4];
        if (s < last) {
            int a = 75 * (s + 1);
            l[a + 0] = -(t1d * d[0]);
            l[a + 1] = -t2d;
            l[a + 5] = -t2d * f21 - t1d * n21;
            l[a + 6] = -t2d * f22 - t1d * n22 - t1d * d[1];
            l[a + 7] = -t2d * f23;
            l[a + 8] = -t2d * f24;
            l[a + 9] = -t2d * c2;
            l[a + 10] = -t2d * f31 - t1d * n31;
            l[a + 11] = -t2d * f32;
            l[a + 12] = -t2d * f33 - t1d * n33 - t1d * d[2];
            l[a + 15] = -t2d * f41 - t1d * n41;
            l[a + 16] = -t2d * f42;
            l[a + 18] = -t2d * f44 - t1d * n44 - t1d * d[3];
            l[a + 20] = -t2d * f51 - t1d * n51;
            l[a + 21] = -t2d * f52 - t1d * n52;
            l[a + 22] = -t2d * f53 - t1d * n53;
            l[a + 23] = -t2d * f54 - t1d * n54;
            l[a + 24] = -t2d * f55 - t1d * n55 - t1d * d[4];
        }
        if (s > 1) {
            int cc = 75 * (s - 1) + 50;
            l[cc + 0] = -(t1d * d[0]);
            l[cc + 1] = t2d;
            l[cc + 5] = t2d * f21 - t1d * n21;
            l[cc + 6] = t2d * f22 - t1d * n22 - t1d * d[1];
            l[cc + 7] = t2d * f23;
            l[cc + 8] = t2d * f24;
            l[cc + 9] = t2d * c2;
            l[cc + 10] = t2d * f31 - t1d * n31;
            l[cc + 11] = t2d * f32;
            l[cc + 12] = t2d * f33 - t1d * n33 - t1d * d[2];
            l[cc + 15] = t2d * f41 - t1d * n41;
            l[cc + 16] = t2d * f42;
            l[cc + 18] = t2d * f44 - t1d * n44 - t1d * d[3];
            l[cc + 20] = t2d * f51 - t1d * n51;
            l[cc + 21] = t2d * f52 - t1d * n52;
            l[cc + 22] = t2d * f53 - t1d * n53;
            l[cc + 23] = t2d * f54 - t1d * n54;
            l[cc + 24] = t2d * f55 - t1d * n55 - t1d * d[4];
        }
    }

    /** Point p's Jacobians (y_solve.f's fjac, njac) into B(s), A(s+1) and C(s-1), exact zeros left out. */
    private void formY(BtZone z, int p, int s, int last, double t1d, double t2d, double[] d) {
        BtConstants c = z.c;
        double[] u = z.u, l = lhs;
        int q = p * 5;
        double u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2, qs = z.qs[p], sq = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3 = c.c3, c4 = c.c4, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;
        double f21 = -(u2 * u3) * t2;
        double f22 = u3 * t1;
        double f23 = u2 * t1;
        double f31 = -(u3 * u3 * t2) + c2 * qs;
        double f32 = -c2 * u2 * t1;
        double f33 = (2.0 - c2) * u3 * t1;
        double f34 = -c2 * u4 * t1;
        double f41 = -(u3 * u4) * t2;
        double f43 = u4 * t1;
        double f44 = u3 * t1;
        double f51 = (c2 * 2.0 * sq - c1 * u5) * u3 * t2;
        double f52 = -c2 * u2 * u3 * t2;
        double f53 = c1 * u5 * t1 - c2 * (qs + u3 * u3 * t2);
        double f54 = -c2 * (u3 * u4) * t2;
        double f55 = c1 * u3 * t1;
        double n21 = -c3c4 * t2 * u2;
        double n22 = c3c4 * t1;
        double n31 = -con43 * c3c4 * t2 * u3;
        double n33 = con43 * c3c4 * t1;
        double n41 = -c3c4 * t2 * u4;
        double n44 = c3c4 * t1;
        double n51 = -(c3c4 - c1345) * t3 * (u2 * u2) - (con43 * c3c4 - c1345) * t3 * (u3 * u3) - (c3c4 - c1345) * t3 * (u4 * u4) - c1345 * t2 * u5;
        double n52 = (c3c4 - c1345) * t2 * u2;
        double n53 = (con43 * c3c4 - c1345) * t2 * u3;
        double n54 = (c3c4 - c1345) * t2 * u4;
        double n55 = c1345 * t1;
        double t1x2 = t1d * 2.0;
        int b = 75 * s + 25;
        l[b + 0] = 1.0 + t1x2 * d[0];
        l[b + 5] = t1x2 * n21;
        l[b + 6] = 1.0 + t1x2 * n22 + t1x2 * d[1];
        l[b + 10] = t1x2 * n31;
        l[b + 12] = 1.0 + t1x2 * n33 + t1x2 * d[2];
        l[b + 15] = t1x2 * n41;
        l[b + 18] = 1.0 + t1x2 * n44 + t1x2 * d[3];
        l[b + 20] = t1x2 * n51;
        l[b + 21] = t1x2 * n52;
        l[b + 22] = t1x2 * n53;
        l[b + 23] = t1x2 * n54;
        l[b + 24] = 1.0 + t1x2 * n55 + t1x2 * d[4];
        if (s < last) {
            int a = 75 * (s + 1);
            l[a + 0] = -(t1d * d[0]);
            l[a + 2] = -t2d;
            l[a + 5] = -t2d * f21 - t1d * n21;
            l[a + 6] = -t2d * f22 - t1d * n22 - t1d * d[1];
            l[a + 7] = -t2d * f23;
            l[a + 10] = -t2d * f31 - t1d * n31;
            l[a + 11] = -t2d * f32;
            l[a + 12] = -t2d * f33 - t1d * n33 - t1d * d[2];
            l[a + 13] = -t2d * f34;
            l[a + 14] = -t2d * c2;
            l[a + 15] = -t2d * f41 - t1d * n41;
            l[a + 17] = -t2d * f43;
            l[a + 18] = -t2d * f44 - t1d * n44 - t1d * d[3];
            l[a + 20] = -t2d * f51 - t1d * n51;
            l[a + 21] = -t2d * f52 - t1d * n52;
            l[a + 22] = -t2d * f53 - t1d * n53;
            l[a + 23] = -t2d * f54 - t1d * n54;
            l[a + 24] = -t2d * f55 - t1d * n55 - t1d * d[4];
        }
        if (s > 1) {
            int cc = 75 * (s - 1) + 50;
            l[cc + 0] = -(t1d * d[0]);
            l[cc + 2] = t2d;
            l[cc + 5] = t2d * f21 - t1d * n21;
            l[cc + 6] = t2d * f22 - t1d * n22 - t1d * d[1];
            l[cc + 7] = t2d * f23;
            l[cc + 10] = t2d * f31 - t1d * n31;
            l[cc + 11] = t2d * f32;
            l[cc + 12] = t2d * f33 - t1d * n33 - t1d * d[2];
            l[cc + 13] = t2d * f34;
            l[cc + 14] = t2d * c2;
            l[cc + 15] = t2d * f41 - t1d * n41;
            l[cc + 17] = t2d * f43;
            l[cc + 18] = t2d * f44 - t1d * n44 - t1d * d[3];
            l[cc + 20] = t2d * f51 - t1d * n51;
            l[cc + 21] = t2d * f52 - t1d * n52;
            l[cc + 22] = t2d * f53 - t1d * n53;
            l[cc + 23] = t2d * f54 - t1d * n54;
            l[cc + 24] = t2d * f55 - t1d * n55 - t1d * d[4];
        }
    }

    /** Point p's Jacobians (z_solve.f's fjac, njac; rho_i for its 1/u1) into B(s), A(s+1) and C(s-1), exact zeros left out. */
    private void formZ(BtZone z, int p, int s, int last, double t1d, double t2d, double[] d) {
        BtConstants c = z.c;
        double[] u = z.u, l = lhs;
        int q = p * 5;
        double u2 = u[q + 1], u3 = u[q + 2], u4 = u[q + 3], u5 = u[q + 4];
        double t1 = z.rhoI[p], t2 = t1 * t1, t3 = t1 * t2, qs = z.qs[p], sq = z.square[p];
        double c1 = c.c1, c2 = c.c2, c3 = c.c3, c4 = c.c4, c3c4 = c.c3c4, c1345 = c.c1345, con43 = c.con43;
        double f21 = -(u2 * u4) * t2;
        double f22 = u4 * t1;
        double f24 = u2 * t1;
        double f31 = -(u3 * u4) * t2;
        double f33 = u4 * t1;
        double f34 = u3 * t1;
        double f41 = -(u4 * u4 * t2) + c2 * qs;
        double f42 = -c2 * u2 * t1;
        double f43 = -c2 * u3 * t1;
        double f44 = (2.0 - c2) * u4 * t1;
        double f51 = (c2 * 2.0 * sq - c1 * u5) * u4 * t2;
        double f52 = -c2 * (u2 * u4) * t2;
        double f53 = -c2 * (u3 * u4) * t2;
        double f54 = c1 * (u5 * t1) - c2 * (qs + u4 * u4 * t2);
        double f55 = c1 * u4 * t1;
        double n21 = -c3c4 * t2 * u2;
        double n22 = c3c4 * t1;
        double n31 = -c3c4 * t2 * u3;
        double n33 = c3c4 * t1;
        double n41 = -con43 * c3c4 * t2 * u4;
        double n44 = con43 * c3 * c4 * t1;
        double n51 = -(c3c4 - c1345) * t3 * (u2 * u2) - (c3c4 - c1345) * t3 * (u3 * u3) - (con43 * c3c4 - c1345) * t3 * (u4 * u4) - c1345 * t2 * u5;
        double n52 = (c3c4 - c1345) * t2 * u2;
        double n53 = (c3c4 - c1345) * t2 * u3;
        double n54 = (con43 * c3c4 - c1345) * t2 * u4;
        double n55 = c1345 * t1;
        double t1x2 = t1d * 2.0;
        int b = 75 * s + 25;
        l[b + 0] = 1.0 + t1x2 * d[0];
        l[b + 5] = t1x2 * n21;
        l[b + 6] = 1.0 + t1x2 * n22 + t1x2 * d[1];
        l[b + 10] = t1x2 * n31;
        l[b + 12] = 1.0 + t1x2 * n33 + t1x2 * d[2];
        l[b + 15] = t1x2 * n41;
        l[b + 18] = 1.0 + t1x2 * n44 + t1x2 * d[3];
        l[b + 20] = t1x2 * n51;
        l[b + 21] = t1x2 * n52;
        l[b + 22] = t1x2 * n53;
        l[b + 23] = t1x2 * n54;
        l[b + 24] = 1.0 + t1x2 * n55 + t1x2 * d[4];
        if (s < last) {
            int a = 75 * (s + 1);
            l[a + 0] = -(t1d * d[0]);
            l[a + 3] = -t2d;
            l[a + 5] = -t2d * f21 - t1d * n21;
            l[a + 6] = -t2d * f22 - t1d * n22 - t1d * d[1];
            l[a + 8] = -t2d * f24;
            l[a + 10] = -t2d * f31 - t1d * n31;
            l[a + 12] = -t2d * f33 - t1d * n33 - t1d * d[2];
            l[a + 13] = -t2d * f34;
            l[a + 15] = -t2d * f41 - t1d * n41;
            l[a + 16] = -t2d * f42;
            l[a + 17] = -t2d * f43;
            l[a + 18] = -t2d * f44 - t1d * n44 - t1d * d[3];
            l[a + 19] = -t2d * c2;
            l[a + 20] = -t2d * f51 - t1d * n51;
            l[a + 21] = -t2d * f52 - t1d * n52;
            l[a + 22] = -t2d * f53 - t1d * n53;
            l[a + 23] = -t2d * f54 - t1d * n54;
            l[a + 24] = -t2d * f55 - t1d * n55 - t1d * d[4];
        }
        if (s > 1) {
            int cc = 75 * (s - 1) + 50;
            l[cc + 0] = -(t1d * d[0]);
            l[cc + 3] = t2d;
            l[cc + 5] = t2d * f21 - t1d * n21;
            l[cc + 6] = t2d * f22 - t1d * n22 - t1d * d[1];
            l[cc + 8] = t2d * f24;
            l[cc + 10] = t2d * f31 - t1d * n31;
            l[cc + 12] = t2d * f33 - t1d * n33 - t1d * d[2];
            l[cc + 13] = t2d * f34;
            l[cc + 15] = t2d * f41 - t1d * n41;
            l[cc + 16] = t2d * f42;
            l[cc + 17] = t2d * f43;
            l[cc + 18] = t2d * f44 - t1d * n44 - t1d * d[3];
            l[cc + 19] = t2d * c2;
            l[cc + 20] = t2d * f51 - t1d * n51;
            l[cc + 21] = t2d * f52 - t1d * n52;
            l[cc + 22] = t2d * f53 - t1d * n53;
            l[cc + 23] = t2d * f54 - t1d * n54;
            l[cc + 24] = t2d * f55 - t1d * n55 - t1d * d[4];
        }
    }
}
