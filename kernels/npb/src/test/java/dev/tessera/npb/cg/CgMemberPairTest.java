package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two members' product of {@link CgMemberPair}: the members' parts and the merge of each
 * other's partial sums give the compressed-row product of the whole matrix up to rounding,
 * every element is stored once between the members and their work is about even, each
 * member writes only its own half of the result, and the solver takes it at one process of
 * two members only.
 */
@Timeout(120)
class CgMemberPairTest {

    private static void assertClose(double[] expected, double[] actual, int from, int to, String what) {
        double scale = 0.0;
        for (int i = from; i < to; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
        }
        for (int i = from; i < to; i++) {
            assertEquals(expected[i], actual[i], 1e-13 * scale, what + ", row " + i);
        }
    }

    private static CgUpperHalf classHalf(int c) {
        CgUpperHalf half = CgUpperHalf.of(CgUpperHalfTest.classMatrix(c, 1, 0), CgKernel.NA[c]);
        assertNotNull(half);
        return half;
    }

    @ParameterizedTest(name = "class {0}, split at n / {1}")
    @CsvSource({"0, 2", "1, 2", "1, 3"})
    void bothMembersPartsAndTheMergeGiveTheFullProduct(int c, int fraction) {
        int n = CgKernel.NA[c];
        CgUpperHalf half = classHalf(c);
        CgMemberPair pair = CgMemberPair.of(half, n / fraction);
        double[] v = new SplittableRandom(17).doubles(n + 2, -1.0, 1.0).toArray();
        double[] y = new double[n + 2];
        Arrays.fill(y, 99.0); // the product must not depend on what the output held
        // Member 1 first: the order of the members' parts does not matter, only the merge after both.
        pair.multiply(1, v, y);
        pair.multiply(0, v, y);
        pair.merge(0, y);
        pair.merge(1, y);
        assertClose(CgUpperHalfTest.fullProduct(CgUpperHalfTest.classMatrix(c, 1, 0), n, v), y, 0, n, "member pair");
        assertEquals(99.0, y[n], "nothing written past the block");
    }

    @Test
    void eachMemberWritesOnlyItsOwnHalf() {
        int n = CgKernel.NA[0];
        CgMemberPair pair = CgMemberPair.of(classHalf(0), n / 2);
        double[] v = new SplittableRandom(19).doubles(n, -1.0, 1.0).toArray();
        for (int k = 0; k < 2; k++) {
            double[] y = new double[n];
            Arrays.fill(y, Double.NaN);
            pair.multiply(k, v, y);
            pair.merge(k, y);
            for (int j = 0; j < n; j++) {
                boolean own = j >= pair.first(k) && j < pair.end(k);
                assertEquals(!own, Double.isNaN(y[j]), "member " + k + ", element " + j);
            }
        }
    }

    @ParameterizedTest(name = "class {0}")
    @ValueSource(ints = {0, 1})
    void everyElementIsStoredOnceAndTheWorkIsEven(int c) {
        int n = CgKernel.NA[c];
        CgUpperHalf half = classHalf(c);
        CgMemberPair pair = CgMemberPair.of(half, n / 2);
        long stored0 = pair.storedElements(0);
        long stored1 = pair.storedElements(1);
        assertEquals(half.rowstr[n], stored0 + stored1);
        // Work as the split counts it: stored elements plus 4 per row run over.
        double work0 = stored0 + 4.0 * (pair.h + pair.shareRows(0));
        double work1 = stored1 + 4.0 * (n - pair.h + pair.shareRows(1));
        assertEquals(pair.h, pair.shareRows(1), "member 1's share runs over all of member 0's rows");
        assertEquals(1.0, work0 / work1, 0.02, "members' work " + work0 + " and " + work1);
    }

    @Test
    void aSplitOutsideTheBlockIsRefused() {
        CgUpperHalf half = classHalf(0);
        assertThrows(IllegalArgumentException.class, () -> CgMemberPair.of(half, 0));
        assertThrows(IllegalArgumentException.class, () -> CgMemberPair.of(half, half.n));
    }

    @Test
    void theSolverTakesItAtOneProcessOfTwoMembersOnly() {
        boolean[] taken = new boolean[4];
        int[][] layouts = {{1, 2}, {1, 1}, {1, 3}, {2, 2}};
        for (int i = 0; i < layouts.length; i++) {
            int ranks = layouts[i][0];
            int index = i;
            SmpJob.run(ranks, new String[] {"--threads", Integer.toString(layouts[i][1])}, Duration.ofSeconds(100),
                    session -> {
                        int me = session.world().rank();
                        CgGrid grid = new CgGrid(me, ranks, CgKernel.NA[0]);
                        CgMatrix matrix = CgUpperHalfTest.classMatrix(0, ranks, me);
                        CgSolver solver = new CgSolver(session.world(), session.team(), grid, matrix,
                                CgKernel.NA[0] / grid.nprows);
                        if (me == 0) {
                            taken[index] = solver.memberPairProduct();
                        }
                    });
        }
        assertArrayEquals(new boolean[] {true, false, false, false}, taken);
    }
}
