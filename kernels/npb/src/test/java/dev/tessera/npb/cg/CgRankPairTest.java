package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two-process product with every element stored once ({@link CgRankPair}) gives each
 * process the whole matrix's product over its columns, up to rounding; the two shares
 * together hold each off-diagonal element exactly once and about half each; blocks whose
 * patterns are not each other's transposes are refused on both processes; the solver takes
 * it at two processes of one member only.
 */
@Timeout(120)
class CgRankPairTest {

    private static CgMatrix classMatrix(int c, int nprocs, int me) {
        return CgUpperHalfTest.classMatrix(c, nprocs, me);
    }

    @ParameterizedTest(name = "class {0}")
    @ValueSource(ints = {0, 1})
    void eachProcessGetsTheFullProductOverItsColumns(int c) {
        int n = CgKernel.NA[c];
        CgMatrix full = classMatrix(c, 1, 0);
        double[] v = new SplittableRandom(17).doubles(n, -1.0, 1.0).toArray();
        double[] expected = CgUpperHalfTest.fullProduct(full, n, v);
        double scale = 0.0;
        for (double e : expected) {
            scale = Math.max(scale, Math.abs(e));
        }
        double[][] got = new double[2][];
        int[] firstcol = new int[2];
        long[] stored = new long[2];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, 2, n);
            CgMatrix block = classMatrix(c, 2, me);
            CgUpperHalf half = CgUpperHalf.of(block, grid.firstcol - grid.firstrow, grid.cols());
            CgRankPair pair = CgRankPair.create(session.world(), grid, block, half);
            assertNotNull(pair, "process " + me);
            double[] own = new double[grid.cols() + 2];
            System.arraycopy(v, grid.firstcol - 1, own, 0, grid.cols());
            double[] target = new double[grid.cols() + 2];
            java.util.Arrays.fill(target, 42.0); // what the target held must not matter
            pair.multiply(own, target);
            pair.multiply(own, target); // a second product gives the same (nothing left over from the first)
            got[me] = target;
            firstcol[me] = grid.firstcol - 1;
            stored[me] = pair.storedElements();
        });
        for (int me = 0; me < 2; me++) {
            int cols = me == 0 ? firstcol[1] : n - firstcol[1];
            for (int j = 0; j < cols; j++) {
                assertEquals(expected[firstcol[me] + j], got[me][j], 1e-13 * scale, "process " + me + ", column " + j);
            }
        }
        long offDiagonal = full.rowstr[n] - n;
        assertEquals(offDiagonal / 2, stored[0] + stored[1], "each off-diagonal element stored once between the two");
        // The split also counts each row of a share's loop, and process 1 loops over all of block 0's
        // rows, so process 0 ends up with a few percent more elements.
        assertEquals(stored[0], stored[1], 0.10 * stored[0], "the two shares are about equal");
        assertTrue(stored[0] >= stored[1], "process 0 takes the more elements");
    }

    /**
     * The folded iteration's pieces: multiplyDot gives the product and p.q over both
     * processes in one exchange (the same bits on both); residualSum gives r.r over both; and
     * advanceDirection keeps the other process's elements of p = r + beta p current, so that
     * the next product, without fetching p, is the product of the updated p.
     */
    @Test
    void foldedExchangesGiveTheProductTheDotProductsAndTheNextDirection() {
        int n = CgKernel.NA[0];
        CgMatrix full = classMatrix(0, 1, 0);
        SplittableRandom random = new SplittableRandom(5);
        double[] p = random.doubles(n, -1.0, 1.0).toArray();
        double[] r = random.doubles(n, -1.0, 1.0).toArray();
        double beta = 0.37;
        double[] q = CgUpperHalfTest.fullProduct(full, n, p);
        double[] next = new double[n];
        double pq = 0.0;
        double rr = 0.0;
        for (int j = 0; j < n; j++) {
            pq += p[j] * q[j];
            rr += r[j] * r[j];
            next[j] = r[j] + beta * p[j];
        }
        double[] nextQ = CgUpperHalfTest.fullProduct(full, n, next);
        double scale = 0.0;
        for (double e : nextQ) {
            scale = Math.max(scale, Math.abs(e));
        }
        double[][] dots = new double[2][];
        double[][] firstQ = new double[2][];
        double[][] secondQ = new double[2][];
        int[] firstcol = new int[2];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, 2, n);
            CgMatrix block = classMatrix(0, 2, me);
            CgUpperHalf half = CgUpperHalf.of(block, grid.firstcol - grid.firstrow, grid.cols());
            CgRankPair pair = CgRankPair.create(session.world(), grid, block, half);
            assertNotNull(pair, "process " + me);
            int cols = grid.cols();
            int first = grid.firstcol - 1;
            double[] ownP = new double[cols + 2];
            double[] ownR = new double[cols + 2];
            System.arraycopy(p, first, ownP, 0, cols);
            System.arraycopy(r, first, ownR, 0, cols);
            double[] target = new double[cols + 2];
            double d = pair.multiplyDot(ownP, target, true);
            firstQ[me] = target.clone();
            double localRr = 0.0;
            for (int j = 0; j < cols; j++) {
                localRr += ownR[j] * ownR[j];
            }
            double rho = pair.residualSum(localRr, ownR);
            for (int j = 0; j < cols; j++) {
                ownP[j] = ownR[j] + beta * ownP[j];
            }
            pair.advanceDirection(beta);
            java.util.Arrays.fill(target, 42.0);
            pair.multiplyDot(ownP, target, false);
            secondQ[me] = target;
            dots[me] = new double[] {d, rho};
            firstcol[me] = first;
        });
        assertEquals(dots[0][0], dots[1][0], 0.0, "p.q: the same bits on both processes");
        assertEquals(dots[0][1], dots[1][1], 0.0, "r.r: the same bits on both processes");
        assertEquals(pq, dots[0][0], 1e-12 * Math.abs(pq), "p.q");
        assertEquals(rr, dots[0][1], 1e-12 * rr, "r.r");
        for (int me = 0; me < 2; me++) {
            int cols = me == 0 ? firstcol[1] : n - firstcol[1];
            for (int j = 0; j < cols; j++) {
                assertEquals(q[firstcol[me] + j], firstQ[me][j], 1e-13 * scale, "A p, process " + me + ", column " + j);
                assertEquals(nextQ[firstcol[me] + j], secondQ[me][j], 1e-13 * scale,
                        "A (r + beta p) without fetching p, process " + me + ", column " + j);
            }
        }
    }

    /** The solver's zeta with the folded exchanges is the one with four waits per iteration, up to rounding. */
    @Test
    void foldedSolverGivesTheZetaOfTheUnfoldedOne() {
        double[][] zetas = new double[2][];
        for (int variant = 0; variant < 2; variant++) {
            int slot = variant;
            if (variant == 1) {
                System.setProperty(CgSolver.CG_FOLD_OFF, "true");
            }
            try {
                SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
                    int me = session.world().rank();
                    CgGrid grid = new CgGrid(me, 2, CgKernel.NA[0]);
                    CgSolver solver = new CgSolver(session.world(), session.team(), grid, classMatrix(0, 2, me),
                            CgKernel.NA[0]);
                    solver.resetX();
                    double[] z = new double[3];
                    for (int it = 0; it < z.length; it++) {
                        z[it] = solver.iterate(10.0);
                    }
                    if (me == 0) {
                        zetas[slot] = z;
                    }
                });
            } finally {
                System.clearProperty(CgSolver.CG_FOLD_OFF);
            }
        }
        for (int it = 0; it < 3; it++) {
            assertEquals(zetas[1][it], zetas[0][it], 1e-12 * Math.abs(zetas[1][it]), "iteration " + it);
        }
    }

    /** A 4 x 4 matrix's two 4 x 2 column blocks (local columns), full diagonal blocks. */
    private static CgMatrix block(int me, boolean symmetric) {
        // A = [[4 1 1 0] [1 4 0 1] [1 0 4 1] [0 1 1 4]]; the asymmetric variant moves (2, 0) to (3, 0).
        if (me == 0) {
            int[] rowstr = {0, 2, 4, 5, 6};
            int[] colidx = symmetric ? new int[] {0, 1, 0, 1, 0, 1} : new int[] {0, 1, 0, 1, 1, 0};
            double[] a = {4, 1, 1, 4, 1, 1};
            return new CgMatrix(a, colidx, rowstr);
        }
        int[] rowstr = {0, 1, 2, 4, 6};
        int[] colidx = {0, 1, 0, 1, 0, 1};
        double[] a = {1, 1, 4, 1, 1, 4};
        return new CgMatrix(a, colidx, rowstr);
    }

    @Test
    void offDiagonalBlocksThatAreNotTransposesAreRefusedOnBothProcesses() {
        boolean[] made = new boolean[4];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(60), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, 2, 4);
            for (int variant = 0; variant < 2; variant++) {
                CgMatrix m = block(me, variant == 0);
                CgUpperHalf half = CgUpperHalf.of(m, grid.firstcol - grid.firstrow, grid.cols());
                made[2 * variant + me] = CgRankPair.create(session.world(), grid, m, half) != null;
            }
        });
        assertTrue(made[0] && made[1], "the symmetric matrix is split");
        assertFalse(made[2] || made[3], "the asymmetric one is refused by both processes");
    }

    @Test
    void theSolverTakesItAtTwoProcessesOfOneMemberOnly() {
        boolean[] taken = new boolean[3];
        for (int threads = 1; threads <= 2; threads++) {
            int slot = threads - 1;
            SmpJob.run(2, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(60), session -> {
                int me = session.world().rank();
                CgGrid grid = new CgGrid(me, 2, CgKernel.NA[0]);
                CgSolver solver = new CgSolver(session.world(), session.team(), grid, classMatrix(0, 2, me),
                        CgKernel.NA[0]);
                if (me == 0) {
                    taken[slot] = solver.pairProduct();
                }
            });
        }
        SmpJob.run(4, new String[] {"--threads", "1"}, Duration.ofSeconds(60), session -> {
            int me = session.world().rank();
            CgGrid grid = new CgGrid(me, 4, CgKernel.NA[0]);
            CgSolver solver = new CgSolver(session.world(), session.team(), grid, classMatrix(0, 4, me),
                    CgKernel.NA[0] / grid.nprows);
            if (me == 0) {
                taken[2] = solver.pairProduct();
            }
        });
        assertTrue(taken[0], "2 x 1");
        assertFalse(taken[1], "2 x 2");
        assertFalse(taken[2], "4 x 1");
    }

    @Test
    void oneProcessHasNoPair() {
        boolean[] made = {true};
        SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(60), session -> {
            CgGrid grid = new CgGrid(0, 1, CgKernel.NA[0]);
            CgMatrix m = classMatrix(0, 1, 0);
            made[0] = CgRankPair.create(session.world(), grid, m, CgUpperHalf.of(m, grid.cols())) != null;
        });
        assertFalse(made[0]);
    }
}
