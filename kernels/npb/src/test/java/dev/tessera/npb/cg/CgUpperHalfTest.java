package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.Randlc;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one-process product through the matrix's upper half ({@link CgUpperHalf}) gives the
 * compressed-row product of the whole matrix up to rounding, for one member and for the
 * members' shares summed, and for the rows of a two-process block that are the process's own
 * columns; a pattern that is not symmetric is refused (the solver then keeps the full rows);
 * the solver takes the upper half wherever its block has such rows.
 */
@Timeout(120)
class CgUpperHalfTest {

    /** The class's matrix block of process {@code me} of {@code nprocs} (also used by CgRankPairTest). */
    static CgMatrix classMatrix(int c, int nprocs, int me) {
        CgGrid grid = new CgGrid(me, nprocs, CgKernel.NA[c]);
        return CgMatrix.generate(CgKernel.NA[c], CgKernel.NONZER[c], CgKernel.RCOND, CgKernel.SHIFT[c], grid,
                Randlc.multiply(CgKernel.TRAN, CgKernel.AMULT));
    }

    static double[] fullProduct(CgMatrix m, int n, double[] v) {
        double[] y = new double[n];
        for (int r = 0; r < n; r++) {
            double s = 0.0;
            for (int k = m.rowstr[r]; k < m.rowstr[r + 1]; k++) {
                s += m.a[k] * v[m.colidx[k]];
            }
            y[r] = s;
        }
        return y;
    }

    private static void assertClose(double[] expected, double[] actual, int n, String what) {
        double scale = 0.0;
        for (int i = 0; i < n; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
        }
        for (int i = 0; i < n; i++) {
            assertEquals(expected[i], actual[i], 1e-13 * scale, what + ", row " + i);
        }
    }

    @ParameterizedTest(name = "class {0}")
    @ValueSource(ints = {0, 1})
    void oneMemberGivesTheFullProduct(int c) {
        int n = CgKernel.NA[c];
        CgMatrix full = classMatrix(c, 1, 0);
        CgUpperHalf half = CgUpperHalf.of(full, n);
        assertNotNull(half, "the generated matrix's pattern is symmetric");
        assertEquals(full.rowstr[n] - n, 2 * half.rowstr[n], "off-diagonal elements stored once");
        double[] v = new SplittableRandom(7).doubles(n + 2, -1.0, 1.0).toArray();
        double[] y = new double[n + 2];
        y[3] = 99.0; // the product must not depend on what the output held
        half.multiply(v, y, 0, n);
        assertClose(fullProduct(full, n, v), y, n, "upper-half product");
    }

    @ParameterizedTest(name = "{0} members")
    @ValueSource(ints = {2, 3, 4})
    void membersSharesSumToTheProductAndBalanceTheWork(int members) {
        int n = CgKernel.NA[0];
        CgMatrix full = classMatrix(0, 1, 0);
        CgUpperHalf half = CgUpperHalf.of(full, n);
        int[] bounds = half.balancedRows(members);
        assertEquals(0, bounds[0]);
        assertEquals(n, bounds[members]);
        long total = half.rowstr[n];
        for (int m = 0; m < members; m++) {
            assertTrue(bounds[m] < bounds[m + 1], "member " + m + " has rows");
            long mine = half.rowstr[bounds[m + 1]] - half.rowstr[bounds[m]];
            assertEquals(total / (double) members, mine, 0.15 * total / members, "member " + m + "'s stored elements");
        }
        double[] v = new SplittableRandom(11).doubles(n, -1.0, 1.0).toArray();
        double[] sum = new double[n];
        for (int m = 0; m < members; m++) {
            double[] acc = new double[n];
            java.util.Arrays.fill(acc, 5.0); // stale values before the member's first row are never read
            half.multiply(v, acc, bounds[m], bounds[m + 1]);
            for (int j = bounds[m]; j < n; j++) {
                sum[j] += acc[j];
            }
        }
        assertClose(fullProduct(full, n, v), sum, n, "sum of " + members + " members' shares");
    }

    @Test
    void anAsymmetricPatternIsRefused() {
        // 3 x 3: (0, 1) without (1, 0), and as many elements above the diagonal as below.
        int[] rowstr = {0, 2, 3, 5};
        int[] colidx = {0, 1, 1, 2, 0};
        double[] a = {4.0, 1.0, 4.0, 4.0, 1.0};
        assertNull(CgUpperHalf.of(new CgMatrix(a, colidx, rowstr), 3));
        // The symmetric version of it is accepted.
        int[] symmetricCols = {0, 1, 1, 0, 2};
        int[] symmetricRows = {0, 2, 4, 5};
        assertNotNull(CgUpperHalf.of(new CgMatrix(a, symmetricCols, symmetricRows), 3));
    }

    @ParameterizedTest(name = "process {0} of 2")
    @ValueSource(ints = {0, 1})
    void theOwnColumnsRowsOfATwoProcessBlockGiveTheirProduct(int me) {
        int n = CgKernel.NA[1];
        CgGrid grid = new CgGrid(me, 2, n);
        CgMatrix block = classMatrix(1, 2, me);
        int offset = grid.firstcol - grid.firstrow;
        int cols = grid.cols();
        assertEquals(n, grid.rows());
        assertEquals(n / 2, cols);
        CgUpperHalf half = CgUpperHalf.of(block, offset, cols);
        assertNotNull(half);
        assertNull(CgUpperHalf.of(block, cols - offset, cols), "the other half of the rows is not a diagonal block");
        double[] v = new SplittableRandom(13).doubles(cols, -1.0, 1.0).toArray();
        double[] y = new double[n];
        half.multiply(v, y, offset, 0, cols);
        double[] expected = fullProduct(block, n, v);
        double[] got = new double[n];
        double[] want = new double[n];
        System.arraycopy(y, offset, got, 0, cols);
        System.arraycopy(expected, offset, want, 0, cols);
        assertClose(want, got, cols, "process " + me + "'s diagonal block");
    }

    @ParameterizedTest(name = "{0} processes")
    @ValueSource(ints = {1, 2, 4})
    void theSolverUsesTheUpperHalfOfEveryDiagonalBlock(int ranks) {
        int[] rows = new int[ranks];
        SmpJob.run(ranks, new String[] {"--threads", "2"}, Duration.ofSeconds(100), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, ranks, CgKernel.NA[0]);
            CgMatrix matrix = classMatrix(0, ranks, me);
            CgSolver solver = new CgSolver(session.world(), session.team(), grid, matrix, CgKernel.NA[0] / grid.nprows);
            rows[me] = solver.upperHalfRows();
        });
        int n = CgKernel.NA[0];
        int[] expected = switch (ranks) {
            case 1 -> new int[] {n};
            case 2 -> new int[] {n / 2, n / 2};
            default -> new int[] {n / 2, 0, 0, n / 2}; // 2 x 2 grid: only the diagonal processes
        };
        assertArrayEquals(expected, rows);
    }
}
