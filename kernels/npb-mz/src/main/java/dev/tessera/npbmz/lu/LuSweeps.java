package dev.tessera.npbmz.lu;

import static dev.tessera.npbmz.lu.LuCoefficients.C1;
import static dev.tessera.npbmz.lu.LuCoefficients.C2;
import static dev.tessera.npbmz.lu.LuCoefficients.C3;
import static dev.tessera.npbmz.lu.LuCoefficients.C4;
import static dev.tessera.npbmz.lu.LuCoefficients.C5;

/**
 * The two triangular sweeps of one SSOR iteration of LU on one zone: the lower sweep
 * v <- L^-1 v (reference: jacld.f + blts.f) plane by plane upwards in k, and the upper sweep
 * v <- U^-1 v (jacu.f + buts.f) plane by plane downwards, where v is the scaled residual
 * rsd and L, U are the block lower and upper triangles of the linearised operator.
 *
 * <p>Fusion. The reference first builds the 5x5 blocks a, b, c, d of a whole plane (jacld,
 * jacu) into arrays and then runs the solve over them. Here each block is computed at the
 * point that uses it, straight into local variables, and never stored: no 4 x 25 doubles per
 * point of memory traffic. Every block entry is computed with the reference's expression
 * (same operands, same order), and the block structure is exploited: entries that are
 * identically zero in jacld.f/jacu.f are skipped in the matrix-vector products, and the
 * diagonal block d, which is lower triangular, is solved by forward substitution instead of
 * blts.f's full Gaussian elimination. Both are exact: every skipped term is a product with
 * an exact zero added to a finite sum, or an elimination step whose multiplier is an exact
 * zero, so the surviving operations are those of the reference in the reference's order.
 *
 * <p>Order of the points. Within a plane the lower sweep visits j upwards and i upwards
 * (point (i, j) needs (i-1, j) and (i, j-1) of the same plane, final), the upper sweep j
 * downwards and i downwards. A range of rows [j0, j1) can therefore be swept as soon as row
 * j0 - 1 (lower) or row j1 (upper) of the same plane is final: the pipeline of
 * {@link LuZone#step} hands rows blocks from member to member with {@link SweepPipeline}.
 *
 * <p>Layout: that of {@link LuZone} (5 components per point, point (i, j, k) at
 * 5 * ((k * ny + j) * nxmax + i)).
 */
final class LuSweeps {

    private final int nx, ny, nxmax;
    private final double[] u, v, rho, qs;
    private final double omega;

    // constants of jacld.f / jacu.f (r43, c34, c1345 as there)
    private static final double R43 = 4.0 / 3.0;
    private static final double C34 = C3 * C4;
    private static final double C1345 = C1 * C3 * C4 * C5;
    private static final double R43C34 = R43 * C34;
    private static final double CB = C34 - C1345;          // (c34 - c1345)
    private static final double CR = R43 * C34 - C1345;    // (r43*c34 - c1345)

    private final double dt2, dt2c34, d11;
    private final double e2, e3, e4, e5;                   // dt*2*(tx1*dxm + ty1*dym + tz1*dzm)
    private final double g2, g3, g4;                       // tx1*r43 + ty1 + tz1, ...
    private final double lk2, lk3, lk4;                    // jacld: dt*2*xm*c34
    private final double uk2, uk3, uk4;                    // jacu:  dt*2*(-tx1*r43 - ty1 - tz1), ...
    private final double a2, a3, a4;                       // the three sums of d(5, 2..4)
    private final double dt2a2, dt2a3, dt2a4;
    private final double t1c, dt2t1c;                      // (tx1+ty1+tz1)*c1345, dt*2*(tx1+ty1+tz1)*c1345
    private final double dtx1, dtx2, dty1, dty2, dtz1, dtz2;
    private final double dtx1dx1, dtx1dx2, dtx1dx3, dtx1dx4, dtx1dx5;
    private final double dty1dy1, dty1dy2, dty1dy3, dty1dy4, dty1dy5;
    private final double dtz1dz1, dtz1dz2, dtz1dz3, dtz1dz4, dtz1dz5;

    LuSweeps(LuCoefficients c, int nx, int ny, int nxmax, double[] u, double[] v, double[] rho, double[] qs) {
        this.nx = nx;
        this.ny = ny;
        this.nxmax = nxmax;
        this.u = u;
        this.v = v;
        this.rho = rho;
        this.qs = qs;
        this.omega = c.omega;
        double dt = c.dt;
        double tx1 = c.tx1, ty1 = c.ty1, tz1 = c.tz1;
        dt2 = dt * 2.0;
        dt2c34 = dt * 2.0 * C34;
        d11 = 1.0 + dt * 2.0 * (tx1 * c.dx1 + ty1 * c.dy1 + tz1 * c.dz1);
        e2 = dt * 2.0 * (tx1 * c.dx2 + ty1 * c.dy2 + tz1 * c.dz2);
        e3 = dt * 2.0 * (tx1 * c.dx3 + ty1 * c.dy3 + tz1 * c.dz3);
        e4 = dt * 2.0 * (tx1 * c.dx4 + ty1 * c.dy4 + tz1 * c.dz4);
        e5 = dt * 2.0 * (tx1 * c.dx5 + ty1 * c.dy5 + tz1 * c.dz5);
        g2 = tx1 * R43 + ty1 + tz1;
        g3 = tx1 + ty1 * R43 + tz1;
        g4 = tx1 + ty1 + tz1 * R43;
        lk2 = dt * 2.0 * g2 * C34;
        lk3 = dt * 2.0 * g3 * C34;
        lk4 = dt * 2.0 * g4 * C34;
        uk2 = dt * 2.0 * (-tx1 * R43 - ty1 - tz1);
        uk3 = dt * 2.0 * (-tx1 - ty1 * R43 - tz1);
        uk4 = dt * 2.0 * (-tx1 - ty1 - tz1 * R43);
        a2 = tx1 * CR + ty1 * CB + tz1 * CB;
        a3 = tx1 * CB + ty1 * CR + tz1 * CB;
        a4 = tx1 * CB + ty1 * CB + tz1 * CR;
        dt2a2 = dt * 2.0 * a2;
        dt2a3 = dt * 2.0 * a3;
        dt2a4 = dt * 2.0 * a4;
        t1c = (tx1 + ty1 + tz1) * C1345;
        dt2t1c = dt * 2.0 * (tx1 + ty1 + tz1) * C1345;
        dtx1 = dt * tx1;
        dtx2 = dt * c.tx2;
        dty1 = dt * ty1;
        dty2 = dt * c.ty2;
        dtz1 = dt * tz1;
        dtz2 = dt * c.tz2;
        dtx1dx1 = dtx1 * c.dx1;
        dtx1dx2 = dtx1 * c.dx2;
        dtx1dx3 = dtx1 * c.dx3;
        dtx1dx4 = dtx1 * c.dx4;
        dtx1dx5 = dtx1 * c.dx5;
        dty1dy1 = dty1 * c.dy1;
        dty1dy2 = dty1 * c.dy2;
        dty1dy3 = dty1 * c.dy3;
        dty1dy4 = dty1 * c.dy4;
        dty1dy5 = dty1 * c.dy5;
        dtz1dz1 = dtz1 * c.dz1;
        dtz1dz2 = dtz1 * c.dz2;
        dtz1dz3 = dtz1 * c.dz3;
        dtz1dz4 = dtz1 * c.dz4;
        dtz1dz5 = dtz1 * c.dz5;
    }

    /** Lower sweep of plane k over rows [j0, j1) clipped to the interior rows; rows below must be final. */
    void lower(int k, int j0, int j1) {
        int jLo = Math.max(j0, 1), jHi = Math.min(j1, ny - 1);
        for (int j = jLo; j < jHi; j++) {
            int s = (k * ny + j) * nxmax;
            lowerZ(s);
            lowerXY(s);
        }
    }

    /** Upper sweep of plane k over rows [j0, j1) clipped to the interior rows, j downwards; rows above must be final. */
    void upper(int k, int j0, int j1, double[] tv) {
        int jLo = Math.max(j0, 1), jHi = Math.min(j1, ny - 1);
        for (int j = jHi - 1; j >= jLo; j--) {
            int s = (k * ny + j) * nxmax;
            upperZ(s, tv);
            upperXY(s, tv);
        }
    }

    /** blts.f first loop, one row starting at scalar index s0: v -= omega * a v(k-1), a from jacld.f (rho, u at k-1). */
    private void lowerZ(int s0) {
        final double[] u = this.u, v = this.v, rho = this.rho, qs = this.qs;
        final int sk = nxmax * ny, pk = 5 * sk;
        final double omega = this.omega, dtz1 = this.dtz1, dtz2 = this.dtz2;
        final double a11 = -dtz1dz1, a14 = -dtz2, a45 = -dtz2 * C2;
        for (int i = 1; i < nx - 1; i++) {
            int s = s0 + i, p = 5 * s, q = s - sk, w = p - pk;
            double t1 = rho[q], t2 = t1 * t1, t3 = t1 * t2, qk = qs[q];
            double w2 = u[w + 1], w3 = u[w + 2], w4 = u[w + 3], w5 = u[w + 4];
            double a21 = -dtz2 * (-(w2 * w4) * t2) - dtz1 * (-C34 * t2 * w2);
            double a22 = -dtz2 * (w4 * t1) - dtz1 * C34 * t1 - dtz1dz2;
            double a24 = -dtz2 * (w2 * t1);
            double a31 = -dtz2 * (-(w3 * w4) * t2) - dtz1 * (-C34 * t2 * w3);
            double a33 = -dtz2 * (w4 * t1) - dtz1 * (C34 * t1) - dtz1dz3;
            double a34 = -dtz2 * (w3 * t1);
            double w4t1 = w4 * t1;
            double a41 = -dtz2 * (-(w4t1 * w4t1) + C2 * qk * t1) - dtz1 * (-R43C34 * t2 * w4);
            double a42 = -dtz2 * (-C2 * (w2 * t1));
            double a43 = -dtz2 * (-C2 * (w3 * t1));
            double a44 = -dtz2 * (2.0 - C2) * (w4 * t1) - dtz1 * (R43C34 * t1) - dtz1dz4;
            double a51 = -dtz2 * ((C2 * 2.0 * qk - C1 * w5) * w4 * t2)
                    - dtz1 * (-CB * t3 * (w2 * w2) - CB * t3 * (w3 * w3) - CR * t3 * (w4 * w4) - C1345 * t2 * w5);
            double a52 = -dtz2 * (-C2 * (w2 * w4) * t2) - dtz1 * CB * t2 * w2;
            double a53 = -dtz2 * (-C2 * (w3 * w4) * t2) - dtz1 * CB * t2 * w3;
            double a54 = -dtz2 * (C1 * (w5 * t1) - C2 * (qk * t1 + w4 * w4 * t2)) - dtz1 * CR * t2 * w4;
            double a55 = -dtz2 * (C1 * (w4 * t1)) - dtz1 * C1345 * t1 - dtz1dz5;
            int pm = p - pk;
            double v1 = v[pm], v2 = v[pm + 1], v3 = v[pm + 2], v4 = v[pm + 3], v5 = v[pm + 4];
            v[p] = v[p] - omega * (a11 * v1 + a14 * v4);
            v[p + 1] = v[p + 1] - omega * (a21 * v1 + a22 * v2 + a24 * v4);
            v[p + 2] = v[p + 2] - omega * (a31 * v1 + a33 * v3 + a34 * v4);
            v[p + 3] = v[p + 3] - omega * (a41 * v1 + a42 * v2 + a43 * v3 + a44 * v4 + a45 * v5);
            v[p + 4] = v[p + 4] - omega * (a51 * v1 + a52 * v2 + a53 * v3 + a54 * v4 + a55 * v5);
        }
    }

    /** blts.f second loop, one row, i upwards: b from (j-1), c from (i-1), d at the point (jacld.f), then the 5x5 solve. */
    private void lowerXY(int s0) {
        final double[] u = this.u, v = this.v, rho = this.rho, qs = this.qs;
        final int sj = nxmax, pj = 5 * sj;
        final double omega = this.omega, dtx1 = this.dtx1, dtx2 = this.dtx2, dty1 = this.dty1, dty2 = this.dty2;
        final double b11 = -dty1dy1, b13 = -dty2, b35 = -dty2 * C2;
        final double c11 = -dtx1dx1, c12 = -dtx2, c25 = -dtx2 * C2;
        final double d11 = this.d11, r11 = 1.0 / d11;
        int p0 = 5 * s0;
        // v at (i-1, j): carried from one point to the next
        double x1 = v[p0], x2 = v[p0 + 1], x3 = v[p0 + 2], x4 = v[p0 + 3], x5 = v[p0 + 4];
        for (int i = 1; i < nx - 1; i++) {
            int s = s0 + i, p = 5 * s;
            // b: jacld.f's second block sub-diagonal, from (i, j-1)
            int qy = s - sj, py = p - pj;
            double t1 = rho[qy], t2 = t1 * t1, t3 = t1 * t2, qq = qs[qy];
            double y2 = u[py + 1], y3 = u[py + 2], y4 = u[py + 3], y5 = u[py + 4];
            double b21 = -dty2 * (-(y2 * y3) * t2) - dty1 * (-C34 * t2 * y2);
            double b22 = -dty2 * (y3 * t1) - dty1 * (C34 * t1) - dty1dy2;
            double b23 = -dty2 * (y2 * t1);
            double y3t1 = y3 * t1;
            double b31 = -dty2 * (-(y3t1 * y3t1) + C2 * (qq * t1)) - dty1 * (-R43C34 * t2 * y3);
            double b32 = -dty2 * (-C2 * (y2 * t1));
            double b33 = -dty2 * ((2.0 - C2) * (y3 * t1)) - dty1 * (R43C34 * t1) - dty1dy3;
            double b34 = -dty2 * (-C2 * (y4 * t1));
            double b41 = -dty2 * (-(y3 * y4) * t2) - dty1 * (-C34 * t2 * y4);
            double b43 = -dty2 * (y4 * t1);
            double b44 = -dty2 * (y3 * t1) - dty1 * (C34 * t1) - dty1dy4;
            double b51 = -dty2 * ((C2 * 2.0 * qq - C1 * y5) * (y3 * t2))
                    - dty1 * (-CB * t3 * (y2 * y2) - CR * t3 * (y3 * y3) - CB * t3 * (y4 * y4) - C1345 * t2 * y5);
            double b52 = -dty2 * (-C2 * (y2 * y3) * t2) - dty1 * CB * t2 * y2;
            double b53 = -dty2 * (C1 * (y5 * t1) - C2 * (qq * t1 + y3 * y3 * t2)) - dty1 * CR * t2 * y3;
            double b54 = -dty2 * (-C2 * (y3 * y4) * t2) - dty1 * CB * t2 * y4;
            double b55 = -dty2 * (C1 * (y3 * t1)) - dty1 * C1345 * t1 - dty1dy5;
            // c: jacld.f's third block sub-diagonal, from (i-1, j)
            int qx = s - 1, px = p - 5;
            t1 = rho[qx];
            t2 = t1 * t1;
            t3 = t1 * t2;
            qq = qs[qx];
            double z2 = u[px + 1], z3 = u[px + 2], z4 = u[px + 3], z5 = u[px + 4];
            double z2t1 = z2 * t1;
            double c21 = -dtx2 * (-(z2t1 * z2t1) + C2 * qq * t1) - dtx1 * (-R43C34 * t2 * z2);
            double c22 = -dtx2 * ((2.0 - C2) * (z2 * t1)) - dtx1 * (R43C34 * t1) - dtx1dx2;
            double c23 = -dtx2 * (-C2 * (z3 * t1));
            double c24 = -dtx2 * (-C2 * (z4 * t1));
            double c31 = -dtx2 * (-(z2 * z3) * t2) - dtx1 * (-C34 * t2 * z3);
            double c32 = -dtx2 * (z3 * t1);
            double c33 = -dtx2 * (z2 * t1) - dtx1 * (C34 * t1) - dtx1dx3;
            double c41 = -dtx2 * (-(z2 * z4) * t2) - dtx1 * (-C34 * t2 * z4);
            double c42 = -dtx2 * (z4 * t1);
            double c44 = -dtx2 * (z2 * t1) - dtx1 * (C34 * t1) - dtx1dx4;
            double c51 = -dtx2 * ((C2 * 2.0 * qq - C1 * z5) * z2 * t2)
                    - dtx1 * (-CR * t3 * (z2 * z2) - CB * t3 * (z3 * z3) - CB * t3 * (z4 * z4) - C1345 * t2 * z5);
            double c52 = -dtx2 * (C1 * (z5 * t1) - C2 * (z2 * z2 * t2 + qq * t1)) - dtx1 * CR * t2 * z2;
            double c53 = -dtx2 * (-C2 * (z3 * z2) * t2) - dtx1 * CB * t2 * z3;
            double c54 = -dtx2 * (-C2 * (z4 * z2) * t2) - dtx1 * CB * t2 * z4;
            double c55 = -dtx2 * (C1 * (z2 * t1)) - dtx1 * C1345 * t1 - dtx1dx5;
            // v at (i, j-1)
            double w1 = v[py], w2 = v[py + 1], w3 = v[py + 2], w4 = v[py + 3], w5 = v[py + 4];
            double tv1 = v[p] - omega * (b11 * w1 + c11 * x1 + c12 * x2 + b13 * w3);
            double tv2 = v[p + 1] - omega * (b21 * w1 + c21 * x1 + b22 * w2 + c22 * x2 + b23 * w3 + c23 * x3
                    + c24 * x4 + c25 * x5);
            double tv3 = v[p + 2] - omega * (b31 * w1 + c31 * x1 + b32 * w2 + c32 * x2 + b33 * w3 + c33 * x3
                    + b34 * w4 + b35 * w5);
            double tv4 = v[p + 3] - omega * (b41 * w1 + c41 * x1 + c42 * x2 + b43 * w3 + b44 * w4 + c44 * x4);
            double tv5 = v[p + 4] - omega * (b51 * w1 + c51 * x1 + b52 * w2 + c52 * x2 + b53 * w3 + c53 * x3
                    + b54 * w4 + c54 * x4 + b55 * w5 + c55 * x5);
            // d: jacld.f's block diagonal at (i, j), lower triangular
            t1 = rho[s];
            t2 = t1 * t1;
            t3 = t1 * t2;
            double u2 = u[p + 1], u3 = u[p + 2], u4 = u[p + 3], u5 = u[p + 4];
            double d21 = -(lk2 * t2 * u2);
            double d22 = 1.0 + dt2c34 * t1 * g2 + e2;
            double d31 = -(lk3 * t2 * u3);
            double d33 = 1.0 + dt2c34 * t1 * g3 + e3;
            double d41 = -(lk4 * t2 * u4);
            double d44 = 1.0 + dt2c34 * t1 * g4 + e4;
            double d51 = -(dt2 * ((a2 * (u2 * u2) + a3 * (u3 * u3) + a4 * (u4 * u4)) * t3 + t1c * t2 * u5));
            double d52 = dt2 * t2 * u2 * a2;
            double d53 = dt2 * t2 * u3 * a3;
            double d54 = dt2 * t2 * u4 * a4;
            double d55 = 1.0 + dt2t1c * t1 + e5;
            // blts.f's elimination, its zero multipliers left out
            tv2 = tv2 - tv1 * (r11 * d21);
            tv3 = tv3 - tv1 * (r11 * d31);
            tv4 = tv4 - tv1 * (r11 * d41);
            tv5 = tv5 - tv1 * (r11 * d51);
            tv5 = tv5 - tv2 * ((1.0 / d22) * d52);
            tv5 = tv5 - tv3 * ((1.0 / d33) * d53);
            tv5 = tv5 - tv4 * ((1.0 / d44) * d54);
            x5 = tv5 / d55;
            x4 = tv4 / d44;
            x3 = tv3 / d33;
            x2 = tv2 / d22;
            x1 = tv1 / d11;
            v[p] = x1;
            v[p + 1] = x2;
            v[p + 2] = x3;
            v[p + 3] = x4;
            v[p + 4] = x5;
        }
    }

    /** buts.f first loop, one row: tv = omega * c v(k+1), c from jacu.f (rho, u at k+1). */
    private void upperZ(int s0, double[] tv) {
        final double[] u = this.u, v = this.v, rho = this.rho, qs = this.qs;
        final int sk = nxmax * ny, pk = 5 * sk;
        final double omega = this.omega, dtz1 = this.dtz1, dtz2 = this.dtz2;
        final double c11 = -dtz1dz1, c14 = dtz2, c45 = dtz2 * C2;
        for (int i = 1; i < nx - 1; i++) {
            int s = s0 + i, p = 5 * s, q = s + sk, w = p + pk;
            double t1 = rho[q], t2 = t1 * t1, t3 = t1 * t2, qk = qs[q];
            double w2 = u[w + 1], w3 = u[w + 2], w4 = u[w + 3], w5 = u[w + 4];
            double c21 = dtz2 * (-(w2 * w4) * t2) - dtz1 * (-C34 * t2 * w2);
            double c22 = dtz2 * (w4 * t1) - dtz1 * C34 * t1 - dtz1dz2;
            double c24 = dtz2 * (w2 * t1);
            double c31 = dtz2 * (-(w3 * w4) * t2) - dtz1 * (-C34 * t2 * w3);
            double c33 = dtz2 * (w4 * t1) - dtz1 * (C34 * t1) - dtz1dz3;
            double c34 = dtz2 * (w3 * t1);
            double w4t1 = w4 * t1;
            double c41 = dtz2 * (-(w4t1 * w4t1) + C2 * (qk * t1)) - dtz1 * (-R43C34 * t2 * w4);
            double c42 = dtz2 * (-C2 * (w2 * t1));
            double c43 = dtz2 * (-C2 * (w3 * t1));
            double c44 = dtz2 * (2.0 - C2) * (w4 * t1) - dtz1 * (R43C34 * t1) - dtz1dz4;
            double c51 = dtz2 * ((C2 * 2.0 * qk - C1 * w5) * (w4 * t2))
                    - dtz1 * (-CB * t3 * (w2 * w2) - CB * t3 * (w3 * w3) - CR * t3 * (w4 * w4) - C1345 * t2 * w5);
            double c52 = dtz2 * (-C2 * (w2 * w4) * t2) - dtz1 * CB * t2 * w2;
            double c53 = dtz2 * (-C2 * (w3 * w4) * t2) - dtz1 * CB * t2 * w3;
            double c54 = dtz2 * (C1 * (w5 * t1) - C2 * (qk * t1 + w4 * w4 * t2)) - dtz1 * CR * t2 * w4;
            double c55 = dtz2 * (C1 * (w4 * t1)) - dtz1 * C1345 * t1 - dtz1dz5;
            double v1 = v[w], v2 = v[w + 1], v3 = v[w + 2], v4 = v[w + 3], v5 = v[w + 4];
            int f = 5 * i;
            tv[f] = omega * (c11 * v1 + c14 * v4);
            tv[f + 1] = omega * (c21 * v1 + c22 * v2 + c24 * v4);
            tv[f + 2] = omega * (c31 * v1 + c33 * v3 + c34 * v4);
            tv[f + 3] = omega * (c41 * v1 + c42 * v2 + c43 * v3 + c44 * v4 + c45 * v5);
            tv[f + 4] = omega * (c51 * v1 + c52 * v2 + c53 * v3 + c54 * v4 + c55 * v5);
        }
    }

    /** buts.f second loop, one row, i downwards: a from (i+1), b from (j+1), d at the point (jacu.f), solve, v -= tv. */
    private void upperXY(int s0, double[] tv) {
        final double[] u = this.u, v = this.v, rho = this.rho, qs = this.qs;
        final int sj = nxmax, pj = 5 * sj;
        final double omega = this.omega, dtx1 = this.dtx1, dtx2 = this.dtx2, dty1 = this.dty1, dty2 = this.dty2;
        final double a11 = -dtx1dx1, a12 = dtx2, a25 = dtx2 * C2;
        final double b11 = -dty1dy1, b13 = dty2, b35 = dty2 * C2;
        final double d11 = this.d11, r11 = 1.0 / d11;
        int pe = 5 * (s0 + nx - 1);
        // v at (i+1, j): carried from one point to the next
        double x1 = v[pe], x2 = v[pe + 1], x3 = v[pe + 2], x4 = v[pe + 3], x5 = v[pe + 4];
        for (int i = nx - 2; i >= 1; i--) {
            int s = s0 + i, p = 5 * s;
            // b: jacu.f's second block super-diagonal, from (i, j+1)
            int qy = s + sj, py = p + pj;
            double t1 = rho[qy], t2 = t1 * t1, t3 = t1 * t2, qq = qs[qy];
            double y2 = u[py + 1], y3 = u[py + 2], y4 = u[py + 3], y5 = u[py + 4];
            double b21 = dty2 * (-(y2 * y3) * t2) - dty1 * (-C34 * t2 * y2);
            double b22 = dty2 * (y3 * t1) - dty1 * (C34 * t1) - dty1dy2;
            double b23 = dty2 * (y2 * t1);
            double y3t1 = y3 * t1;
            double b31 = dty2 * (-(y3t1 * y3t1) + C2 * (qq * t1)) - dty1 * (-R43C34 * t2 * y3);
            double b32 = dty2 * (-C2 * (y2 * t1));
            double b33 = dty2 * ((2.0 - C2) * (y3 * t1)) - dty1 * (R43C34 * t1) - dty1dy3;
            double b34 = dty2 * (-C2 * (y4 * t1));
            double b41 = dty2 * (-(y3 * y4) * t2) - dty1 * (-C34 * t2 * y4);
            double b43 = dty2 * (y4 * t1);
            double b44 = dty2 * (y3 * t1) - dty1 * (C34 * t1) - dty1dy4;
            double b51 = dty2 * ((C2 * 2.0 * qq - C1 * y5) * (y3 * t2))
                    - dty1 * (-CB * t3 * (y2 * y2) - CR * t3 * (y3 * y3) - CB * t3 * (y4 * y4) - C1345 * t2 * y5);
            double b52 = dty2 * (-C2 * (y2 * y3) * t2) - dty1 * CB * t2 * y2;
            double b53 = dty2 * (C1 * (y5 * t1) - C2 * (qq * t1 + y3 * y3 * t2)) - dty1 * CR * t2 * y3;
            double b54 = dty2 * (-C2 * (y3 * y4) * t2) - dty1 * CB * t2 * y4;
            double b55 = dty2 * (C1 * (y3 * t1)) - dty1 * C1345 * t1 - dty1dy5;
            // a: jacu.f's first block super-diagonal, from (i+1, j)
            int qx = s + 1, px = p + 5;
            t1 = rho[qx];
            t2 = t1 * t1;
            t3 = t1 * t2;
            qq = qs[qx];
            double z2 = u[px + 1], z3 = u[px + 2], z4 = u[px + 3], z5 = u[px + 4];
            double z2t1 = z2 * t1;
            double a21 = dtx2 * (-(z2t1 * z2t1) + C2 * qq * t1) - dtx1 * (-R43C34 * t2 * z2);
            double a22 = dtx2 * ((2.0 - C2) * (z2 * t1)) - dtx1 * (R43C34 * t1) - dtx1dx2;
            double a23 = dtx2 * (-C2 * (z3 * t1));
            double a24 = dtx2 * (-C2 * (z4 * t1));
            double a31 = dtx2 * (-(z2 * z3) * t2) - dtx1 * (-C34 * t2 * z3);
            double a32 = dtx2 * (z3 * t1);
            double a33 = dtx2 * (z2 * t1) - dtx1 * (C34 * t1) - dtx1dx3;
            double a41 = dtx2 * (-(z2 * z4) * t2) - dtx1 * (-C34 * t2 * z4);
            double a42 = dtx2 * (z4 * t1);
            double a44 = dtx2 * (z2 * t1) - dtx1 * (C34 * t1) - dtx1dx4;
            double a51 = dtx2 * ((C2 * 2.0 * qq - C1 * z5) * (z2 * t2))
                    - dtx1 * (-CR * t3 * (z2 * z2) - CB * t3 * (z3 * z3) - CB * t3 * (z4 * z4) - C1345 * t2 * z5);
            double a52 = dtx2 * (C1 * (z5 * t1) - C2 * (z2 * z2 * t2 + qq * t1)) - dtx1 * CR * t2 * z2;
            double a53 = dtx2 * (-C2 * (z3 * z2) * t2) - dtx1 * CB * t2 * z3;
            double a54 = dtx2 * (-C2 * (z4 * z2) * t2) - dtx1 * CB * t2 * z4;
            double a55 = dtx2 * (C1 * (z2 * t1)) - dtx1 * C1345 * t1 - dtx1dx5;
            // v at (i, j+1)
            double w1 = v[py], w2 = v[py + 1], w3 = v[py + 2], w4 = v[py + 3], w5 = v[py + 4];
            int f = 5 * i;
            double tv1 = tv[f] + omega * (b11 * w1 + a11 * x1 + a12 * x2 + b13 * w3);
            double tv2 = tv[f + 1] + omega * (b21 * w1 + a21 * x1 + b22 * w2 + a22 * x2 + b23 * w3 + a23 * x3
                    + a24 * x4 + a25 * x5);
            double tv3 = tv[f + 2] + omega * (b31 * w1 + a31 * x1 + b32 * w2 + a32 * x2 + b33 * w3 + a33 * x3
                    + b34 * w4 + b35 * w5);
            double tv4 = tv[f + 3] + omega * (b41 * w1 + a41 * x1 + a42 * x2 + b43 * w3 + b44 * w4 + a44 * x4);
            double tv5 = tv[f + 4] + omega * (b51 * w1 + a51 * x1 + b52 * w2 + a52 * x2 + b53 * w3 + a53 * x3
                    + b54 * w4 + a54 * x4 + b55 * w5 + a55 * x5);
            // d: jacu.f's block diagonal at (i, j), lower triangular
            t1 = rho[s];
            t2 = t1 * t1;
            t3 = t1 * t2;
            double u2 = u[p + 1], u3 = u[p + 2], u4 = u[p + 3], u5 = u[p + 4];
            double d21 = uk2 * (C34 * t2 * u2);
            double d22 = 1.0 + dt2c34 * t1 * g2 + e2;
            double d31 = uk3 * (C34 * t2 * u3);
            double d33 = 1.0 + dt2c34 * t1 * g3 + e3;
            double d41 = uk4 * (C34 * t2 * u4);
            double d44 = 1.0 + dt2c34 * t1 * g4 + e4;
            double d51 = -(dt2 * ((a2 * (u2 * u2) + a3 * (u3 * u3) + a4 * (u4 * u4)) * t3 + t1c * t2 * u5));
            double d52 = dt2a2 * t2 * u2;
            double d53 = dt2a3 * t2 * u3;
            double d54 = dt2a4 * t2 * u4;
            double d55 = 1.0 + dt2t1c * t1 + e5;
            // buts.f's elimination, its zero multipliers left out
            tv2 = tv2 - tv1 * (r11 * d21);
            tv3 = tv3 - tv1 * (r11 * d31);
            tv4 = tv4 - tv1 * (r11 * d41);
            tv5 = tv5 - tv1 * (r11 * d51);
            tv5 = tv5 - tv2 * ((1.0 / d22) * d52);
            tv5 = tv5 - tv3 * ((1.0 / d33) * d53);
            tv5 = tv5 - tv4 * ((1.0 / d44) * d54);
            tv5 = tv5 / d55;
            tv4 = tv4 / d44;
            tv3 = tv3 / d33;
            tv2 = tv2 / d22;
            tv1 = tv1 / d11;
            x1 = v[p] - tv1;
            x2 = v[p + 1] - tv2;
            x3 = v[p + 2] - tv3;
            x4 = v[p + 3] - tv4;
            x5 = v[p + 4] - tv5;
            v[p] = x1;
            v[p + 1] = x2;
            v[p + 2] = x3;
            v[p + 3] = x4;
            v[p + 4] = x5;
        }
    }
}
