package dev.tessera.bench.cli;

import dev.tessera.bench.osu.Series;
import dev.tessera.bench.osu.Sizes;
import java.util.Locale;

/**
 * The core performance goals (docs/performance.md, "Goals") checked against the series of
 * one report run: one Markdown row per goal with the target, what was measured and whether
 * it is met. Ratios compare medians (p50) of the same run; a goal whose series is missing
 * (native MPI not installed, a suite skipped) is listed as not measured, never as met.
 */
final class GoalTable {

    private final StringBuilder rows = new StringBuilder();
    private int met;
    private int total;

    /** Tessera's median at {@code size} (a time suite) at most {@code limitUs} microseconds. */
    void timeAtMost(String goal, Series t, int size, double limitUs) {
        Series.Point p = t == null ? null : t.at(size);
        String target = "at most " + num(limitUs) + " us";
        if (p == null) {
            row(goal, target, null, false);
            return;
        }
        row(goal, target, num(p.p50()) + " us", p.p50() <= limitUs);
    }

    /**
     * The largest Tessera/native ratio of medians (a time suite: above 1 means Tessera slower)
     * over the sizes in [{@code from}, {@code to}] that both series ran, at most {@code limit}.
     */
    void worstTimeRatioAtMost(String goal, Series t, Series n, int from, int to, double limit) {
        String target = "at most " + ratio(limit) + " x native";
        double[] w = worstTimeRatio(t, n, from, to);
        if (w == null) {
            row(goal, target, null, false);
            return;
        }
        row(goal, target, ratio(w[1]) + " x (worst, at " + size((int) w[0]) + ")", w[1] <= limit);
    }

    /** Tessera's bandwidth or message rate over native's at {@code size} (above 1: Tessera faster) at least {@code limit}. */
    void rateRatioAtLeast(String goal, Series t, Series n, int size, double limit) {
        String target = "at least " + ratio(limit) + " x native";
        Series.Point p = t == null ? null : t.at(size);
        Series.Point q = n == null ? null : n.at(size);
        if (p == null || q == null) {
            row(goal, target, null, false);
            return;
        }
        double r = p.p50() / q.p50();
        row(goal, target, ratio(r) + " x (" + num(p.p50()) + " vs " + num(q.p50()) + " MB/s)", r >= limit);
    }

    /** A ratio measured outside the bench suites (e.g. the heat example's run times) at most {@code limit}. */
    void ratioAtMost(String goal, double value, String detail, double limit) {
        String target = "at most " + ratio(limit) + " x";
        if (Double.isNaN(value)) {
            row(goal, target, null, false);
            return;
        }
        row(goal, target, ratio(value) + " x (" + detail + ")", value <= limit);
    }

    /**
     * {size, ratio} of the largest Tessera/native median-time ratio over the sizes in
     * [{@code from}, {@code to}] present in both series, or null when there is none.
     */
    static double[] worstTimeRatio(Series t, Series n, int from, int to) {
        if (t == null || n == null) {
            return null;
        }
        double[] worst = null;
        for (Series.Point p : t.points()) {
            Series.Point q = n.at(p.size());
            if (p.size() < from || p.size() > to || q == null) {
                continue;
            }
            double r = p.p50() / q.p50();
            if (worst == null || r > worst[1]) {
                worst = new double[] {p.size(), r};
            }
        }
        return worst;
    }

    private void row(String goal, String target, String measured, boolean ok) {
        total++;
        if (measured != null && ok) {
            met++;
        }
        rows.append("| ").append(goal).append(" | ").append(target).append(" | ")
                .append(measured == null ? "not measured" : measured).append(" | ")
                .append(measured == null ? "-" : ok ? "met" : "**not met**").append(" |\n");
    }

    String markdown() {
        return "| goal | target | measured | |\n|---|---|---|---|\n" + rows
                + "\n" + met + " of " + total + " goals met in this run.\n\n";
    }

    private static String size(int bytes) {
        return bytes == 0 ? "-" : Sizes.format(bytes) + (bytes < 1024 ? " B" : "");
    }

    private static String num(double v) {
        return dev.tessera.bench.osu.Formats.num(v);
    }

    private static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
