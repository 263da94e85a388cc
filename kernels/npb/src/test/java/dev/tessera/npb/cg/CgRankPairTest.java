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
