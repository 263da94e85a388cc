package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.tessera.task.Team;
import java.util.Random;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The FFTs that do the 1D layout's transpose passes themselves (FT's z-to-x way back): the
 * same numbers as an in-place FFT followed, or preceded, by the copy those passes made.
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

    @ParameterizedTest(name = "{0} x {1} x {2}, {3} threads")
    @CsvSource({"32, 64, 4, 1", "128, 32, 8, 2", "64, 256, 2, 2"})
    void linesWrittenInterleavedAtAStride(int d1, int d2, int d3, int threads) {
        int points = d1 * d2 * d3;
        double[] re = random(points, 1);
        double[] im = random(points, 2);
        int lines = d2 * d3;
        int stride = 2 * lines;
        double[] expected = new double[2 * points];
        double[] actual = new double[2 * points];
        try (Team team = Team.create(threads)) {
            AxisFft axes = new AxisFft(team, Math.max(d1, Math.max(d2, d3)));
            StockhamFft fft = new StockhamFft(d1);
            double[] re2 = re.clone();
            double[] im2 = im.clone();
            axes.transform(fft, -1, re2, im2, d1, d2, d3, 0);
            for (int line = 0; line < lines; line++) {
                for (int t = 0; t < d1; t++) {
                    expected[2 * line + t * stride] = re2[t + d1 * line];
                    expected[2 * line + t * stride + 1] = im2[t + d1 * line];
                }
            }
            axes.transformLinesInto(fft, -1, re, im, d1, d2, d3, actual, stride);
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
                    int at = 2 * ((t / rowsPerSlab) * slabPoints + k * d1 * rowsPerSlab + i + d1 * (t % rowsPerSlab));
                    expRe[i + d1 * (t + d2 * k)] = src[at];
                    expIm[i + d1 * (t + d2 * k)] = src[at + 1];
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
}
