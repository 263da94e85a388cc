package dev.tessera.npb.cg;

import java.util.Arrays;

/**
 * A symmetric diagonal block of CG's matrix stored as its diagonal and its strict upper
 * triangle, for a product that reads each off-diagonal element once and uses it twice: the
 * whole matrix of a one-process run, or the part of a process's block whose rows are the
 * process's own columns (np = 2: each process's columns are half of its rows).
 *
 * <p>makea builds A as a sum of outer products x x^T plus a multiple of the identity, so A is
 * symmetric: its pattern exactly, its values to rounding (element (r, c) is the sum of
 * v_r (size v_c) over the same outer products as (c, r) is of v_c (size v_r), each term
 * rounded once; on class A they differ by at most 4e-16 relative). The product
 * y = S v is then y_r = d_r v_r + sum over c > r of s_rc v_c + sum over c < r of s_cr v_c:
 * row r of the upper triangle adds its elements times v_c to y_r and its elements times v_r
 * to y_c. That is half the bytes of the compressed rows (about 11 MB instead of 22 MB per
 * product in class A at one process) for the same number of multiply-adds. The results
 * differ from the full product by rounding only (the sums run in another order and the lower
 * triangle is the upper's values), which the verification's 1e-10 on zeta absorbs many
 * times over.
 *
 * <p>{@link #of} checks that the block's pattern is symmetric and returns null otherwise.
 *
 * <p>The unrolled loops over a row's elements (here and in {@link CgMemberPair},
 * {@link CgRankPair} and the solver's compressed rows) are bounded as {@code k < last} with
 * {@code last = end - 1}, not as {@code k + 1 < end}: the same iterations and the same
 * arithmetic, but measured 7-15 % less time per product in class A at one thread (stop 47,
 * docs/npb.md), the old form's speed also varying more between JVMs.
 */
final class CgUpperHalf {

    final int n;
    final double[] diagonal;
    final int[] rowstr;
    final int[] colidx;
    final double[] a;

    private CgUpperHalf(int n, double[] diagonal, int[] rowstr, int[] colidx, double[] a) {
        this.n = n;
        this.diagonal = diagonal;
        this.rowstr = rowstr;
        this.colidx = colidx;
        this.a = a;
    }

    /** {@link #of(CgMatrix, int, int)} of rows 0 .. n-1. */
    static CgUpperHalf of(CgMatrix full, int n) {
        return of(full, 0, n);
    }

    /**
     * The upper half of the n x n block of {@code full} in rows firstRow .. firstRow+n-1
     * (whose 0-based columns must all be below n), or null if its pattern is not symmetric
     * (some (r, c) without a (c, r)), in which case the caller keeps the compressed rows.
     */
    static CgUpperHalf of(CgMatrix full, int firstRow, int n) {
        int[] fr = Arrays.copyOfRange(full.rowstr, firstRow, firstRow + n + 1);
        int[] fc = full.colidx;
        double[] fa = full.a;
        int upper = 0;
        int lower = 0;
        for (int r = 0; r < n; r++) {
            for (int k = fr[r]; k < fr[r + 1]; k++) {
                if (fc[k] >= n) {
                    return null;
                } else if (fc[k] > r) {
                    upper++;
                } else if (fc[k] < r) {
                    lower++;
                }
            }
        }
        if (upper != lower) {
            return null;
        }
        double[] diagonal = new double[n];
        int[] rowstr = new int[n + 1];
        int[] colidx = new int[upper];
        double[] a = new double[upper];
        // Column counts of the upper triangle: the lengths of the lower triangle's rows if symmetric.
        int[] columnCount = new int[n + 1];
        int q = 0;
        for (int r = 0; r < n; r++) {
            rowstr[r] = q;
            for (int k = fr[r]; k < fr[r + 1]; k++) {
                int c = fc[k];
                if (c == r) {
                    diagonal[r] = fa[k];
                } else if (c > r) {
                    colidx[q] = c;
                    a[q] = fa[k];
                    columnCount[c + 1]++;
                    q++;
                }
            }
        }
        rowstr[n] = q;
        if (!patternIsSymmetric(fr, fc, n, colidx, rowstr, columnCount)) {
            return null;
        }
        return new CgUpperHalf(n, diagonal, rowstr, colidx, a);
    }

    /**
     * Whether the lower triangle of the full rows is the transpose of the upper triangle's
     * pattern: row c's elements left of the diagonal are exactly the rows r whose upper
     * part holds column c.
     */
    private static boolean patternIsSymmetric(int[] fr, int[] fc, int n, int[] ucol, int[] urow, int[] columnCount) {
        for (int c = 0; c < n; c++) {
            columnCount[c + 1] += columnCount[c];
        }
        int[] next = Arrays.copyOf(columnCount, n);
        int[] transposedRows = new int[ucol.length];
        for (int r = 0; r < n; r++) {
            for (int k = urow[r]; k < urow[r + 1]; k++) {
                transposedRows[next[ucol[k]]++] = r;
            }
        }
        int[] stamp = new int[n];
        Arrays.fill(stamp, -1);
        for (int c = 0; c < n; c++) {
            int count = 0;
            for (int k = fr[c]; k < fr[c + 1]; k++) {
                if (fc[k] < c) {
                    stamp[fc[k]] = c;
                    count++;
                }
            }
            if (count != columnCount[c + 1] - columnCount[c]) {
                return false;
            }
            for (int k = columnCount[c]; k < columnCount[c + 1]; k++) {
                if (stamp[transposedRows[k]] != c) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Row boundaries that give each of {@code members} about the same share of the product's
     * work (stored elements plus a few per row); row r's upper part is about (n - r) / n of a
     * full row, so equal row counts would give the first member three quarters of the work
     * with two members.
     */
    int[] balancedRows(int members) {
        int[] bounds = new int[members + 1];
        long total = (long) rowstr[n] + 4L * n;
        int r = 0;
        for (int m = 1; m < members; m++) {
            long goal = total * m / members;
            while (r < n && (long) rowstr[r] + 4L * r < goal) {
                r++;
            }
            bounds[m] = r;
        }
        bounds[members] = n;
        return bounds;
    }

    /** {@link #multiply(double[], double[], int, int, int)} with no offset. */
    void multiply(double[] v, double[] acc, int from, int to) {
        multiply(v, acc, 0, from, to);
    }

    /**
     * acc[offset + from .. offset + n) = the contribution of rows [from, to) to S v: that part
     * of acc is zeroed (nothing of these rows lands before row {@code from}), then row r adds
     * its sum to acc[offset + r] and its elements times v[r] to acc[offset + c]. With
     * from = 0 and to = n, acc[offset ..] = S v.
     */
    void multiply(double[] v, double[] acc, int offset, int from, int to) {
        int[] rowstr = this.rowstr;
        int[] colidx = this.colidx;
        double[] a = this.a;
        double[] diagonal = this.diagonal;
        Arrays.fill(acc, offset + from, offset + n, 0.0);
        for (int r = from; r < to; r++) {
            double vr = v[r];
            double s0 = diagonal[r] * vr;
            double s1 = 0.0;
            int k = rowstr[r];
            int end = rowstr[r + 1];
            for (int last = end - 1; k < last; k += 2) {
                int c0 = colidx[k];
                int c1 = colidx[k + 1];
                double a0 = a[k];
                double a1 = a[k + 1];
                s0 += a0 * v[c0];
                s1 += a1 * v[c1];
                acc[offset + c0] += a0 * vr;
                acc[offset + c1] += a1 * vr;
            }
            if (k < end) {
                int c0 = colidx[k];
                s0 += a[k] * v[c0];
                acc[offset + c0] += a[k] * vr;
            }
            acc[offset + r] += s0 + s1;
        }
    }
}
