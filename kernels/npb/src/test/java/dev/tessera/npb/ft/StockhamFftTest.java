package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StockhamFftTest {

    /** X_q = sum_t x_t exp(sign 2 pi i t q / n), evaluated directly. */
    private static double[][] naiveDft(double[] re, double[] im, int sign) {
        int n = re.length;
        double[] outRe = new double[n];
        double[] outIm = new double[n];
        for (int q = 0; q < n; q++) {
            for (int t = 0; t < n; t++) {
                double angle = sign * 2 * Math.PI * ((long) t * q % n) / n;
                double c = Math.cos(angle);
                double s = Math.sin(angle);
                outRe[q] += re[t] * c - im[t] * s;
                outIm[q] += re[t] * s + im[t] * c;
            }
        }
        return new double[][] {outRe, outIm};
    }

    @ParameterizedTest(name = "n = {0}, direction {1}, {2} lanes")
    @CsvSource({"2, 1, 16", "4, -1, 16", "8, 1, 16", "32, 1, 16", "64, -1, 16", "128, 1, 64", "256, -1, 32", "512, 1, 16"})
    @Timeout(30)
    void matchesTheNaiveDftOnEveryLane(int n, int direction, int lanes) {
        StockhamFft fft = new StockhamFft(n);
        Random random = new Random(n * 31L + lanes);
        double[][] lineRe = new double[lanes][n];
        double[][] lineIm = new double[lanes][n];
        double[][] re = new double[n][lanes];
        double[][] im = new double[n][lanes];
        for (int j = 0; j < lanes; j++) {
            for (int t = 0; t < n; t++) {
                lineRe[j][t] = random.nextDouble() - 0.5;
                lineIm[j][t] = random.nextDouble() - 0.5;
                re[t][j] = lineRe[j][t];
                im[t][j] = lineIm[j][t];
            }
        }
        fft.transform(direction, lanes, re, im, new double[n][lanes], new double[n][lanes]);
        for (int j = 0; j < lanes; j++) {
            double[][] expected = naiveDft(lineRe[j], lineIm[j], direction);
            for (int q = 0; q < n; q++) {
                assertEquals(expected[0][q], re[q][j], 1e-11 * n, "re, lane " + j + ", q " + q);
                assertEquals(expected[1][q], im[q][j], 1e-11 * n, "im, lane " + j + ", q " + q);
            }
        }
    }

    @Test
    @Timeout(10)
    void forwardThenInverseScaledByNIsTheIdentity() {
        int n = 64;
        int lanes = 16;
        StockhamFft fft = new StockhamFft(n);
        Random random = new Random(7);
        double[][] re = new double[n][lanes];
        double[][] im = new double[n][lanes];
        double[][] re0 = new double[n][lanes];
        double[][] im0 = new double[n][lanes];
        for (int t = 0; t < n; t++) {
            for (int j = 0; j < lanes; j++) {
                re[t][j] = re0[t][j] = random.nextDouble();
                im[t][j] = im0[t][j] = random.nextDouble();
            }
        }
        double[][] sr = new double[n][lanes];
        double[][] si = new double[n][lanes];
        fft.transform(1, lanes, re, im, sr, si);
        fft.transform(-1, lanes, re, im, sr, si);
        for (int t = 0; t < n; t++) {
            for (int j = 0; j < lanes; j++) {
                assertEquals(re0[t][j], re[t][j] / n, 1e-13);
                assertEquals(im0[t][j], im[t][j] / n, 1e-13);
            }
        }
    }

    @Test
    @Timeout(10)
    void refusesLengthsThatAreNotPowersOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new StockhamFft(48));
        assertThrows(IllegalArgumentException.class, () -> new StockhamFft(1));
    }
}
