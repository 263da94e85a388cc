package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.tessera.task.Team;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The FFTs that do the 1D layout's transpose passes themselves (FT's way to xzy and back): the
 * same numbers as an in-place FFT followed, or preceded, by the copy of x-lines into or out
 * of the alltoall's blocks (real parts of a line, then its imaginary parts).
 */
@Timeout(60)
class AxisFftSlabTest {

    private static double[] random(int n, long seed) {
        Random r = new Random(seed);
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextDouble() - 0.5;
        }
        return a;
    }

    @ParameterizedTest(name = "{0} x {1} x {2} in blocks of {3} rows, {4} threads")
    @CsvSource({"32, 64, 4, 32, 1", "128, 32, 8, 8, 2", "64, 256, 2, 128, 2", "16, 64, 4, 64, 2"})
    void stridedLinesWrittenIntoBlocks(int d1, int d2, int d3, int rowsPerBlock, int threads) {
        int points = d1 * d2 * d3;
        double[] re = random(points, 1);
        double[] im = random(points, 2);
        int blockDoubles = 2 * d1 * d3 * rowsPerBlock;
        double[] expected = new double[2 * points];
        double[] actual = new double[2 * points];
        try (Team team = Team.create(threads)) {
            AxisFft axes = new AxisFft(team, Math.max(d1, Math.max(d2, d3)));
            StockhamFft fft = new StockhamFft(d2);
            double[] re2 = re.clone();
            double[] im2 = im.clone();
            axes.transform(fft, -1, re2, im2, d1, d2, d3, 1);
            for (int k = 0; k < d3; k++) {
                for (int t = 0; t < d2; t++) {
                    int at = (t / rowsPerBlock) * blockDoubles + 2 * d1 * (k + d3 * (t % rowsPerBlock));
                    for (int i = 0; i < d1; i++) {
                        expected[at + i] = re2[i + d1 * (t + d2 * k)];
                        expected[at + d1 + i] = im2[i + d1 * (t + d2 * k)];
                    }
                }
            }
            axes.transformStridedInto(fft, -1, re, im, d1, d2, d3, actual, rowsPerBlock);
        }
        assertArrayEquals(expected, actual, 0.0);
    }

    @ParameterizedTest(name = "{0} x {1} x {2} in slabs of {3} rows, {4} threads")
    @CsvSource({"32, 64, 4, 32, 1", "128, 32, 8, 8, 2", "64, 256, 2, 128, 2", "16, 64, 4, 64, 2"})
    void columnsReadFromInterleavedSlabs(int d1, int d2, int d3, int rowsPerSlab, int threads) {
        int points = d1 * d2 * d3;
        double[] src = random(2 * points, 3);
        double[] expRe = new double[points];
        double[] expIm = new double[points];
        int slabPoints = d1 * rowsPerSlab * d3;
        for (int k = 0; k < d3; k++) {
            for (int t = 0; t < d2; t++) {
                for (int i = 0; i < d1; i++) {
                    int at = (t / rowsPerSlab) * 2 * slabPoints + 2 * d1 * ((t % rowsPerSlab) + rowsPerSlab * k) + i;
                    expRe[i + d1 * (t + d2 * k)] = src[at];
                    expIm[i + d1 * (t + d2 * k)] = src[at + d1];
                }
            }
        }
        double[] re = new double[points];
        double[] im = new double[points];
        try (Team team = Team.create(threads)) {
            AxisFft axes = new AxisFft(team, Math.max(d1, Math.max(d2, d3)));
            StockhamFft fft = new StockhamFft(d2);
            axes.transform(fft, -1, expRe, expIm, d1, d2, d3, 1);
            axes.transformColumnsFrom(fft, -1, src, rowsPerSlab, re, im, d1, d2, d3);
        }
        assertArrayEquals(expRe, re, 0.0);
        assertArrayEquals(expIm, im, 0.0);
    }

    /**
     * The rank's own block read from the send buffer, the others from the receive buffer (the
     * exchange leaves the own block where it was): the same numbers as every block from one
     * array. Whatever is at the own block's place in the receive buffer, or at the other
     * blocks' places in the send buffer, must not be read (NaN there).
     */
    @ParameterizedTest(name = "{0} x {1} x {2} in slabs of {3} rows, own block {5}, {4} threads")
    @CsvSource({"32, 64, 4, 32, 1, 0", "32, 64, 4, 32, 2, 1", "128, 32, 8, 8, 2, 2", "16, 64, 4, 16, 1, 3"})
    void ownBlockReadFromTheSendBuffer(int d1, int d2, int d3, int rowsPerSlab, int threads, int ownBlock) {
        int points = d1 * d2 * d3;
        double[] whole = random(2 * points, 4);
        int blockDoubles = 2 * d1 * rowsPerSlab * d3;
        double[] recv = whole.clone();
        double[] send = new double[2 * points];
        java.util.Arrays.fill(send, Double.NaN);
        System.arraycopy(whole, ownBlock * blockDoubles, send, ownBlock * blockDoubles, blockDoubles);
        java.util.Arrays.fill(recv, ownBlock * blockDoubles, (ownBlock + 1) * blockDoubles, Double.NaN);
        double[] expRe = new double[points];
        double[] expIm = new double[points];
        double[] re = new double[points];
        double[] im = new double[points];
        try (Team team = Team.create(threads)) {
            AxisFft axes = new AxisFft(team, Math.max(d1, Math.max(d2, d3)));
            StockhamFft fft = new StockhamFft(d2);
            axes.transformColumnsFrom(fft, 1, whole, rowsPerSlab, expRe, expIm, d1, d2, d3);
            axes.transformColumnsFrom(fft, 1, recv, send, ownBlock, rowsPerSlab, re, im, d1, d2, d3);
        }
        assertArrayEquals(expRe, re, 0.0);
        assertArrayEquals(expIm, im, 0.0);
    }
}
