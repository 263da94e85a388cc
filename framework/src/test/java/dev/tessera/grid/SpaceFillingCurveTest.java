package dev.tessera.grid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SpaceFillingCurveTest {

    @ParameterizedTest(name = "{0} bits")
    @ValueSource(ints = {1, 2, 3, 4})
    void hilbertKeysAreABijectionWithAdjacentConsecutiveCells(int bits) {
        int n = 1 << bits;
        int cells = n * n * n;
        int[][] cellOfKey = new int[cells][];
        for (int x = 0; x < n; x++) {
            for (int y = 0; y < n; y++) {
                for (int z = 0; z < n; z++) {
                    long key = SpaceFillingCurve.hilbert(x, y, z, bits);
                    assertTrue(key >= 0 && key < cells, "key in range");
                    assertEquals(null, cellOfKey[(int) key], "key " + key + " used twice");
                    cellOfKey[(int) key] = new int[] {x, y, z};
                    assertArrayEquals(new int[] {x, y, z}, SpaceFillingCurve.hilbertInverse(key, bits));
                }
            }
        }
        for (int k = 1; k < cells; k++) {
            int[] a = cellOfKey[k - 1];
            int[] b = cellOfKey[k];
            int distance = Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
            assertEquals(1, distance, "keys " + (k - 1) + " and " + k + " are face neighbours");
        }
    }

    @ParameterizedTest(name = "{0} bits")
    @ValueSource(ints = {1, 3, 21})
    void mortonKeysRoundTrip(int bits) {
        int max = (1 << bits) - 1;
        int[][] points = {{0, 0, 0}, {max, 0, 0}, {0, max, 1 % (max + 1)}, {max, max, max}, {max / 2, max / 3, max / 5}};
        java.util.Set<Long> keys = new java.util.HashSet<>();
        for (int[] p : points) {
            long key = SpaceFillingCurve.morton(p[0], p[1], p[2], bits);
            keys.add(key);
            assertArrayEquals(p, SpaceFillingCurve.mortonInverse(key, bits));
        }
        assertEquals(7L, SpaceFillingCurve.morton(1, 1, 1, 1));
        assertEquals(4L, SpaceFillingCurve.morton(1, 0, 0, 1));
    }

    @ParameterizedTest(name = "{0} bits")
    @ValueSource(ints = {5, 21})
    void largeHilbertKeysRoundTrip(int bits) {
        java.util.Random r = new java.util.Random(bits);
        for (int i = 0; i < 1000; i++) {
            int x = r.nextInt(1 << bits);
            int y = r.nextInt(1 << bits);
            int z = r.nextInt(1 << bits);
            assertArrayEquals(new int[] {x, y, z}, SpaceFillingCurve.hilbertInverse(SpaceFillingCurve.hilbert(x, y, z, bits), bits));
        }
        long k = SpaceFillingCurve.hilbert(new double[] {0.5, 0.25, 0.75}, new double[3], new double[] {1, 1, 1}, bits);
        assertTrue(k >= 0);
        assertThrows(IllegalArgumentException.class, () -> SpaceFillingCurve.hilbert(1 << bits, 0, 0, bits));
        assertThrows(IllegalArgumentException.class, () -> SpaceFillingCurve.morton(0, 0, 0, 22));
    }
}
