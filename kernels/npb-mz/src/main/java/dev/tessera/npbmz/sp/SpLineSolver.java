package dev.tessera.npbmz.sp;

/**
 * The line solves of one SP step for one thread: the scalar pentadiagonal systems along x, y
 * and z lines (the reference's x_solve.f, y_solve.f, z_solve.f), each followed by its
 * block-diagonal transform (ninvr.f, pinvr.f, tzetar.f) and, for z, the update of u (add.f).
 *
 * <p>Each line is a system of n unknowns (n = nx, ny or nz, boundary points included) for each
 * of the 5 components; components 1-3 share one matrix ({@code lhs}), components 4 and 5 have
 * their own ({@code lhsp}, {@code lhsm}: the u+c and u-c eigenvalues). The matrices are built
 * per line and solved by the Thomas algorithm without pivoting: forward elimination of the two
 * sub-diagonals, then back substitution.
 *
 * <p>Memory: the matrices are thread-private scratch of this object, laid out {@code [5 * l + b]}
 * for band b (0..4, the reference's 1..5) of row l. The right-hand side of an x line is solved in
 * place (its components are contiguous, stride 5); y and z lines are gathered into the
 * contiguous {@code line} scratch first, so that one solve with a constant stride serves all
 * three directions. Nothing is allocated after construction.
 */
final class SpLineSolver {

    private final SpZone z;
    private final SpConstants c;
    private final double[] lhs;
    private final double[] lhsp;
    private final double[] lhsm;
    private final double[] cv;
    private final double[] rhon;
    private final double[] line;

    SpLineSolver(SpZone zone) {
        this.z = zone;
        this.c = zone.c;
        int n = Math.max(zone.nx, Math.max(zone.ny, zone.nz)) + 1;
        lhs = new double[5 * n];
        lhsp = new double[5 * n];
        lhsm = new double[5 * n];
        cv = new double[n];
        rhon = new double[n];
        line = new double[5 * n];
    }

    /** x_solve and ninvr for the line (j, k): solved in place in rhs. */
    void xLine(int j, int k) {
        int nx = z.nx;
        int p0 = (k * z.ny + j) * z.nxmax;
        buildLhs(nx, z.rhoI, z.us, z.speed, p0, 1, c.dx2, c.dx5, c.dxmax, c.dx1, c.dttx1, c.dttx2, c.c2dttx1);
        double[] rhs = z.rhs;
        int rb = 5 * p0;
        thomas(rhs, rb, nx);
        double bt = c.bt;
        for (int q = rb + 5, end = rb + 5 * (nx - 1); q < end; q += 5) {
            double r1 = rhs[q];
            double r2 = rhs[q + 1];
            double r3 = rhs[q + 2];
            double r4 = rhs[q + 3];
            double r5 = rhs[q + 4];
            double t1 = bt * r3;
            double t2 = 0.5 * (r4 + r5);
            rhs[q] = -r2;
            rhs[q + 1] = r1;
            rhs[q + 2] = bt * (r4 - r5);
            rhs[q + 3] = -t1 + t2;
            rhs[q + 4] = t1 + t2;
        }
    }

    /** y_solve and pinvr for the line (i, k). */
    void yLine(int i, int k) {
        int ny = z.ny;
        int p0 = k * ny * z.nxmax + i;
        int ps = z.nxmax;
        buildLhs(ny, z.rhoI, z.vs, z.speed, p0, ps, c.dy3, c.dy5, c.dymax, c.dy1, c.dtty1, c.dtty2, c.c2dtty1);
        double[] rhs = z.rhs;
        double[] r = line;
        int qs = 5 * ps;
        for (int l = 0, q = 5 * p0; l < ny; l++, q += qs) {
            System.arraycopy(rhs, q, r, 5 * l, 5);
        }
        thomas(r, 0, ny);
        double bt = c.bt;
        for (int l = 1, q = 5 * p0 + qs; l < ny - 1; l++, q += qs) {
            int a = 5 * l;
            double r1 = r[a];
            double r2 = r[a + 1];
            double r3 = r[a + 2];
            double r4 = r[a + 3];
            double r5 = r[a + 4];
            double t1 = bt * r1;
            double t2 = 0.5 * (r4 + r5);
            rhs[q] = bt * (r4 - r5);
            rhs[q + 1] = -r3;
            rhs[q + 2] = r2;
            rhs[q + 3] = -t1 + t2;
            rhs[q + 4] = t1 + t2;
        }
    }

    /** z_solve, tzetar and add for the line (i, j): the result goes straight into u. */
    void zLine(int i, int j) {
        int nz = z.nz;
        int p0 = j * z.nxmax + i;
        int ps = z.nxmax * z.ny;
        buildLhs(nz, z.rhoI, z.ws, z.speed, p0, ps, c.dz4, c.dz5, c.dzmax, c.dz1, c.dttz1, c.dttz2, c.c2dttz1);
        double[] rhs = z.rhs;
        double[] r = line;
        int qs = 5 * ps;
        for (int l = 0, q = 5 * p0; l < nz; l++, q += qs) {
            System.arraycopy(rhs, q, r, 5 * l, 5);
        }
        thomas(r, 0, nz);
        double[] u = z.u;
        double[] us = z.us;
        double[] vs = z.vs;
        double[] ws = z.ws;
        double[] speed = z.speed;
        double[] qsq = z.qs;
        double bt = c.bt;
        double c2iv = c.c2iv;
        for (int l = 1, p = p0 + ps; l < nz - 1; l++, p += ps) {
            int a = 5 * l;
            int q = 5 * p;
            double xvel = us[p];
            double yvel = vs[p];
            double zvel = ws[p];
            double ac = speed[p];
            double ac2u = ac * ac;
            double r1 = r[a];
            double r2 = r[a + 1];
            double r3 = r[a + 2];
            double r4 = r[a + 3];
            double r5 = r[a + 4];
            double uzik1 = u[q];
            double btuz = bt * uzik1;
            double t1 = btuz / ac * (r4 + r5);
            double t2 = r3 + t1;
            double t3 = btuz * (r4 - r5);
            u[q] = u[q] + t2;
            u[q + 1] = u[q + 1] + (-uzik1 * r2 + xvel * t2);
            u[q + 2] = u[q + 2] + (uzik1 * r1 + yvel * t2);
            u[q + 3] = u[q + 3] + (zvel * t2 + t3);
            u[q + 4] = u[q + 4] + (uzik1 * (-xvel * r2 + yvel * r1) + qsq[p] * t2 + c2iv * ac2u * t1 + zvel * t3);
        }
    }

    /**
     * Builds the three matrices of a line of n points whose point l is {@code p0 + l * ps} in
     * the point arrays (the first part of x_solve / y_solve / z_solve, lhsinit included).
     */
    private void buildLhs(int n, double[] rho, double[] vel, double[] speed, int p0, int ps, double da, double db,
            double dmax, double d1, double dtt1, double dtt2, double c2dtt1) {
        double[] a = lhs;
        double[] ap = lhsp;
        double[] am = lhsm;
        double[] cvl = cv;
        double[] rh = rhon;
        double c3c4 = c.c3c4;
        double con43 = c.con43;
        double c1c5 = c.c1c5;
        for (int l = 0, p = p0; l < n; l++, p += ps) {
            double ru1 = c3c4 * rho[p];
            cvl[l] = vel[p];
            rh[l] = Math.max(Math.max(da + con43 * ru1, db + c1c5 * ru1), Math.max(dmax + ru1, d1));
        }
        // lhsinit: first and last rows are the identity
        int last = 5 * (n - 1);
        for (int b = 0; b < 5; b++) {
            a[b] = 0.0;
            ap[b] = 0.0;
            am[b] = 0.0;
            a[last + b] = 0.0;
            ap[last + b] = 0.0;
            am[last + b] = 0.0;
        }
        a[2] = 1.0;
        ap[2] = 1.0;
        am[2] = 1.0;
        a[last + 2] = 1.0;
        ap[last + 2] = 1.0;
        am[last + 2] = 1.0;
        for (int l = 1; l < n - 1; l++) {
            int x = 5 * l;
            a[x] = 0.0;
            a[x + 1] = -dtt2 * cvl[l - 1] - dtt1 * rh[l - 1];
            a[x + 2] = 1.0 + c2dtt1 * rh[l];
            a[x + 3] = dtt2 * cvl[l + 1] - dtt1 * rh[l + 1];
            a[x + 4] = 0.0;
        }
        // fourth-order dissipation
        double comz1 = c.comz1;
        double comz4 = c.comz4;
        double comz5 = c.comz5;
        double comz6 = c.comz6;
        int x = 5;
        a[x + 2] = a[x + 2] + comz5;
        a[x + 3] = a[x + 3] - comz4;
        a[x + 4] = a[x + 4] + comz1;
        x = 10;
        a[x + 1] = a[x + 1] - comz4;
        a[x + 2] = a[x + 2] + comz6;
        a[x + 3] = a[x + 3] - comz4;
        a[x + 4] = a[x + 4] + comz1;
        for (int l = 3; l <= n - 4; l++) {
            x = 5 * l;
            a[x] = a[x] + comz1;
            a[x + 1] = a[x + 1] - comz4;
            a[x + 2] = a[x + 2] + comz6;
            a[x + 3] = a[x + 3] - comz4;
            a[x + 4] = a[x + 4] + comz1;
        }
        x = 5 * (n - 3);
        a[x] = a[x] + comz1;
        a[x + 1] = a[x + 1] - comz4;
        a[x + 2] = a[x + 2] + comz6;
        a[x + 3] = a[x + 3] - comz4;
        x = 5 * (n - 2);
        a[x] = a[x] + comz1;
        a[x + 1] = a[x + 1] - comz4;
        a[x + 2] = a[x + 2] + comz5;
        // the u+c and u-c factors
        for (int l = 1, p = p0 + ps; l < n - 1; l++, p += ps) {
            x = 5 * l;
            double sm = dtt2 * speed[p - ps];
            double sp = dtt2 * speed[p + ps];
            ap[x] = a[x];
            ap[x + 1] = a[x + 1] - sm;
            ap[x + 2] = a[x + 2];
            ap[x + 3] = a[x + 3] + sp;
            ap[x + 4] = a[x + 4];
            am[x] = a[x];
            am[x + 1] = a[x + 1] + sm;
            am[x + 2] = a[x + 2];
            am[x + 3] = a[x + 3] - sp;
            am[x + 4] = a[x + 4];
        }
    }

    /** Solves the line's three systems for the right-hand side {@code r[rb + 5 * l + m]}, in place. */
    private void thomas(double[] r, int rb, int n) {
        double[] a = lhs;
        double[] ap = lhsp;
        double[] am = lhsm;
        // forward elimination, components 1-3
        for (int l = 0; l <= n - 3; l++) {
            int x = 5 * l;
            int x1 = x + 5;
            int x2 = x + 10;
            int q = rb + x;
            double fac1 = 1.0 / a[x + 2];
            a[x + 3] = fac1 * a[x + 3];
            a[x + 4] = fac1 * a[x + 4];
            double r0 = fac1 * r[q];
            double r1 = fac1 * r[q + 1];
            double r2 = fac1 * r[q + 2];
            r[q] = r0;
            r[q + 1] = r1;
            r[q + 2] = r2;
            double l1 = a[x1 + 1];
            a[x1 + 2] = a[x1 + 2] - l1 * a[x + 3];
            a[x1 + 3] = a[x1 + 3] - l1 * a[x + 4];
            r[q + 5] = r[q + 5] - l1 * r0;
            r[q + 6] = r[q + 6] - l1 * r1;
            r[q + 7] = r[q + 7] - l1 * r2;
            double l2 = a[x2];
            a[x2 + 1] = a[x2 + 1] - l2 * a[x + 3];
            a[x2 + 2] = a[x2 + 2] - l2 * a[x + 4];
            r[q + 10] = r[q + 10] - l2 * r0;
            r[q + 11] = r[q + 11] - l2 * r1;
            r[q + 12] = r[q + 12] - l2 * r2;
        }
        // the last two rows: no rows below to eliminate into beyond the next one
        int x = 5 * (n - 2);
        int x1 = x + 5;
        int q = rb + x;
        double fac1 = 1.0 / a[x + 2];
        a[x + 3] = fac1 * a[x + 3];
        a[x + 4] = fac1 * a[x + 4];
        for (int m = 0; m < 3; m++) {
            r[q + m] = fac1 * r[q + m];
        }
        a[x1 + 2] = a[x1 + 2] - a[x1 + 1] * a[x + 3];
        a[x1 + 3] = a[x1 + 3] - a[x1 + 1] * a[x + 4];
        for (int m = 0; m < 3; m++) {
            r[q + 5 + m] = r[q + 5 + m] - a[x1 + 1] * r[q + m];
        }
        double fac2 = 1.0 / a[x1 + 2];
        for (int m = 0; m < 3; m++) {
            r[q + 5 + m] = fac2 * r[q + 5 + m];
        }
        // forward elimination, components 4 (u+c) and 5 (u-c)
        for (int l = 0; l <= n - 3; l++) {
            x = 5 * l;
            x1 = x + 5;
            int x2 = x + 10;
            q = rb + x;
            fac1 = 1.0 / ap[x + 2];
            ap[x + 3] = fac1 * ap[x + 3];
            ap[x + 4] = fac1 * ap[x + 4];
            double r3 = fac1 * r[q + 3];
            r[q + 3] = r3;
            ap[x1 + 2] = ap[x1 + 2] - ap[x1 + 1] * ap[x + 3];
            ap[x1 + 3] = ap[x1 + 3] - ap[x1 + 1] * ap[x + 4];
            r[q + 8] = r[q + 8] - ap[x1 + 1] * r3;
            ap[x2 + 1] = ap[x2 + 1] - ap[x2] * ap[x + 3];
            ap[x2 + 2] = ap[x2 + 2] - ap[x2] * ap[x + 4];
            r[q + 13] = r[q + 13] - ap[x2] * r3;
            fac1 = 1.0 / am[x + 2];
            am[x + 3] = fac1 * am[x + 3];
            am[x + 4] = fac1 * am[x + 4];
            double r4 = fac1 * r[q + 4];
            r[q + 4] = r4;
            am[x1 + 2] = am[x1 + 2] - am[x1 + 1] * am[x + 3];
            am[x1 + 3] = am[x1 + 3] - am[x1 + 1] * am[x + 4];
            r[q + 9] = r[q + 9] - am[x1 + 1] * r4;
            am[x2 + 1] = am[x2 + 1] - am[x2] * am[x + 3];
            am[x2 + 2] = am[x2 + 2] - am[x2] * am[x + 4];
            r[q + 14] = r[q + 14] - am[x2] * r4;
        }
        x = 5 * (n - 2);
        x1 = x + 5;
        q = rb + x;
        fac1 = 1.0 / ap[x + 2];
        ap[x + 3] = fac1 * ap[x + 3];
        ap[x + 4] = fac1 * ap[x + 4];
        r[q + 3] = fac1 * r[q + 3];
        ap[x1 + 2] = ap[x1 + 2] - ap[x1 + 1] * ap[x + 3];
        ap[x1 + 3] = ap[x1 + 3] - ap[x1 + 1] * ap[x + 4];
        r[q + 8] = r[q + 8] - ap[x1 + 1] * r[q + 3];
        fac1 = 1.0 / am[x + 2];
        am[x + 3] = fac1 * am[x + 3];
        am[x + 4] = fac1 * am[x + 4];
        r[q + 4] = fac1 * r[q + 4];
        am[x1 + 2] = am[x1 + 2] - am[x1 + 1] * am[x + 3];
        am[x1 + 3] = am[x1 + 3] - am[x1 + 1] * am[x + 4];
        r[q + 9] = r[q + 9] - am[x1 + 1] * r[q + 4];
        r[q + 8] = r[q + 8] / ap[x1 + 2];
        r[q + 9] = r[q + 9] / am[x1 + 2];
        // back substitution
        for (int m = 0; m < 3; m++) {
            r[q + m] = r[q + m] - a[x + 3] * r[q + 5 + m];
        }
        r[q + 3] = r[q + 3] - ap[x + 3] * r[q + 8];
        r[q + 4] = r[q + 4] - am[x + 3] * r[q + 9];
        for (int l = n - 3; l >= 0; l--) {
            x = 5 * l;
            q = rb + x;
            double a3 = a[x + 3];
            double a4 = a[x + 4];
            r[q] = r[q] - a3 * r[q + 5] - a4 * r[q + 10];
            r[q + 1] = r[q + 1] - a3 * r[q + 6] - a4 * r[q + 11];
            r[q + 2] = r[q + 2] - a3 * r[q + 7] - a4 * r[q + 12];
            r[q + 3] = r[q + 3] - ap[x + 3] * r[q + 8] - ap[x + 4] * r[q + 13];
            r[q + 4] = r[q + 4] - am[x + 3] * r[q + 9] - am[x + 4] * r[q + 14];
        }
    }
}
