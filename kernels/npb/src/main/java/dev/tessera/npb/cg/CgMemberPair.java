package dev.tessera.npb.cg;

import java.util.Arrays;

/**
 * CG's product at one process and two team members, with the matrix split between the
 * members as {@link CgRankPair} splits it between two processes, so that each member's
 * gathers and scatters stay inside its own half of the vectors.
 *
 * <p>Why: through the whole upper half ({@link CgUpperHalf}, {@link CgUpperHalf#balancedRows}),
 * each member gathers from all of v and scatters into an accumulator as long as v, so at
 * class B (n = 75000) a member's randomly accessed set is two 600 KB vectors, and the two
 * members' sets together (v, two accumulators: 1.8 MB) do not fit the 2 MiB L2 that the two
 * vCPUs of the Intel Xeon KVM guest behave as if they shared: two independent one-thread
 * class B runs, one per vCPU, each took 42-45 s instead of 32 s (stop 42), and the product at
 * two members ran at 1.5-1.65x one member's. Here each member's random accesses go to its
 * own halves of v and of the result (300 KB each at class B).
 *
 * <p>The split: block 0 is rows and columns [0, h), block 1 [h, n), with h the members'
 * vector blocks' boundary. The upper triangle is U00 (both indices in block 0), U11 (both in
 * block 1) and B (row in block 0, column in block 1). Member k multiplies Ukk through its
 * upper half (each element used twice) and a share of B, also used twice: member 0 the
 * elements of B whose column c is below h + s, column by column (rows c of B^T: the row sum
 * over its own v[r] is a partial sum for the other member's row c, and a(r, c) v[c] goes
 * into its own y[r]); member 1 the rest, row by row (the row sum over its own v[c] is a
 * partial sum for member 0's row r, and a(r, c) v[r] goes into its own y[c]). The partial
 * sums for the other member's rows go into an array of their own ({@link #cross}), read by
 * the other member after a barrier ({@link #merge}). The split column s evens out the
 * members' stored elements (plus a few per row). Reading v in the other block is one
 * sequential pass over the share's rows; that half of v was written by the other member
 * before the barrier that ends the previous iteration.
 *
 * <p>Each element of A is stored once between the members, as in {@link CgUpperHalf}; the
 * sums run in another order than at one member, so the results differ from it by rounding
 * only. The result of a member is the same bits whatever the timing.
 */
final class CgMemberPair {

    /** Rows and columns of the whole (symmetric) block. */
    final int n;
    /** First index of block 1 (member 1's half of the vectors). */
    final int h;
    /** Member k's diagonal elements, index r - first(k). */
    private final double[][] diagonal;
    /** Member k's diagonal block's strict upper triangle, rows first(k) .., global column numbers. */
    private final int[][] upperRowstr;
    private final int[][] upperColidx;
    private final double[][] upperA;
    /** First row of member k's share of B (global: in the other block), and the share's row count. */
    private final int[] shareFirst;
    private final int[][] shareRowstr;
    /** The share's columns (global, in member k's own block). */
    private final int[][] shareColidx;
    private final double[][] shareA;
    /** Member k's partial sums for the other member's rows shareFirst[k] ..: its share's row sums. */
    private final double[][] cross;

    private CgMemberPair(int n, int h, double[][] diagonal, int[][] upperRowstr, int[][] upperColidx,
            double[][] upperA, int[] shareFirst, int[][] shareRowstr, int[][] shareColidx, double[][] shareA) {
        this.n = n;
        this.h = h;
        this.diagonal = diagonal;
        this.upperRowstr = upperRowstr;
        this.upperColidx = upperColidx;
        this.upperA = upperA;
        this.shareFirst = shareFirst;
        this.shareRowstr = shareRowstr;
        this.shareColidx = shareColidx;
        this.shareA = shareA;
        this.cross = new double[][] {new double[shareRowstr[0].length - 1], new double[shareRowstr[1].length - 1]};
    }

    /**
     * The split of {@code half} (the whole matrix's upper half, rows 0 .. n-1) at h: block 0
     * is [0, h), block 1 [h, n).
     */
    static CgMemberPair of(CgUpperHalf half, int h) {
        int n = half.n;
        if (h <= 0 || h >= n) {
            throw new IllegalArgumentException("split " + h + " outside (0, " + n + ")");
        }
        int[] rs = half.rowstr;
        int[] ci = half.colidx;
        double[] va = half.a;
        // Count U00, U11 and B's elements per column of block 1.
        int u00 = 0;
        int[] columnCount = new int[n - h + 1];
        for (int r = 0; r < h; r++) {
            for (int k = rs[r]; k < rs[r + 1]; k++) {
                if (ci[k] < h) {
                    u00++;
                } else {
                    columnCount[ci[k] - h + 1]++;
                }
            }
        }
        int u11 = rs[n] - rs[h];
        int b = rs[h] - u00;
        // Member 0: U00 and B's columns [h, h + s); member 1: U11 and the rest of B, over rows [0, h).
        // Work as in CgUpperHalf.balancedRows: stored elements plus 4 per row.
        long fixed0 = u00 + 4L * h;
        long fixed1 = u11 + 4L * (n - h) + 4L * h;
        int s = 0;
        long taken = 0;
        while (s < n - h && fixed0 + taken + 4L * s < fixed1 + (b - taken)) {
            taken += columnCount[s + 1];
            s++;
        }
        for (int c = 0; c < n - h; c++) {
            columnCount[c + 1] += columnCount[c];
        }
        int split = h + s;

        double[][] diagonal = {Arrays.copyOfRange(half.diagonal, 0, h), Arrays.copyOfRange(half.diagonal, h, n)};
        int[][] upperRowstr = {new int[h + 1], new int[n - h + 1]};
        int[][] upperColidx = {new int[u00], new int[u11]};
        double[][] upperA = {new double[u00], new double[u11]};
        // Member 0's share: B's columns [h, split) as rows (B^T), counted above.
        int share0 = columnCount[s];
        int[] share0Rowstr = Arrays.copyOf(columnCount, s + 1);
        int[] share0Colidx = new int[share0];
        double[] share0A = new double[share0];
        int[] next = Arrays.copyOf(columnCount, s);
        // Member 1's share: B's rows [0, h), columns [split, n).
        int[] share1Rowstr = new int[h + 1];
        int[] share1Colidx = new int[b - share0];
        double[] share1A = new double[b - share0];
        int q0 = 0;
        int q1 = 0;
        for (int r = 0; r < h; r++) {
            upperRowstr[0][r] = q0;
            share1Rowstr[r] = q1;
            for (int k = rs[r]; k < rs[r + 1]; k++) {
                int c = ci[k];
                if (c < h) {
                    upperColidx[0][q0] = c;
                    upperA[0][q0++] = va[k];
                } else if (c < split) {
                    // Rows r ascend, so each column's list of rows ascends too.
                    int t = next[c - h]++;
                    share0Colidx[t] = r;
                    share0A[t] = va[k];
                } else {
                    share1Colidx[q1] = c;
                    share1A[q1++] = va[k];
                }
            }
        }
        upperRowstr[0][h] = q0;
        share1Rowstr[h] = q1;
        System.arraycopy(ci, rs[h], upperColidx[1], 0, u11);
        System.arraycopy(va, rs[h], upperA[1], 0, u11);
        for (int r = h; r <= n; r++) {
            upperRowstr[1][r - h] = rs[r] - rs[h];
        }
        return new CgMemberPair(n, h, diagonal, upperRowstr, upperColidx, upperA, new int[] {h, 0},
                new int[][] {share0Rowstr, share1Rowstr}, new int[][] {share0Colidx, share1Colidx},
                new double[][] {share0A, share1A});
    }

    /** Stored elements of member k (its diagonal block's upper triangle and its share of B). */
    long storedElements(int k) {
        return (long) upperColidx[k].length + shareColidx[k].length;
    }

    /** Rows of member k's share of B (the other member's rows it computes partial sums for). */
    int shareRows(int k) {
        return cross[k].length;
    }

    /** First index of member k's block. */
    int first(int k) {
        return k == 0 ? 0 : h;
    }

    /** One past the last index of member k's block. */
    int end(int k) {
        return k == 0 ? h : n;
    }

    /**
     * Member k's part of y = A v: y over its block [first(k), end(k)) gets everything but the
     * other member's partial sums ({@link #merge} adds them), and {@link #cross}[k] the
     * partial sums for the other member's rows. Reads v over the whole length.
     */
    void multiply(int k, double[] v, double[] y) {
        int lo = first(k);
        int hi = end(k);
        Arrays.fill(y, lo, hi, 0.0);
        int[] rowstr = upperRowstr[k];
        int[] colidx = upperColidx[k];
        double[] a = upperA[k];
        double[] d = diagonal[k];
        for (int r = lo; r < hi; r++) {
            double vr = v[r];
            double s0 = d[r - lo] * vr;
            double s1 = 0.0;
            int e = rowstr[r - lo];
            int end = rowstr[r - lo + 1];
            for (int last = end - 1; e < last; e += 2) {
                int c0 = colidx[e];
                int c1 = colidx[e + 1];
                double a0 = a[e];
                double a1 = a[e + 1];
                s0 += a0 * v[c0];
                s1 += a1 * v[c1];
                y[c0] += a0 * vr;
                y[c1] += a1 * vr;
            }
            if (e < end) {
                int c0 = colidx[e];
                s0 += a[e] * v[c0];
                y[c0] += a[e] * vr;
            }
            y[r] += s0 + s1;
        }
        rowstr = shareRowstr[k];
        colidx = shareColidx[k];
        a = shareA[k];
        double[] out = cross[k];
        int first = shareFirst[k];
        for (int t = 0; t < out.length; t++) {
            double vo = v[first + t];
            double s0 = 0.0;
            double s1 = 0.0;
            int e = rowstr[t];
            int end = rowstr[t + 1];
            for (int last = end - 1; e < last; e += 2) {
                int c0 = colidx[e];
                int c1 = colidx[e + 1];
                double a0 = a[e];
                double a1 = a[e + 1];
                s0 += a0 * v[c0];
                s1 += a1 * v[c1];
                y[c0] += a0 * vo;
                y[c1] += a1 * vo;
            }
            if (e < end) {
                int c0 = colidx[e];
                s0 += a[e] * v[c0];
                y[c0] += a[e] * vo;
            }
            out[t] = s0 + s1;
        }
    }

    /**
     * Adds the other member's partial sums into y over member k's block; after both members'
     * {@link #multiply} (a barrier between), y over the block is A v.
     */
    void merge(int k, double[] y) {
        int other = 1 - k;
        double[] in = cross[other];
        int first = shareFirst[other];
        for (int t = 0; t < in.length; t++) {
            y[first + t] += in[t];
        }
    }
}
