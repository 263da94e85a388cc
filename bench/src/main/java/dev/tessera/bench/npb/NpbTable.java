package dev.tessera.bench.npb;

import dev.tessera.bench.sweep.Layout;
import dev.tessera.bench.sweep.RunOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of one {@code tessera bench npb} command and what issue #22 asks of them: per class,
 * kernel and layout Tessera's median Mop/s next to the reference's on the layout's ranks, and per
 * class the goals: at one rank and one thread the geometric mean of the ratios (at least 0.9)
 * and the lowest ratio (at least 0.7), and for every layout on more than one core the speed-up
 * over our own 1 x 1 next to the reference's speed-up from one process to as many processes as
 * the layout has cores (at least as large).
 *
 * <p>The reference has no threads, so its runs depend on the class, the kernel and the number of
 * ranks only: layouts with the same ranks (1 x 1 and 1 x 2) share one list of reference runs.
 */
final class NpbTable {

    /** Goal of the one-rank-one-thread geometric mean, and of the lowest kernel there. */
    static final double GEOMEAN_GOAL = 0.9;
    static final double LOWEST_GOAL = 0.7;

    /** One table row: a kernel of a class on a layout, with Tessera's runs and the (shared) reference runs. */
    record Row(char problemClass, String kernel, Layout layout, List<RunOutcome> ours, List<RunOutcome> reference) {
        double mops() {
            return median(ours.stream().mapToDouble(RunOutcome::mops).toArray());
        }

        double referenceMops() {
            return median(reference.stream().mapToDouble(RunOutcome::mops).toArray());
        }

        double ratio() {
            return mops() / referenceMops();
        }

        /** "yes" when every Tessera run verified, "NO" otherwise (also when none ran). */
        String verified() {
            return !ours.isEmpty() && ours.stream().allMatch(o -> Boolean.TRUE.equals(o.verified())) ? "yes" : "NO";
        }
    }

    /**
     * A speed-up check: a layout's speed-up over 1 x 1 and the reference's from np = 1 to np = cores,
     * each the ratio of the medians; and the same ratios taken within each round that ran both runs
     * of the pair ({@link #record}), sorted (empty where no round did): a round's runs follow one
     * another, so a machine that changes speed between rounds moves both runs of a pair.
     */
    record SpeedUp(char problemClass, String kernel, Layout layout, double ours, double reference, double[] oursByRound,
            double[] referenceByRound) {
        SpeedUp(char problemClass, String kernel, Layout layout, double ours, double reference) {
            this(problemClass, kernel, layout, ours, reference, new double[0], new double[0]);
        }

        boolean known() {
            return !Double.isNaN(ours) && !Double.isNaN(reference);
        }

        boolean met() {
            return known() && ours >= reference;
        }
    }

    /** One class's one-rank-one-thread ratios: their geometric mean and lowest kernel, NaN when no 1 x 1 row. */
    record OneCore(char problemClass, double geomean, String lowestKernel, double lowest) {
        boolean met() {
            return !Double.isNaN(geomean) && geomean >= GEOMEAN_GOAL && lowest >= LOWEST_GOAL;
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final Map<String, List<RunOutcome>> references = new LinkedHashMap<>();
    /** Mop/s by round: of each row's Tessera runs, and of each reference run list (keyed by the list itself). */
    private final Map<Row, Map<Integer, Double>> oursByRound = new java.util.IdentityHashMap<>();
    private final Map<List<RunOutcome>, Map<Integer, Double>> referenceByRound = new java.util.IdentityHashMap<>();

    /** Adds a Tessera run of {@code row} made in round {@code round} (0, 1, ...). */
    void record(Row row, int round, RunOutcome run) {
        row.ours().add(run);
        oursByRound.computeIfAbsent(row, r -> new java.util.TreeMap<>()).put(round, run.mops());
    }

    /** Adds a reference run of {@code row}'s (class, kernel, ranks) made in round {@code round}. */
    void recordReference(Row row, int round, RunOutcome run) {
        row.reference().add(run);
        referenceByRound.computeIfAbsent(row.reference(), r -> new java.util.TreeMap<>()).put(round, run.mops());
    }

    /** a[i] / b[i] for every round in both, sorted. */
    private static double[] roundRatios(Map<Integer, Double> a, Map<Integer, Double> b) {
        if (a == null || b == null) {
            return new double[0];
        }
        return a.entrySet().stream().filter(e -> b.containsKey(e.getKey()))
                .mapToDouble(e -> e.getValue() / b.get(e.getKey())).sorted().toArray();
    }

    private Row row(char problemClass, String kernel, Layout layout) {
        for (Row r : rows) {
            if (r.problemClass() == problemClass && r.kernel().equals(kernel) && r.layout().equals(layout)) {
                return r;
            }
        }
        return null;
    }

    /** Adds the row of (class, kernel, layout); its reference runs are those of (class, kernel, the layout's ranks). */
    Row add(char problemClass, String kernel, Layout layout) {
        Row row = new Row(problemClass, kernel, layout, new ArrayList<>(),
                references.computeIfAbsent(referenceKey(problemClass, kernel, layout.ranks()), k -> new ArrayList<>()));
        rows.add(row);
        return row;
    }

    List<Row> rows() {
        return rows;
    }

    /** True if {@code row} is the first row of its (class, kernel, ranks): the one whose turn runs the reference. */
    boolean runsReference(Row row) {
        for (Row r : rows) {
            if (r.reference() == row.reference()) {
                return r == row;
            }
        }
        return false;
    }

    /** Median reference Mop/s of (class, kernel) on {@code ranks} processes; NaN when it was not run. */
    double referenceMops(char problemClass, String kernel, int ranks) {
        List<RunOutcome> runs = references.get(referenceKey(problemClass, kernel, ranks));
        return runs == null ? Double.NaN : median(runs.stream().mapToDouble(RunOutcome::mops).toArray());
    }

    /** Median Tessera Mop/s of (class, kernel, layout); NaN when no such row. */
    double mops(char problemClass, String kernel, Layout layout) {
        Row r = row(problemClass, kernel, layout);
        return r == null ? Double.NaN : r.mops();
    }

    /** Every row on more than one core, with its speed-up and the reference's (NaN where a run is missing). */
    List<SpeedUp> speedUps() {
        List<SpeedUp> out = new ArrayList<>();
        Layout single = new Layout(1, 1);
        for (Row r : rows) {
            if (r.layout().cores() < 2) {
                continue;
            }
            double ours = r.mops() / mops(r.problemClass(), r.kernel(), single);
            double reference = referenceMops(r.problemClass(), r.kernel(), r.layout().cores())
                    / referenceMops(r.problemClass(), r.kernel(), 1);
            Row one = row(r.problemClass(), r.kernel(), single);
            double[] oursRounds = roundRatios(oursByRound.get(r), one == null ? null : oursByRound.get(one));
            double[] referenceRounds = roundRatios(
                    referenceByRound.get(references.get(referenceKey(r.problemClass(), r.kernel(), r.layout().cores()))),
                    referenceByRound.get(references.get(referenceKey(r.problemClass(), r.kernel(), 1))));
            out.add(new SpeedUp(r.problemClass(), r.kernel(), r.layout(), ours, reference, oursRounds, referenceRounds));
        }
        return out;
    }

    /** Per class, in the order the classes were added: the 1 x 1 rows' geometric mean and lowest ratio. */
    List<OneCore> oneCore() {
        Map<Character, List<Row>> byClass = new LinkedHashMap<>();
        for (Row r : rows) {
            byClass.computeIfAbsent(r.problemClass(), c -> new ArrayList<>());
            if (r.layout().equals(new Layout(1, 1))) {
                byClass.get(r.problemClass()).add(r);
            }
        }
        List<OneCore> out = new ArrayList<>();
        for (Map.Entry<Character, List<Row>> e : byClass.entrySet()) {
            double logSum = 0;
            int n = 0;
            double lowest = Double.NaN;
            String lowestKernel = "-";
            for (Row r : e.getValue()) {
                double ratio = r.ratio();
                if (Double.isNaN(ratio) || ratio <= 0) {
                    continue;
                }
                logSum += Math.log(ratio);
                n++;
                if (Double.isNaN(lowest) || ratio < lowest) {
                    lowest = ratio;
                    lowestKernel = r.kernel();
                }
            }
            out.add(new OneCore(e.getKey(), n == 0 ? Double.NaN : Math.exp(logSum / n), lowestKernel, lowest));
        }
        return out;
    }

    /** The side-by-side table, then the goals. */
    String format(String header) {
        StringBuilder s = new StringBuilder(header).append('\n');
        s.append(String.format(Locale.ROOT, "  %-5s %-6s %-7s %14s %8s %16s %6s %8s%n", "class", "kernel", "np x t", "Tessera Mop/s",
                "verified", "reference Mop/s", "ref np", "ratio"));
        for (Row r : rows) {
            s.append(String.format(Locale.ROOT, "  %-5s %-6s %-7s %14.1f %8s %16.1f %6d %8.2f%n", r.problemClass(),
                    r.kernel().toUpperCase(Locale.ROOT), r.layout(), r.mops(), r.verified(), r.referenceMops(), r.layout().ranks(),
                    r.ratio()));
        }
        s.append("  (the reference runs on the layout's ranks with one thread: NPB3.4-MPI has no threads)\n");
        List<SpeedUp> speedUps = speedUps();
        if (!speedUps.isEmpty()) {
            s.append("Speed-up over our 1x1, next to the reference's from np=1 to np=cores (goal: at least the reference's):\n");
            s.append(String.format(Locale.ROOT, "  %-5s %-6s %-7s %9s %11s %s%n", "class", "kernel", "np x t", "Tessera", "reference",
                    "goal"));
            for (SpeedUp u : speedUps) {
                s.append(String.format(Locale.ROOT, "  %-5s %-6s %-7s %9.2f %11.2f %s%s%n", u.problemClass(),
                        u.kernel().toUpperCase(Locale.ROOT), u.layout(), u.ours(), u.reference(),
                        !u.known() ? "not measured" : u.met() ? "met" : "not met", byRound(u)));
            }
            if (speedUps.stream().anyMatch(u -> u.oursByRound().length > 1 || u.referenceByRound().length > 1)) {
                s.append("  (per round: the median and range of the speed-ups taken within each round, whose runs follow one "
                        + "another)\n");
            }
        }
        for (OneCore c : oneCore()) {
            if (Double.isNaN(c.geomean())) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "Class %s at 1x1: geometric mean %.2f x the reference (goal %.1f), lowest %s %.2f x "
                    + "(goal %.1f): %s%n", c.problemClass(), c.geomean(), GEOMEAN_GOAL, c.lowestKernel().toUpperCase(Locale.ROOT),
                    c.lowest(), LOWEST_GOAL, c.met() ? "met" : "not met"));
        }
        return s.toString();
    }

    /** "; per round 1.10 (0.93-1.20) / 1.90 (1.85-1.95)" when more than one round paired either speed-up, else "". */
    static String byRound(SpeedUp u) {
        if (u.oursByRound().length < 2 && u.referenceByRound().length < 2) {
            return "";
        }
        return "; per round " + spread(u.oursByRound()) + " / " + spread(u.referenceByRound());
    }

    private static String spread(double[] sorted) {
        if (sorted.length == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", median(sorted), sorted[0], sorted[sorted.length - 1]);
    }

    /** CSV of one class's rows, with the speed-ups beside each row on more than one core. */
    String csv(char problemClass) {
        StringBuilder s = new StringBuilder(
                "kernel,class,ranks,threads,tessera_mops,verified,reference_mops,ratio,tessera_speedup,reference_speedup\n");
        Map<Row, SpeedUp> speedUps = new LinkedHashMap<>();
        for (SpeedUp u : speedUps()) {
            for (Row r : rows) {
                if (r.problemClass() == u.problemClass() && r.kernel().equals(u.kernel()) && r.layout().equals(u.layout())) {
                    speedUps.put(r, u);
                }
            }
        }
        for (Row r : rows) {
            if (r.problemClass() != problemClass) {
                continue;
            }
            SpeedUp u = speedUps.get(r);
            s.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.2f,%s,%.2f,%.4f,%s,%s%n", r.kernel(), problemClass, r.layout().ranks(),
                    r.layout().threads(), r.mops(), r.verified(), r.referenceMops(), r.ratio(),
                    u == null ? "" : String.format(Locale.ROOT, "%.4f", u.ours()),
                    u == null ? "" : String.format(Locale.ROOT, "%.4f", u.reference())));
        }
        return s.toString();
    }

    private static String referenceKey(char problemClass, String kernel, int ranks) {
        return problemClass + "/" + kernel + "/" + ranks;
    }

    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
