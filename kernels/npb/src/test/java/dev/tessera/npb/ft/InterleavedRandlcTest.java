package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.npb.Randlc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class InterleavedRandlcTest {

    @Test
    @Timeout(10)
    void equalsVranlcBitForBitForEveryLength() {
        double seed = 314159265.0;
        for (int n = 0; n <= 40; n++) {
            double[] expected = new double[n + 3];
            double[] actual = new double[n + 3];
            double[] x = {seed};
            Randlc.vranlc(n, x, Randlc.A, expected, 3);
            double next = InterleavedRandlc.fill(n, seed, Randlc.A, actual, 3);
            assertArrayEquals(expected, actual, "n = " + n);
            assertEquals(x[0], next, "seed after n = " + n);
            seed = next;
        }
    }

    @Test
    @Timeout(10)
    void equalsVranlcOnALongStretchFromAJump() {
        double[] x = {314159265.0};
        Randlc.randlc(x, Randlc.power(Randlc.A, 123_456_789L));
        int n = 100_003;
        double[] expected = new double[n];
        double[] actual = new double[n];
        double start = x[0];
        Randlc.vranlc(n, x, Randlc.A, expected, 0);
        assertEquals(x[0], InterleavedRandlc.fill(n, start, Randlc.A, actual, 0));
        assertArrayEquals(expected, actual);
    }
}
