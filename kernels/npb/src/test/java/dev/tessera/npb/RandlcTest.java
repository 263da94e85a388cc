package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The generator against values printed by the reference's own randdp.f (NPB3.4-MPI/common),
 * compiled with gfortran: three randlc steps from the IS/CG seed, five vranlc values from
 * EP's seed, and the 17 squarings that give EP's batch multiplier.
 */
class RandlcTest {

    private static final double A = 1220703125.0;

    @Test
    void randlcMatchesTheReferenceSequence() {
        double[] x = {314159265.0};
        assertEquals(7.94521911188738272E-01, Randlc.randlc(x, A), 0.0);
        assertEquals(55909509111989.0, x[0], 0.0);
        assertEquals(8.69065273874539912E-01, Randlc.randlc(x, A), 0.0);
        assertEquals(61155031930969.0, x[0], 0.0);
        assertEquals(6.47631728464332923E-01, Randlc.randlc(x, A), 0.0);
        assertEquals(45573031421645.0, x[0], 0.0);
    }

    @Test
    void vranlcMatchesTheReferenceSequence() {
        double[] expected = {4.67304822196226155E-01, 7.82502630650455444E-01, 5.55731743265980072E-01,
            6.66479579535561584E-01, 4.87746073883315034E-01};
        double[] y = new double[7];
        double[] x = {271828183.0};
        Randlc.vranlc(5, x, A, y, 2);
        for (int i = 0; i < 5; i++) {
            assertEquals(expected[i], y[i + 2], 0.0, "y(" + (i + 1) + ")");
        }
        assertEquals(34322078696755.0, x[0], 0.0);
        assertEquals(0.0, y[0], 0.0, "values before the offset are untouched");

        double[] z = new double[5];
        double seed = Randlc.vranlc(5, 271828183.0, A, z, 0);
        assertEquals(34322078696755.0, seed, 0.0);
        assertEquals(expected[4], z[4], 0.0);
    }

    @Test
    void multiplyIsRandlcWithoutTheNormalisation() {
        double[] x = {314159265.0};
        double r = Randlc.randlc(x, A);
        assertEquals(x[0], Randlc.multiply(314159265.0, A), 0.0);
        assertEquals(r, Randlc.multiply(314159265.0, A) * 0x1p-46, 0.0);
    }

    @Test
    void powerMatchesRepeatedSquaringAndRepeatedMultiplication() {
        // EP's batch multiplier a^(2^17): 17 squarings in the reference.
        assertEquals(62362532446209.0, Randlc.power(A, 1L << 17), 0.0);
        for (long k : new long[] {0, 1, 2, 3, 7, 100, 12345}) {
            double expected = 1.0;
            for (long i = 0; i < k; i++) {
                expected = Randlc.multiply(expected, A);
            }
            assertEquals(expected, Randlc.power(A, k), 0.0, "a^" + k);
        }
    }

    @Test
    void jumpingAheadByPowerLandsOnTheSequence() {
        double[] x = {314159265.0};
        for (int i = 0; i < 1000; i++) {
            Randlc.randlc(x, A);
        }
        assertEquals(x[0], Randlc.multiply(314159265.0, Randlc.power(A, 1000)), 0.0);
    }
}
