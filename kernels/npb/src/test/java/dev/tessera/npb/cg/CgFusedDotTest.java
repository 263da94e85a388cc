package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * At one process of one member the solver sums p.q inside the product
 * ({@link CgUpperHalf#multiplyDot}): the product and the dot product it returns are the doubles
 * of {@link CgUpperHalf#multiply} followed by the row-order dot product, bit for bit, on the
 * class matrices and on small symmetric matrices whose rows have every upper length from 0 to
 * 8 (both parities of the unrolled loop's tail), and the solver's zeta and ||r|| are the same
 * bits with the fused pass switched off. Only 1 x 1 takes it.
 */
@Timeout(120)
class CgFusedDotTest {

    /** The two-pass result: y = S v by {@link CgUpperHalf#multiply}, then sum of v[r] y[r] in row order. */
    private static double twoPasses(CgUpperHalf half, double[] v, double[] y) {
        half.multiply(v, y, 0, half.n);
        double dot = 0.0;
        for (int r = 0; r < half.n; r++) {
            dot += v[r] * y[r];
        }
        return dot;
    }

    private static void assertSameBits(CgUpperHalf half, double[] v, String what) {
        int n = half.n;
        double[] expected = new double[n + 2];
        double expectedDot = twoPasses(half, v, expected);
        double[] fused = new double[n + 2];
        Arrays.fill(fused, 7.0); // what the output held before must not matter
        fused[n] = 3.0;
        fused[n + 1] = 4.0;
        double dot = half.multiplyDot(v, fused);
        assertArrayEquals(Arrays.copyOf(expected, n), Arrays.copyOf(fused, n), what + ": the product");
        assertEquals(3.0, fused[n], 0.0, what + ": nothing written past the block");
        assertEquals(4.0, fused[n + 1], 0.0, what + ": nothing written past the block");
        assertEquals(expectedDot, dot, 0.0, what + ": the dot product");
    }

    @ParameterizedTest(name = "class {0}")
    @ValueSource(ints = {0, 1})
    void theClassMatricesGiveTheTwoPassesBitForBit(int c) {
        int n = CgKernel.NA[c];
        CgUpperHalf half = CgUpperHalf.of(CgUpperHalfTest.classMatrix(c, 1, 0), n);
        assertNotNull(half);
        SplittableRandom random = new SplittableRandom(31 + c);
        for (int trial = 0; trial < 3; trial++) {
            assertSameBits(half, random.doubles(n + 2, -1.0, 1.0).toArray(), "class " + c + ", vector " + trial);
        }
    }

    /**
     * A symmetric n x n matrix whose row r has min(r mod 9, n - 1 - r) elements right of the
     * diagonal at random columns (so every upper length 0 .. 8 occurs, odd and even), their
     * mirror images left of it, and a diagonal element on every other row.
     */
    static CgMatrix tailMatrix(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean[][] pattern = new boolean[n][n];
        for (int r = 0; r < n; r++) {
            int want = Math.min(r % 9, n - 1 - r);
            int placed = 0;
            while (placed < want) {
                int col = r + 1 + random.nextInt(n - 1 - r);
                if (!pattern[r][col]) {
                    pattern[r][col] = true;
                    pattern[col][r] = true;
                    placed++;
                }
            }
        }
        int[] rowstr = new int[n + 1];
        int count = 0;
        for (int r = 0; r < n; r++) {
            for (int col = 0; col < n; col++) {
                if (pattern[r][col] || col == r && r % 2 == 0) {
                    count++;
                }
            }
            rowstr[r + 1] = count;
        }
        int[] colidx = new int[count];
        double[] a = new double[count];
        int k = 0;
        for (int r = 0; r < n; r++) {
            for (int col = 0; col < n; col++) {
                if (pattern[r][col] || col == r && r % 2 == 0) {
                    colidx[k] = col;
                    a[k] = random.nextDouble(-2.0, 2.0);
                    k++;
                }
            }
        }
        return new CgMatrix(a, colidx, rowstr);
    }

    @ParameterizedTest(name = "n = {0}")
    @ValueSource(ints = {1, 2, 9, 10, 17, 40, 101})
    void everyTailLengthGivesTheTwoPassesBitForBit(int n) {
        for (long seed = 1; seed <= 4; seed++) {
            CgUpperHalf half = CgUpperHalf.of(tailMatrix(n, seed), n);
            assertNotNull(half, "symmetric pattern");
            boolean[] lengths = new boolean[9];
            for (int r = 0; r < n; r++) {
                lengths[half.rowstr[r + 1] - half.rowstr[r]] = true;
            }
            for (int len = 0; len <= Math.min(8, n - 1); len++) {
                assertTrue(lengths[len] || len > n - 1 - len, "a row with " + len + " upper elements, n = " + n);
            }
            double[] v = new SplittableRandom(seed * 7).doubles(n + 2, -1.0, 1.0).toArray();
            assertSameBits(half, v, "n = " + n + ", seed " + seed);
        }
    }

    /** Zeta and ||r|| of three solves at 1 x 1, class S, with the fused pass and with it switched off. */
    private static double[] threeSolves(boolean off, boolean[] fused) {
        double[] out = new double[6];
        String old = System.getProperty(CgSolver.CG_FUSED_DOT_OFF);
        System.setProperty(CgSolver.CG_FUSED_DOT_OFF, Boolean.toString(off));
        try {
            SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
                int na = CgKernel.NA[0];
                CgGrid grid = new CgGrid(0, 1, na);
                CgSolver solver = new CgSolver(session.world(), session.team(), grid, CgUpperHalfTest.classMatrix(0, 1, 0), na);
                fused[0] = solver.fusedDot();
                solver.resetX();
                for (int i = 0; i < 3; i++) {
                    out[2 * i] = solver.iterate(CgKernel.SHIFT[0]);
                    out[2 * i + 1] = solver.rnorm();
                }
            });
        } finally {
            if (old == null) {
                System.clearProperty(CgSolver.CG_FUSED_DOT_OFF);
            } else {
                System.setProperty(CgSolver.CG_FUSED_DOT_OFF, old);
            }
        }
        return out;
    }

    @Test
    void theSolverGivesTheSameZetaWithTheFusedPassSwitchedOff() {
        boolean[] on = new boolean[1];
        boolean[] off = new boolean[1];
        double[] fused = threeSolves(false, on);
        double[] separate = threeSolves(true, off);
        assertTrue(on[0], "1 x 1 sums p.q inside the product");
        assertFalse(off[0], "switched off");
        assertArrayEquals(separate, fused, "zeta and ||r|| of three solves");
    }

    @ParameterizedTest(name = "{0} x {1}")
    @org.junit.jupiter.params.provider.CsvSource({"1, 2", "2, 1", "2, 2", "4, 1"})
    void onlyOneProcessOfOneMemberTakesIt(int ranks, int threads) {
        boolean[] taken = new boolean[ranks];
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, ranks, CgKernel.NA[0]);
            CgSolver solver = new CgSolver(session.world(), session.team(), grid, CgUpperHalfTest.classMatrix(0, ranks, me),
                    CgKernel.NA[0] / grid.nprows);
            taken[me] = solver.fusedDot();
        });
        assertArrayEquals(new boolean[ranks], taken, ranks + " x " + threads);
    }
}
