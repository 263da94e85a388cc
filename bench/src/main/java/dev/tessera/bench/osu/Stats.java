package dev.tessera.bench.osu;

import java.util.Arrays;

/**
 * Order statistics of the per-block times of one size: median (p50, the mean of the two
 * middle values for an even count), p90 and p99 by the nearest-rank method (the smallest
 * value with at least that share of values at or below it), min, max and mean.
 *
 * @param count number of blocks
 */
public record Stats(int count, double p50, double p90, double p99, double min, double max, double mean) {

    public static Stats of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(n, median, nearestRank(v, 90), nearestRank(v, 99), v[0], v[n - 1],
                Arrays.stream(v).sum() / n);
    }

    /** Nearest-rank percentile of sorted values. */
    static double nearestRank(double[] sorted, double percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
