package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The upper half's product ({@link CgUpperHalf#multiply}, whose row loop is bounded as
 * {@code k < end - 1} since stop 47) gives, bit for bit, the arithmetic written out element by
 * element: per row, the diagonal term and the elements at even positions summed into one
 * partial sum, those at odd positions into another, a last odd element into the first, each
 * element's transposed term added to its column in element order, and the row's two sums
 * added last. Checked on small symmetric matrices whose rows have every upper length from 0 to
 * 8 (both parities, so the unrolled loop's end and its tail), for the whole product and for a
 * member's share of rows written at an offset, and on the class S and W matrices.
 */
@Timeout(60)
class CgRowLoopTest {

    /** The product of rows [from, to) into acc[offset ..], one element at a time in the documented order. */
    private static void elementByElement(CgUpperHalf half, double[] v, double[] acc, int offset, int from, int to) {
        Arrays.fill(acc, offset + from, offset + half.n, 0.0);
        for (int r = from; r < to; r++) {
            double vr = v[r];
            double even = half.diagonal[r] * vr;
            double odd = 0.0;
            int start = half.rowstr[r];
            int end = half.rowstr[r + 1];
            for (int k = start; k < end; k++) {
                int c = half.colidx[k];
                if ((k - start) % 2 == 0) {
                    even += half.a[k] * v[c];
                } else {
                    odd += half.a[k] * v[c];
                }
                acc[offset + c] += half.a[k] * vr;
            }
            acc[offset + r] += even + odd;
        }
    }

    private static void assertSameBits(CgUpperHalf half, double[] v, int offset, int from, int to, String what) {
        int length = offset + half.n + 2;
        double[] expected = new double[length];
        double[] actual = new double[length];
        Arrays.fill(expected, 9.0);
        Arrays.fill(actual, 9.0); // what the output held before the block must stay, inside it must not matter
        elementByElement(half, v, expected, offset, from, to);
        half.multiply(v, actual, offset, from, to);
        assertArrayEquals(expected, actual, what);
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
    void everyRowLengthGivesTheElementByElementBits(int n) {
        for (long seed = 1; seed <= 4; seed++) {
            CgUpperHalf half = CgUpperHalf.of(tailMatrix(n, seed), n);
            assertNotNull(half, "symmetric pattern");
            boolean[] lengths = new boolean[9];
            for (int r = 0; r < n; r++) {
                lengths[half.rowstr[r + 1] - half.rowstr[r]] = true;
            }
            for (int len = 0; len <= Math.min(8, (n - 1) / 2); len++) {
                assertTrue(lengths[len], "a row with " + len + " upper elements, n = " + n);
            }
            double[] v = new SplittableRandom(seed * 7).doubles(n + 2, -1.0, 1.0).toArray();
            assertSameBits(half, v, 0, 0, n, "n = " + n + ", seed " + seed + ", whole product");
            assertSameBits(half, v, 3, n / 3, n - n / 4, "n = " + n + ", seed " + seed + ", a share at offset 3");
        }
    }

    @Test
    void theClassMatricesGiveTheElementByElementBits() {
        for (int c = 0; c <= 1; c++) {
            int n = CgKernel.NA[c];
            CgUpperHalf half = CgUpperHalf.of(CgUpperHalfTest.classMatrix(c, 1, 0), n);
            assertNotNull(half);
            double[] v = new SplittableRandom(31 + c).doubles(n + 2, -1.0, 1.0).toArray();
            assertSameBits(half, v, 0, 0, n, "class " + c);
        }
    }
}
