package dev.tessera.npb.cg;

import dev.tessera.npb.Randlc;
import java.util.Arrays;

/**
 * This process's block of CG's random sparse symmetric positive definite matrix, in
 * compressed rows (NPB3.4-MPI CG/cg.f: makea, sparse, sprnvc, vecset, icnvrt).
 *
 * <p>The matrix is A = sum over i = 1..n of size_i x_i x_i^T + (rcond - shift) I, where x_i
 * is a random sparse vector with {@code nonzer} nonzeros plus a 0.5 at position i, and
 * size_i = rcond^((i-1)/n) decreases geometrically. Every process draws the whole sequence
 * of vectors from the same generator (so the matrix is the same for any number of
 * processes) and keeps the outer-product elements that fall in its block; duplicates are
 * then summed row by row. Arrays are 0-based: row j (0 = firstrow) occupies
 * {@code a[rowstr[j] .. rowstr[j+1])}, and {@code colidx} holds columns relative to
 * firstcol (0-based), ready for the local product.
 */
final class CgMatrix {

    final double[] a;
    final int[] colidx;
    final int[] rowstr;

    CgMatrix(double[] a, int[] colidx, int[] rowstr) {
        this.a = a;
        this.colidx = colidx;
        this.rowstr = rowstr;
    }

    /**
     * Array length the reference allocates for the nonzeros of one process (cg_data.f:
     * alloc_space), as a long so that the caller can refuse sizes past Java's array limit.
     */
    static long nonzeroCapacity(int na, int nonzer, int nprocs, int npcols) {
        long naz = na;
        return naz * (nonzer + 1) / nprocs * (nonzer + 1) + nonzer + naz * (nonzer + 2 + nprocs / 256) / npcols;
    }

    /**
     * Generates this process's block (makea). {@code tran} is the generator's seed after the
     * reference's first draw; the multiplier is 5^13.
     */
    static CgMatrix generate(int n, int nonzer, double rcond, double shift, CgGrid grid, double tran) {
        int nz = Math.toIntExact(nonzeroCapacity(n, nonzer, grid.nprocs, grid.npcols));
        int[] arow = new int[nz];
        int[] acol = new int[nz];
        double[] aelt = new double[nz];
        double[] v = new double[nonzer + 2];
        int[] iv = new int[nonzer + 2];
        int[] mark = new int[n + 1];
        int[] nzloc = new int[n + 1];
        double[] seed = {tran};
        int firstrow = grid.firstrow;
        int lastrow = grid.lastrow;
        int firstcol = grid.firstcol;
        int lastcol = grid.lastcol;

        double size = 1.0;
        double ratio = Math.pow(rcond, 1.0 / n);
        int nnza = 0;
        for (int iouter = 1; iouter <= n; iouter++) {
            int nzv = sparseVector(n, nonzer, v, iv, nzloc, mark, seed);
            nzv = setElement(v, iv, nzv, iouter, 0.5);
            for (int ivelt = 0; ivelt < nzv; ivelt++) {
                int jcol = iv[ivelt];
                if (jcol >= firstcol && jcol <= lastcol) {
                    double scale = size * v[ivelt];
                    for (int ivelt1 = 0; ivelt1 < nzv; ivelt1++) {
                        int irow = iv[ivelt1];
                        if (irow >= firstrow && irow <= lastrow) {
                            if (nnza >= nz) {
                                throw overflow(nnza, nz, iouter);
                            }
                            acol[nnza] = jcol;
                            arow[nnza] = irow;
                            aelt[nnza] = v[ivelt1] * scale;
                            nnza++;
                        }
                    }
                }
            }
            size *= ratio;
        }
        // rcond on the diagonal bounds the smallest eigenvalue from below; the shift moves the spectrum.
        for (int i = firstrow; i <= lastrow; i++) {
            if (i >= firstcol && i <= lastcol) {
                if (nnza >= nz) {
                    throw overflow(nnza, nz, n + i);
                }
                acol[nnza] = i;
                arow[nnza] = i;
                aelt[nnza] = rcond - shift;
                nnza++;
            }
        }
        return assemble(n, arow, acol, aelt, nnza, grid, nz);
    }

    private static IllegalStateException overflow(int nnza, int nz, int iouter) {
        return new IllegalStateException("CG makea: space for matrix elements exceeded (nnza " + (nnza + 1)
                + " > nzmax " + nz + ", iouter " + iouter + ")");
    }

    /**
     * Builds compressed rows from the (row, column, value) triples, summing duplicates
     * (sparse): a bucket sort by row, then per row the columns in order of first
     * appearance with their summed values (exact zeros dropped).
     */
    private static CgMatrix assemble(int n, int[] arow, int[] acol, double[] aelt, int nnza, CgGrid grid, int nz) {
        int firstrow = grid.firstrow;
        int nrows = grid.rows();
        int[] rowstr = new int[nrows + 1];
        double[] a = new double[nz];
        int[] colidx = new int[nz];
        for (int k = 0; k < nnza; k++) {
            rowstr[arow[k] - firstrow + 1]++;
        }
        for (int j = 1; j <= nrows; j++) {
            rowstr[j] += rowstr[j - 1];
        }
        for (int k = 0; k < nnza; k++) {
            int j = arow[k] - firstrow;
            int p = rowstr[j]++;
            a[p] = aelt[k];
            colidx[p] = acol[k];
        }
        for (int j = nrows - 1; j >= 0; j--) {
            rowstr[j + 1] = rowstr[j];
        }
        rowstr[0] = 0;

        double[] x = new double[n + 1];
        int[] mark = new int[n + 1];
        int[] nzloc = new int[n + 1];
        int nza = 0;
        int jajp1 = rowstr[0];
        for (int j = 0; j < nrows; j++) {
            int nzrow = 0;
            for (int k = jajp1; k < rowstr[j + 1]; k++) {
                int i = colidx[k];
                x[i] += a[k];
                if (mark[i] == 0 && x[i] != 0.0) {
                    mark[i] = 1;
                    nzloc[nzrow++] = i;
                }
            }
            for (int k = 0; k < nzrow; k++) {
                int i = nzloc[k];
                mark[i] = 0;
                double xi = x[i];
                x[i] = 0.0;
                if (xi != 0.0) {
                    a[nza] = xi;
                    colidx[nza] = i;
                    nza++;
                }
            }
            jajp1 = rowstr[j + 1];
            rowstr[j + 1] = nza;
        }
        // Columns relative to this process's first column, 0-based, for the local product.
        int firstcol = grid.firstcol;
        for (int k = 0; k < nza; k++) {
            colidx[k] -= firstcol;
        }
        return new CgMatrix(Arrays.copyOf(a, nza), Arrays.copyOf(colidx, nza), rowstr);
    }

    /**
     * A random sparse n-vector with {@code nz} distinct nonzero positions (sprnvc): values
     * and 1-based positions into {@code v} and {@code iv}; positions drawn as
     * int(nn1 x u) + 1 with nn1 the smallest power of two not below n, out-of-range draws
     * discarded. {@code mark} is all zero on entry and on return.
     */
    private static int sparseVector(int n, int nz, double[] v, int[] iv, int[] nzloc, int[] mark, double[] seed) {
        int nn1 = 1;
        do {
            nn1 *= 2;
        } while (nn1 < n);
        int nzv = 0;
        int nzrow = 0;
        while (nzv < nz) {
            double vecelt = Randlc.randlc(seed, Randlc.A);
            double vecloc = Randlc.randlc(seed, Randlc.A);
            int i = (int) (nn1 * vecloc) + 1;
            if (i > n) {
                continue;
            }
            if (mark[i] == 0) {
                mark[i] = 1;
                nzloc[nzrow++] = i;
                v[nzv] = vecelt;
                iv[nzv] = i;
                nzv++;
            }
        }
        for (int ii = 0; ii < nzrow; ii++) {
            mark[nzloc[ii]] = 0;
        }
        return nzv;
    }

    /** Sets element i of the sparse vector to val, appending it if absent (vecset); returns the new count. */
    private static int setElement(double[] v, int[] iv, int nzv, int i, double val) {
        boolean set = false;
        for (int k = 0; k < nzv; k++) {
            if (iv[k] == i) {
                v[k] = val;
                set = true;
            }
        }
        if (!set) {
            v[nzv] = val;
            iv[nzv] = i;
            nzv++;
        }
        return nzv;
    }
}
