package dev.tessera.npbmz.bt;

/**
 * The 5 x 5 block kernels of BT's block-tridiagonal line solves (the reference's
 * solve_subs.f: matvec_sub, matmul_sub, binvcrhs, binvrhs), written out entry by entry on
 * local variables. A block is 25 doubles in row-major order: entry (m, n) of the block at
 * offset {@code o} is {@code a[o + 5 * m + n]}; a vector is 5 consecutive doubles.
 *
 * <p>The forward sweep of a line in direction D (X, Y or Z) calls {@code firstD} at its first
 * point, {@code stepD} at the points after it and {@code lastStepD} at its last point;
 * {@link #matvecSub} does the back substitution. A step is the reference's matvec_sub,
 * matmul_sub and binvcrhs fused: the updated B and r stay in locals from one to the next, so
 * only C' and r are stored, and the JIT checks each array's bounds once per call.
 *
 * <p>Exact zeros. The Jacobians of direction D leave fixed entries of A, B and C exactly
 * zero (BtLineSolver's form methods do not even store them). The kernels of D never read
 * those entries and skip every product with a value known to be exactly zero, following
 * the zeros through the elimination as long as they last (B of the first point is nearly
 * triangular, so {@code firstD} is mostly skipped work). x - 0 * y is x and 0 - y is -y, so
 * the results are unchanged; every remaining operation is the reference's, in its order,
 * and the results are the reference's bit for bit (Java does not contract a * b + c into a
 * fused multiply-add).
 *
 * <p>Generated code (a short script wrote the entries out from the Jacobians' zero patterns);
 * edit the pattern, not one line.
 */
final class BlockOps {

    private BlockOps() {
    }

    /** b -= A * v (reference: matvec_sub). v and b may be parts of one array if they do not overlap. */
    static void matvecSub(double[] a, int ao, double[] v, int vo, double[] b, int bo) {
        double v0 = v[vo + 0], v1 = v[vo + 1], v2 = v[vo + 2], v3 = v[vo + 3], v4 = v[vo + 4];
        b[bo + 0] = b[bo + 0] - a[ao + 0] * v0 - a[ao + 1] * v1 - a[ao + 2] * v2 - a[ao + 3] * v3 - a[ao + 4] * v4;
        b[bo + 1] = b[bo + 1] - a[ao + 5] * v0 - a[ao + 6] * v1 - a[ao + 7] * v2 - a[ao + 8] * v3 - a[ao + 9] * v4;
        b[bo + 2] = b[bo + 2] - a[ao + 10] * v0 - a[ao + 11] * v1 - a[ao + 12] * v2 - a[ao + 13] * v3 - a[ao + 14] * v4;
        b[bo + 3] = b[bo + 3] - a[ao + 15] * v0 - a[ao + 16] * v1 - a[ao + 17] * v2 - a[ao + 18] * v3 - a[ao + 19] * v4;
        b[bo + 4] = b[bo + 4] - a[ao + 20] * v0 - a[ao + 21] * v1 - a[ao + 22] * v2 - a[ao + 23] * v3 - a[ao + 24] * v4;
    }

    /** First point of a X line: C' = B^-1 C and r = B^-1 r by Gauss-Jordan elimination without pivoting (binvcrhs). */
    static void firstX(double[] l, int bo, int co, double[] r, int ro) {
        double l00 = l[bo + 0], l01 = 0.0, l02 = 0.0, l03 = 0.0, l04 = 0.0;
        double l10 = l[bo + 5], l11 = l[bo + 6], l12 = 0.0, l13 = 0.0, l14 = 0.0;
        double l20 = l[bo + 10], l21 = 0.0, l22 = l[bo + 12], l23 = 0.0, l24 = 0.0;
        double l30 = l[bo + 15], l31 = 0.0, l32 = 0.0, l33 = l[bo + 18], l34 = 0.0;
        double l40 = l[bo + 20], l41 = l[bo + 21], l42 = l[bo + 22], l43 = l[bo + 23], l44 = l[bo + 24];
        double c00 = l[co + 0], c01 = l[co + 1], c02 = 0.0, c03 = 0.0, c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = l[co + 7], c13 = l[co + 8], c14 = l[co + 9];
        double c20 = l[co + 10], c21 = l[co + 11], c22 = l[co + 12], c23 = 0.0, c24 = 0.0;
        double c30 = l[co + 15], c31 = l[co + 16], c32 = 0.0, c33 = l[co + 18], c34 = 0.0;
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double r0 = r[ro + 0], r1 = r[ro + 1], r2 = r[ro + 2], r3 = r[ro + 3], r4 = r[ro + 4];
        double pivot, coeff;
        pivot = 1.0 / l00; c00 = c00 * pivot; c01 = c01 * pivot; r0 = r0 * pivot;
        coeff = l10; c10 = c10 - coeff * c00; c11 = c11 - coeff * c01; r1 = r1 - coeff * r0;
        coeff = l20; c20 = c20 - coeff * c00; c21 = c21 - coeff * c01; r2 = r2 - coeff * r0;
        coeff = l30; c30 = c30 - coeff * c00; c31 = c31 - coeff * c01; r3 = r3 - coeff * r0;
        coeff = l40; c40 = c40 - coeff * c00; c41 = c41 - coeff * c01; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; c10 = c10 * pivot; c11 = c11 * pivot; c12 = c12 * pivot; c13 = c13 * pivot; c14 = c14 * pivot; r1 = r1 * pivot;
        coeff = l41; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c42 = c42 - coeff * c12; c43 = c43 - coeff * c13; c44 = c44 - coeff * c14; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; c20 = c20 * pivot; c21 = c21 * pivot; c22 = c22 * pivot; r2 = r2 * pivot;
        coeff = l42; c40 = c40 - coeff * c20; c41 = c41 - coeff * c21; c42 = c42 - coeff * c22; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; c30 = c30 * pivot; c31 = c31 * pivot; c33 = c33 * pivot; r3 = r3 * pivot;
        coeff = l43; c40 = c40 - coeff * c30; c41 = c41 - coeff * c31; c43 = c43 - coeff * c33; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /**
     * One point of the forward sweep of a X line: r -= A r_prev (matvec_sub), B -= A C'_prev
     * (matmul_sub), then C' = B^-1 C and r = B^-1 r (binvcrhs). A, B, C of the point at ao, bo,
     * co; C' of the previous point at cpo; r and r_prev at ro and rpo.
     */
    static void stepX(double[] l, int ao, int bo, int co, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a01 = l[ao + 1];
        double a10 = l[ao + 5], a11 = l[ao + 6], a12 = l[ao + 7], a13 = l[ao + 8], a14 = l[ao + 9];
        double a20 = l[ao + 10], a21 = l[ao + 11], a22 = l[ao + 12];
        double a30 = l[ao + 15], a31 = l[ao + 16], a33 = l[ao + 18];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a01 * v1;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a12 * v2 - a13 * v3 - a14 * v4;
        double r2 = r[ro + 2] - a20 * v0 - a21 * v1 - a22 * v2;
        double r3 = r[ro + 3] - a30 * v0 - a31 * v1 - a33 * v3;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a01 * p1;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l20 = l[bo + 10] - a20 * p0 - a21 * p1 - a22 * p2;
        double l30 = l[bo + 15] - a30 * p0 - a31 * p1 - a33 * p3;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a01 * p1;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l21 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l31 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a01 * p1;
        double l12 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l22 = l[bo + 12] - a20 * p0 - a21 * p1 - a22 * p2;
        double l32 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a01 * p1;
        double l13 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l23 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l33 = l[bo + 18] - a30 * p0 - a31 * p1 - a33 * p3;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a01 * p1;
        double l14 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l24 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l34 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double c00 = l[co + 0], c01 = l[co + 1], c02 = 0.0, c03 = 0.0, c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = l[co + 7], c13 = l[co + 8], c14 = l[co + 9];
        double c20 = l[co + 10], c21 = l[co + 11], c22 = l[co + 12], c23 = 0.0, c24 = 0.0;
        double c30 = l[co + 15], c31 = l[co + 16], c32 = 0.0, c33 = l[co + 18], c34 = 0.0;
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; c00 = c00 * pivot; c01 = c01 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; c10 = c10 - coeff * c00; c11 = c11 - coeff * c01; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; c20 = c20 - coeff * c00; c21 = c21 - coeff * c01; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; c30 = c30 - coeff * c00; c31 = c31 - coeff * c01; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; c40 = c40 - coeff * c00; c41 = c41 - coeff * c01; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; c10 = c10 * pivot; c11 = c11 * pivot; c12 = c12 * pivot; c13 = c13 * pivot; c14 = c14 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; c00 = c00 - coeff * c10; c01 = c01 - coeff * c11; c02 = -(coeff * c12); c03 = -(coeff * c13); c04 = -(coeff * c14); r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; c20 = c20 - coeff * c10; c21 = c21 - coeff * c11; c22 = c22 - coeff * c12; c23 = -(coeff * c13); c24 = -(coeff * c14); r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; c30 = c30 - coeff * c10; c31 = c31 - coeff * c11; c32 = -(coeff * c12); c33 = c33 - coeff * c13; c34 = -(coeff * c14); r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c42 = c42 - coeff * c12; c43 = c43 - coeff * c13; c44 = c44 - coeff * c14; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; c20 = c20 * pivot; c21 = c21 * pivot; c22 = c22 * pivot; c23 = c23 * pivot; c24 = c24 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; c00 = c00 - coeff * c20; c01 = c01 - coeff * c21; c02 = c02 - coeff * c22; c03 = c03 - coeff * c23; c04 = c04 - coeff * c24; r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; c10 = c10 - coeff * c20; c11 = c11 - coeff * c21; c12 = c12 - coeff * c22; c13 = c13 - coeff * c23; c14 = c14 - coeff * c24; r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; c30 = c30 - coeff * c20; c31 = c31 - coeff * c21; c32 = c32 - coeff * c22; c33 = c33 - coeff * c23; c34 = c34 - coeff * c24; r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; c40 = c40 - coeff * c20; c41 = c41 - coeff * c21; c42 = c42 - coeff * c22; c43 = c43 - coeff * c23; c44 = c44 - coeff * c24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; c30 = c30 * pivot; c31 = c31 * pivot; c32 = c32 * pivot; c33 = c33 * pivot; c34 = c34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; c00 = c00 - coeff * c30; c01 = c01 - coeff * c31; c02 = c02 - coeff * c32; c03 = c03 - coeff * c33; c04 = c04 - coeff * c34; r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; c10 = c10 - coeff * c30; c11 = c11 - coeff * c31; c12 = c12 - coeff * c32; c13 = c13 - coeff * c33; c14 = c14 - coeff * c34; r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; c20 = c20 - coeff * c30; c21 = c21 - coeff * c31; c22 = c22 - coeff * c32; c23 = c23 - coeff * c33; c24 = c24 - coeff * c34; r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; c40 = c40 - coeff * c30; c41 = c41 - coeff * c31; c42 = c42 - coeff * c32; c43 = c43 - coeff * c33; c44 = c44 - coeff * c34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        coeff = l04; c00 = c00 - coeff * c40; c01 = c01 - coeff * c41; c02 = c02 - coeff * c42; c03 = c03 - coeff * c43; c04 = c04 - coeff * c44; r0 = r0 - coeff * r4;
        coeff = l14; c10 = c10 - coeff * c40; c11 = c11 - coeff * c41; c12 = c12 - coeff * c42; c13 = c13 - coeff * c43; c14 = c14 - coeff * c44; r1 = r1 - coeff * r4;
        coeff = l24; c20 = c20 - coeff * c40; c21 = c21 - coeff * c41; c22 = c22 - coeff * c42; c23 = c23 - coeff * c43; c24 = c24 - coeff * c44; r2 = r2 - coeff * r4;
        coeff = l34; c30 = c30 - coeff * c40; c31 = c31 - coeff * c41; c32 = c32 - coeff * c42; c33 = c33 - coeff * c43; c34 = c34 - coeff * c44; r3 = r3 - coeff * r4;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /** The last point of the forward sweep of a X line: as stepX without C (binvrhs instead of binvcrhs). */
    static void lastStepX(double[] l, int ao, int bo, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a01 = l[ao + 1];
        double a10 = l[ao + 5], a11 = l[ao + 6], a12 = l[ao + 7], a13 = l[ao + 8], a14 = l[ao + 9];
        double a20 = l[ao + 10], a21 = l[ao + 11], a22 = l[ao + 12];
        double a30 = l[ao + 15], a31 = l[ao + 16], a33 = l[ao + 18];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a01 * v1;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a12 * v2 - a13 * v3 - a14 * v4;
        double r2 = r[ro + 2] - a20 * v0 - a21 * v1 - a22 * v2;
        double r3 = r[ro + 3] - a30 * v0 - a31 * v1 - a33 * v3;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a01 * p1;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l20 = l[bo + 10] - a20 * p0 - a21 * p1 - a22 * p2;
        double l30 = l[bo + 15] - a30 * p0 - a31 * p1 - a33 * p3;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a01 * p1;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l21 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l31 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a01 * p1;
        double l12 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l22 = l[bo + 12] - a20 * p0 - a21 * p1 - a22 * p2;
        double l32 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a01 * p1;
        double l13 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l23 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l33 = l[bo + 18] - a30 * p0 - a31 * p1 - a33 * p3;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a01 * p1;
        double l14 = -a10 * p0 - a11 * p1 - a12 * p2 - a13 * p3 - a14 * p4;
        double l24 = -a20 * p0 - a21 * p1 - a22 * p2;
        double l34 = -a30 * p0 - a31 * p1 - a33 * p3;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; r4 = r4 * pivot;
        coeff = l04; r0 = r0 - coeff * r4;
        coeff = l14; r1 = r1 - coeff * r4;
        coeff = l24; r2 = r2 - coeff * r4;
        coeff = l34; r3 = r3 - coeff * r4;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /** First point of a Y line: C' = B^-1 C and r = B^-1 r by Gauss-Jordan elimination without pivoting (binvcrhs). */
    static void firstY(double[] l, int bo, int co, double[] r, int ro) {
        double l00 = l[bo + 0], l01 = 0.0, l02 = 0.0, l03 = 0.0, l04 = 0.0;
        double l10 = l[bo + 5], l11 = l[bo + 6], l12 = 0.0, l13 = 0.0, l14 = 0.0;
        double l20 = l[bo + 10], l21 = 0.0, l22 = l[bo + 12], l23 = 0.0, l24 = 0.0;
        double l30 = l[bo + 15], l31 = 0.0, l32 = 0.0, l33 = l[bo + 18], l34 = 0.0;
        double l40 = l[bo + 20], l41 = l[bo + 21], l42 = l[bo + 22], l43 = l[bo + 23], l44 = l[bo + 24];
        double c00 = l[co + 0], c01 = 0.0, c02 = l[co + 2], c03 = 0.0, c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = l[co + 7], c13 = 0.0, c14 = 0.0;
        double c20 = l[co + 10], c21 = l[co + 11], c22 = l[co + 12], c23 = l[co + 13], c24 = l[co + 14];
        double c30 = l[co + 15], c31 = 0.0, c32 = l[co + 17], c33 = l[co + 18], c34 = 0.0;
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double r0 = r[ro + 0], r1 = r[ro + 1], r2 = r[ro + 2], r3 = r[ro + 3], r4 = r[ro + 4];
        double pivot, coeff;
        pivot = 1.0 / l00; c00 = c00 * pivot; c02 = c02 * pivot; r0 = r0 * pivot;
        coeff = l10; c10 = c10 - coeff * c00; c12 = c12 - coeff * c02; r1 = r1 - coeff * r0;
        coeff = l20; c20 = c20 - coeff * c00; c22 = c22 - coeff * c02; r2 = r2 - coeff * r0;
        coeff = l30; c30 = c30 - coeff * c00; c32 = c32 - coeff * c02; r3 = r3 - coeff * r0;
        coeff = l40; c40 = c40 - coeff * c00; c42 = c42 - coeff * c02; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; c10 = c10 * pivot; c11 = c11 * pivot; c12 = c12 * pivot; r1 = r1 * pivot;
        coeff = l41; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c42 = c42 - coeff * c12; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; c20 = c20 * pivot; c21 = c21 * pivot; c22 = c22 * pivot; c23 = c23 * pivot; c24 = c24 * pivot; r2 = r2 * pivot;
        coeff = l42; c40 = c40 - coeff * c20; c41 = c41 - coeff * c21; c42 = c42 - coeff * c22; c43 = c43 - coeff * c23; c44 = c44 - coeff * c24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; c30 = c30 * pivot; c32 = c32 * pivot; c33 = c33 * pivot; r3 = r3 * pivot;
        coeff = l43; c40 = c40 - coeff * c30; c42 = c42 - coeff * c32; c43 = c43 - coeff * c33; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /**
     * One point of the forward sweep of a Y line: r -= A r_prev (matvec_sub), B -= A C'_prev
     * (matmul_sub), then C' = B^-1 C and r = B^-1 r (binvcrhs). A, B, C of the point at ao, bo,
     * co; C' of the previous point at cpo; r and r_prev at ro and rpo.
     */
    static void stepY(double[] l, int ao, int bo, int co, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a02 = l[ao + 2];
        double a10 = l[ao + 5], a11 = l[ao + 6], a12 = l[ao + 7];
        double a20 = l[ao + 10], a21 = l[ao + 11], a22 = l[ao + 12], a23 = l[ao + 13], a24 = l[ao + 14];
        double a30 = l[ao + 15], a32 = l[ao + 17], a33 = l[ao + 18];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a02 * v2;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a12 * v2;
        double r2 = r[ro + 2] - a20 * v0 - a21 * v1 - a22 * v2 - a23 * v3 - a24 * v4;
        double r3 = r[ro + 3] - a30 * v0 - a32 * v2 - a33 * v3;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a02 * p2;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a12 * p2;
        double l20 = l[bo + 10] - a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l30 = l[bo + 15] - a30 * p0 - a32 * p2 - a33 * p3;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a02 * p2;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a12 * p2;
        double l21 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l31 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a02 * p2;
        double l12 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l22 = l[bo + 12] - a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l32 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a02 * p2;
        double l13 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l23 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l33 = l[bo + 18] - a30 * p0 - a32 * p2 - a33 * p3;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a02 * p2;
        double l14 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l24 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l34 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double c00 = l[co + 0], c01 = 0.0, c02 = l[co + 2], c03 = 0.0, c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = l[co + 7], c13 = 0.0, c14 = 0.0;
        double c20 = l[co + 10], c21 = l[co + 11], c22 = l[co + 12], c23 = l[co + 13], c24 = l[co + 14];
        double c30 = l[co + 15], c31 = 0.0, c32 = l[co + 17], c33 = l[co + 18], c34 = 0.0;
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; c00 = c00 * pivot; c02 = c02 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; c10 = c10 - coeff * c00; c12 = c12 - coeff * c02; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; c20 = c20 - coeff * c00; c22 = c22 - coeff * c02; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; c30 = c30 - coeff * c00; c32 = c32 - coeff * c02; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; c40 = c40 - coeff * c00; c42 = c42 - coeff * c02; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; c10 = c10 * pivot; c11 = c11 * pivot; c12 = c12 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; c00 = c00 - coeff * c10; c01 = -(coeff * c11); c02 = c02 - coeff * c12; r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; c20 = c20 - coeff * c10; c21 = c21 - coeff * c11; c22 = c22 - coeff * c12; r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; c30 = c30 - coeff * c10; c31 = -(coeff * c11); c32 = c32 - coeff * c12; r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c42 = c42 - coeff * c12; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; c20 = c20 * pivot; c21 = c21 * pivot; c22 = c22 * pivot; c23 = c23 * pivot; c24 = c24 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; c00 = c00 - coeff * c20; c01 = c01 - coeff * c21; c02 = c02 - coeff * c22; c03 = -(coeff * c23); c04 = -(coeff * c24); r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; c10 = c10 - coeff * c20; c11 = c11 - coeff * c21; c12 = c12 - coeff * c22; c13 = -(coeff * c23); c14 = -(coeff * c24); r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; c30 = c30 - coeff * c20; c31 = c31 - coeff * c21; c32 = c32 - coeff * c22; c33 = c33 - coeff * c23; c34 = -(coeff * c24); r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; c40 = c40 - coeff * c20; c41 = c41 - coeff * c21; c42 = c42 - coeff * c22; c43 = c43 - coeff * c23; c44 = c44 - coeff * c24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; c30 = c30 * pivot; c31 = c31 * pivot; c32 = c32 * pivot; c33 = c33 * pivot; c34 = c34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; c00 = c00 - coeff * c30; c01 = c01 - coeff * c31; c02 = c02 - coeff * c32; c03 = c03 - coeff * c33; c04 = c04 - coeff * c34; r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; c10 = c10 - coeff * c30; c11 = c11 - coeff * c31; c12 = c12 - coeff * c32; c13 = c13 - coeff * c33; c14 = c14 - coeff * c34; r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; c20 = c20 - coeff * c30; c21 = c21 - coeff * c31; c22 = c22 - coeff * c32; c23 = c23 - coeff * c33; c24 = c24 - coeff * c34; r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; c40 = c40 - coeff * c30; c41 = c41 - coeff * c31; c42 = c42 - coeff * c32; c43 = c43 - coeff * c33; c44 = c44 - coeff * c34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        coeff = l04; c00 = c00 - coeff * c40; c01 = c01 - coeff * c41; c02 = c02 - coeff * c42; c03 = c03 - coeff * c43; c04 = c04 - coeff * c44; r0 = r0 - coeff * r4;
        coeff = l14; c10 = c10 - coeff * c40; c11 = c11 - coeff * c41; c12 = c12 - coeff * c42; c13 = c13 - coeff * c43; c14 = c14 - coeff * c44; r1 = r1 - coeff * r4;
        coeff = l24; c20 = c20 - coeff * c40; c21 = c21 - coeff * c41; c22 = c22 - coeff * c42; c23 = c23 - coeff * c43; c24 = c24 - coeff * c44; r2 = r2 - coeff * r4;
        coeff = l34; c30 = c30 - coeff * c40; c31 = c31 - coeff * c41; c32 = c32 - coeff * c42; c33 = c33 - coeff * c43; c34 = c34 - coeff * c44; r3 = r3 - coeff * r4;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /** The last point of the forward sweep of a Y line: as stepY without C (binvrhs instead of binvcrhs). */
    static void lastStepY(double[] l, int ao, int bo, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a02 = l[ao + 2];
        double a10 = l[ao + 5], a11 = l[ao + 6], a12 = l[ao + 7];
        double a20 = l[ao + 10], a21 = l[ao + 11], a22 = l[ao + 12], a23 = l[ao + 13], a24 = l[ao + 14];
        double a30 = l[ao + 15], a32 = l[ao + 17], a33 = l[ao + 18];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a02 * v2;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a12 * v2;
        double r2 = r[ro + 2] - a20 * v0 - a21 * v1 - a22 * v2 - a23 * v3 - a24 * v4;
        double r3 = r[ro + 3] - a30 * v0 - a32 * v2 - a33 * v3;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a02 * p2;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a12 * p2;
        double l20 = l[bo + 10] - a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l30 = l[bo + 15] - a30 * p0 - a32 * p2 - a33 * p3;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a02 * p2;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a12 * p2;
        double l21 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l31 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a02 * p2;
        double l12 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l22 = l[bo + 12] - a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l32 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a02 * p2;
        double l13 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l23 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l33 = l[bo + 18] - a30 * p0 - a32 * p2 - a33 * p3;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a02 * p2;
        double l14 = -a10 * p0 - a11 * p1 - a12 * p2;
        double l24 = -a20 * p0 - a21 * p1 - a22 * p2 - a23 * p3 - a24 * p4;
        double l34 = -a30 * p0 - a32 * p2 - a33 * p3;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; r4 = r4 * pivot;
        coeff = l04; r0 = r0 - coeff * r4;
        coeff = l14; r1 = r1 - coeff * r4;
        coeff = l24; r2 = r2 - coeff * r4;
        coeff = l34; r3 = r3 - coeff * r4;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /** First point of a Z line: C' = B^-1 C and r = B^-1 r by Gauss-Jordan elimination without pivoting (binvcrhs). */
    static void firstZ(double[] l, int bo, int co, double[] r, int ro) {
        double l00 = l[bo + 0], l01 = 0.0, l02 = 0.0, l03 = 0.0, l04 = 0.0;
        double l10 = l[bo + 5], l11 = l[bo + 6], l12 = 0.0, l13 = 0.0, l14 = 0.0;
        double l20 = l[bo + 10], l21 = 0.0, l22 = l[bo + 12], l23 = 0.0, l24 = 0.0;
        double l30 = l[bo + 15], l31 = 0.0, l32 = 0.0, l33 = l[bo + 18], l34 = 0.0;
        double l40 = l[bo + 20], l41 = l[bo + 21], l42 = l[bo + 22], l43 = l[bo + 23], l44 = l[bo + 24];
        double c00 = l[co + 0], c01 = 0.0, c02 = 0.0, c03 = l[co + 3], c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = 0.0, c13 = l[co + 8], c14 = 0.0;
        double c20 = l[co + 10], c21 = 0.0, c22 = l[co + 12], c23 = l[co + 13], c24 = 0.0;
        double c30 = l[co + 15], c31 = l[co + 16], c32 = l[co + 17], c33 = l[co + 18], c34 = l[co + 19];
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double r0 = r[ro + 0], r1 = r[ro + 1], r2 = r[ro + 2], r3 = r[ro + 3], r4 = r[ro + 4];
        double pivot, coeff;
        pivot = 1.0 / l00; c00 = c00 * pivot; c03 = c03 * pivot; r0 = r0 * pivot;
        coeff = l10; c10 = c10 - coeff * c00; c13 = c13 - coeff * c03; r1 = r1 - coeff * r0;
        coeff = l20; c20 = c20 - coeff * c00; c23 = c23 - coeff * c03; r2 = r2 - coeff * r0;
        coeff = l30; c30 = c30 - coeff * c00; c33 = c33 - coeff * c03; r3 = r3 - coeff * r0;
        coeff = l40; c40 = c40 - coeff * c00; c43 = c43 - coeff * c03; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; c10 = c10 * pivot; c11 = c11 * pivot; c13 = c13 * pivot; r1 = r1 * pivot;
        coeff = l41; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c43 = c43 - coeff * c13; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; c20 = c20 * pivot; c22 = c22 * pivot; c23 = c23 * pivot; r2 = r2 * pivot;
        coeff = l42; c40 = c40 - coeff * c20; c42 = c42 - coeff * c22; c43 = c43 - coeff * c23; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; c30 = c30 * pivot; c31 = c31 * pivot; c32 = c32 * pivot; c33 = c33 * pivot; c34 = c34 * pivot; r3 = r3 * pivot;
        coeff = l43; c40 = c40 - coeff * c30; c41 = c41 - coeff * c31; c42 = c42 - coeff * c32; c43 = c43 - coeff * c33; c44 = c44 - coeff * c34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /**
     * One point of the forward sweep of a Z line: r -= A r_prev (matvec_sub), B -= A C'_prev
     * (matmul_sub), then C' = B^-1 C and r = B^-1 r (binvcrhs). A, B, C of the point at ao, bo,
     * co; C' of the previous point at cpo; r and r_prev at ro and rpo.
     */
    static void stepZ(double[] l, int ao, int bo, int co, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a03 = l[ao + 3];
        double a10 = l[ao + 5], a11 = l[ao + 6], a13 = l[ao + 8];
        double a20 = l[ao + 10], a22 = l[ao + 12], a23 = l[ao + 13];
        double a30 = l[ao + 15], a31 = l[ao + 16], a32 = l[ao + 17], a33 = l[ao + 18], a34 = l[ao + 19];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a03 * v3;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a13 * v3;
        double r2 = r[ro + 2] - a20 * v0 - a22 * v2 - a23 * v3;
        double r3 = r[ro + 3] - a30 * v0 - a31 * v1 - a32 * v2 - a33 * v3 - a34 * v4;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a03 * p3;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a13 * p3;
        double l20 = l[bo + 10] - a20 * p0 - a22 * p2 - a23 * p3;
        double l30 = l[bo + 15] - a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a03 * p3;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a13 * p3;
        double l21 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l31 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a03 * p3;
        double l12 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l22 = l[bo + 12] - a20 * p0 - a22 * p2 - a23 * p3;
        double l32 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a03 * p3;
        double l13 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l23 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l33 = l[bo + 18] - a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a03 * p3;
        double l14 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l24 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l34 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double c00 = l[co + 0], c01 = 0.0, c02 = 0.0, c03 = l[co + 3], c04 = 0.0;
        double c10 = l[co + 5], c11 = l[co + 6], c12 = 0.0, c13 = l[co + 8], c14 = 0.0;
        double c20 = l[co + 10], c21 = 0.0, c22 = l[co + 12], c23 = l[co + 13], c24 = 0.0;
        double c30 = l[co + 15], c31 = l[co + 16], c32 = l[co + 17], c33 = l[co + 18], c34 = l[co + 19];
        double c40 = l[co + 20], c41 = l[co + 21], c42 = l[co + 22], c43 = l[co + 23], c44 = l[co + 24];
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; c00 = c00 * pivot; c03 = c03 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; c10 = c10 - coeff * c00; c13 = c13 - coeff * c03; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; c20 = c20 - coeff * c00; c23 = c23 - coeff * c03; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; c30 = c30 - coeff * c00; c33 = c33 - coeff * c03; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; c40 = c40 - coeff * c00; c43 = c43 - coeff * c03; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; c10 = c10 * pivot; c11 = c11 * pivot; c13 = c13 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; c00 = c00 - coeff * c10; c01 = -(coeff * c11); c03 = c03 - coeff * c13; r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; c20 = c20 - coeff * c10; c21 = -(coeff * c11); c23 = c23 - coeff * c13; r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; c30 = c30 - coeff * c10; c31 = c31 - coeff * c11; c33 = c33 - coeff * c13; r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; c40 = c40 - coeff * c10; c41 = c41 - coeff * c11; c43 = c43 - coeff * c13; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; c20 = c20 * pivot; c21 = c21 * pivot; c22 = c22 * pivot; c23 = c23 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; c00 = c00 - coeff * c20; c01 = c01 - coeff * c21; c02 = -(coeff * c22); c03 = c03 - coeff * c23; r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; c10 = c10 - coeff * c20; c11 = c11 - coeff * c21; c12 = -(coeff * c22); c13 = c13 - coeff * c23; r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; c30 = c30 - coeff * c20; c31 = c31 - coeff * c21; c32 = c32 - coeff * c22; c33 = c33 - coeff * c23; r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; c40 = c40 - coeff * c20; c41 = c41 - coeff * c21; c42 = c42 - coeff * c22; c43 = c43 - coeff * c23; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; c30 = c30 * pivot; c31 = c31 * pivot; c32 = c32 * pivot; c33 = c33 * pivot; c34 = c34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; c00 = c00 - coeff * c30; c01 = c01 - coeff * c31; c02 = c02 - coeff * c32; c03 = c03 - coeff * c33; c04 = -(coeff * c34); r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; c10 = c10 - coeff * c30; c11 = c11 - coeff * c31; c12 = c12 - coeff * c32; c13 = c13 - coeff * c33; c14 = -(coeff * c34); r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; c20 = c20 - coeff * c30; c21 = c21 - coeff * c31; c22 = c22 - coeff * c32; c23 = c23 - coeff * c33; c24 = -(coeff * c34); r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; c40 = c40 - coeff * c30; c41 = c41 - coeff * c31; c42 = c42 - coeff * c32; c43 = c43 - coeff * c33; c44 = c44 - coeff * c34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; c40 = c40 * pivot; c41 = c41 * pivot; c42 = c42 * pivot; c43 = c43 * pivot; c44 = c44 * pivot; r4 = r4 * pivot;
        coeff = l04; c00 = c00 - coeff * c40; c01 = c01 - coeff * c41; c02 = c02 - coeff * c42; c03 = c03 - coeff * c43; c04 = c04 - coeff * c44; r0 = r0 - coeff * r4;
        coeff = l14; c10 = c10 - coeff * c40; c11 = c11 - coeff * c41; c12 = c12 - coeff * c42; c13 = c13 - coeff * c43; c14 = c14 - coeff * c44; r1 = r1 - coeff * r4;
        coeff = l24; c20 = c20 - coeff * c40; c21 = c21 - coeff * c41; c22 = c22 - coeff * c42; c23 = c23 - coeff * c43; c24 = c24 - coeff * c44; r2 = r2 - coeff * r4;
        coeff = l34; c30 = c30 - coeff * c40; c31 = c31 - coeff * c41; c32 = c32 - coeff * c42; c33 = c33 - coeff * c43; c34 = c34 - coeff * c44; r3 = r3 - coeff * r4;
        l[co + 0] = c00; l[co + 1] = c01; l[co + 2] = c02; l[co + 3] = c03; l[co + 4] = c04;
        l[co + 5] = c10; l[co + 6] = c11; l[co + 7] = c12; l[co + 8] = c13; l[co + 9] = c14;
        l[co + 10] = c20; l[co + 11] = c21; l[co + 12] = c22; l[co + 13] = c23; l[co + 14] = c24;
        l[co + 15] = c30; l[co + 16] = c31; l[co + 17] = c32; l[co + 18] = c33; l[co + 19] = c34;
        l[co + 20] = c40; l[co + 21] = c41; l[co + 22] = c42; l[co + 23] = c43; l[co + 24] = c44;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }

    /** The last point of the forward sweep of a Z line: as stepZ without C (binvrhs instead of binvcrhs). */
    static void lastStepZ(double[] l, int ao, int bo, int cpo, double[] r, int ro, int rpo) {
        double a00 = l[ao + 0], a03 = l[ao + 3];
        double a10 = l[ao + 5], a11 = l[ao + 6], a13 = l[ao + 8];
        double a20 = l[ao + 10], a22 = l[ao + 12], a23 = l[ao + 13];
        double a30 = l[ao + 15], a31 = l[ao + 16], a32 = l[ao + 17], a33 = l[ao + 18], a34 = l[ao + 19];
        double a40 = l[ao + 20], a41 = l[ao + 21], a42 = l[ao + 22], a43 = l[ao + 23], a44 = l[ao + 24];
        double v0 = r[rpo + 0], v1 = r[rpo + 1], v2 = r[rpo + 2], v3 = r[rpo + 3], v4 = r[rpo + 4];
        double r0 = r[ro + 0] - a00 * v0 - a03 * v3;
        double r1 = r[ro + 1] - a10 * v0 - a11 * v1 - a13 * v3;
        double r2 = r[ro + 2] - a20 * v0 - a22 * v2 - a23 * v3;
        double r3 = r[ro + 3] - a30 * v0 - a31 * v1 - a32 * v2 - a33 * v3 - a34 * v4;
        double r4 = r[ro + 4] - a40 * v0 - a41 * v1 - a42 * v2 - a43 * v3 - a44 * v4;
        double p0, p1, p2, p3, p4;
        p0 = l[cpo + 0]; p1 = l[cpo + 5]; p2 = l[cpo + 10]; p3 = l[cpo + 15]; p4 = l[cpo + 20];
        double l00 = l[bo + 0] - a00 * p0 - a03 * p3;
        double l10 = l[bo + 5] - a10 * p0 - a11 * p1 - a13 * p3;
        double l20 = l[bo + 10] - a20 * p0 - a22 * p2 - a23 * p3;
        double l30 = l[bo + 15] - a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l40 = l[bo + 20] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 1]; p1 = l[cpo + 6]; p2 = l[cpo + 11]; p3 = l[cpo + 16]; p4 = l[cpo + 21];
        double l01 = -a00 * p0 - a03 * p3;
        double l11 = l[bo + 6] - a10 * p0 - a11 * p1 - a13 * p3;
        double l21 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l31 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l41 = l[bo + 21] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 2]; p1 = l[cpo + 7]; p2 = l[cpo + 12]; p3 = l[cpo + 17]; p4 = l[cpo + 22];
        double l02 = -a00 * p0 - a03 * p3;
        double l12 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l22 = l[bo + 12] - a20 * p0 - a22 * p2 - a23 * p3;
        double l32 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l42 = l[bo + 22] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 3]; p1 = l[cpo + 8]; p2 = l[cpo + 13]; p3 = l[cpo + 18]; p4 = l[cpo + 23];
        double l03 = -a00 * p0 - a03 * p3;
        double l13 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l23 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l33 = l[bo + 18] - a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l43 = l[bo + 23] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        p0 = l[cpo + 4]; p1 = l[cpo + 9]; p2 = l[cpo + 14]; p3 = l[cpo + 19]; p4 = l[cpo + 24];
        double l04 = -a00 * p0 - a03 * p3;
        double l14 = -a10 * p0 - a11 * p1 - a13 * p3;
        double l24 = -a20 * p0 - a22 * p2 - a23 * p3;
        double l34 = -a30 * p0 - a31 * p1 - a32 * p2 - a33 * p3 - a34 * p4;
        double l44 = l[bo + 24] - a40 * p0 - a41 * p1 - a42 * p2 - a43 * p3 - a44 * p4;
        double pivot, coeff;
        pivot = 1.0 / l00; l01 = l01 * pivot; l02 = l02 * pivot; l03 = l03 * pivot; l04 = l04 * pivot; r0 = r0 * pivot;
        coeff = l10; l11 = l11 - coeff * l01; l12 = l12 - coeff * l02; l13 = l13 - coeff * l03; l14 = l14 - coeff * l04; r1 = r1 - coeff * r0;
        coeff = l20; l21 = l21 - coeff * l01; l22 = l22 - coeff * l02; l23 = l23 - coeff * l03; l24 = l24 - coeff * l04; r2 = r2 - coeff * r0;
        coeff = l30; l31 = l31 - coeff * l01; l32 = l32 - coeff * l02; l33 = l33 - coeff * l03; l34 = l34 - coeff * l04; r3 = r3 - coeff * r0;
        coeff = l40; l41 = l41 - coeff * l01; l42 = l42 - coeff * l02; l43 = l43 - coeff * l03; l44 = l44 - coeff * l04; r4 = r4 - coeff * r0;
        pivot = 1.0 / l11; l12 = l12 * pivot; l13 = l13 * pivot; l14 = l14 * pivot; r1 = r1 * pivot;
        coeff = l01; l02 = l02 - coeff * l12; l03 = l03 - coeff * l13; l04 = l04 - coeff * l14; r0 = r0 - coeff * r1;
        coeff = l21; l22 = l22 - coeff * l12; l23 = l23 - coeff * l13; l24 = l24 - coeff * l14; r2 = r2 - coeff * r1;
        coeff = l31; l32 = l32 - coeff * l12; l33 = l33 - coeff * l13; l34 = l34 - coeff * l14; r3 = r3 - coeff * r1;
        coeff = l41; l42 = l42 - coeff * l12; l43 = l43 - coeff * l13; l44 = l44 - coeff * l14; r4 = r4 - coeff * r1;
        pivot = 1.0 / l22; l23 = l23 * pivot; l24 = l24 * pivot; r2 = r2 * pivot;
        coeff = l02; l03 = l03 - coeff * l23; l04 = l04 - coeff * l24; r0 = r0 - coeff * r2;
        coeff = l12; l13 = l13 - coeff * l23; l14 = l14 - coeff * l24; r1 = r1 - coeff * r2;
        coeff = l32; l33 = l33 - coeff * l23; l34 = l34 - coeff * l24; r3 = r3 - coeff * r2;
        coeff = l42; l43 = l43 - coeff * l23; l44 = l44 - coeff * l24; r4 = r4 - coeff * r2;
        pivot = 1.0 / l33; l34 = l34 * pivot; r3 = r3 * pivot;
        coeff = l03; l04 = l04 - coeff * l34; r0 = r0 - coeff * r3;
        coeff = l13; l14 = l14 - coeff * l34; r1 = r1 - coeff * r3;
        coeff = l23; l24 = l24 - coeff * l34; r2 = r2 - coeff * r3;
        coeff = l43; l44 = l44 - coeff * l34; r4 = r4 - coeff * r3;
        pivot = 1.0 / l44; r4 = r4 * pivot;
        coeff = l04; r0 = r0 - coeff * r4;
        coeff = l14; r1 = r1 - coeff * r4;
        coeff = l24; r2 = r2 - coeff * r4;
        coeff = l34; r3 = r3 - coeff * r4;
        r[ro + 0] = r0; r[ro + 1] = r1; r[ro + 2] = r2; r[ro + 3] = r3; r[ro + 4] = r4;
    }
}
