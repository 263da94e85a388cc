package dev.tessera.bench.sweep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The runs of one layout (Tessera's and, where asked, the reference's) and their medians. */
public final class LayoutResult {

    private final Layout layout;
    private final List<RunOutcome> runs = new ArrayList<>();
    private final List<RunOutcome> reference = new ArrayList<>();

    public LayoutResult(Layout layout) {
        this.layout = layout;
    }

    public Layout layout() {
        return layout;
    }

    public void add(RunOutcome r) {
        runs.add(r);
    }

    public void addReference(RunOutcome r) {
        reference.add(r);
    }

    public List<RunOutcome> runs() {
        return runs;
    }

    public int count() {
        return runs.size();
    }

    public double medianSeconds() {
        return median(runs.stream().mapToDouble(RunOutcome::seconds).toArray());
    }

    public double minSeconds() {
        return runs.stream().mapToDouble(RunOutcome::seconds).min().orElse(Double.NaN);
    }

    public double medianMops() {
        return median(runs.stream().mapToDouble(RunOutcome::mops).filter(m -> !Double.isNaN(m)).toArray());
    }

    public double referenceMedianMops() {
        return median(reference.stream().mapToDouble(RunOutcome::mops).filter(m -> !Double.isNaN(m)).toArray());
    }

    public double referenceMedianSeconds() {
        return median(reference.stream().mapToDouble(RunOutcome::seconds).toArray());
    }

    public boolean hasReference() {
        return !reference.isEmpty();
    }

    /** "yes" if every run said it verified, "NO" if one said it did not, "-" if none said. */
    public String verified() {
        boolean any = false;
        for (RunOutcome r : runs) {
            if (Boolean.FALSE.equals(r.verified())) {
                return "NO";
            }
            any |= r.verified() != null;
        }
        return any ? "yes" : "-";
    }

    /** The price of one run at {@code pricePerHour} for the whole machine (median time). */
    public double costPerRun(double pricePerHour) {
        return medianSeconds() / 3600.0 * pricePerHour;
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
