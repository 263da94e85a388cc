package dev.tessera.bench.osu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Text outputs of a run: the OSU-style table (comment header lines starting with '#',
 * then one row per size), its Markdown form for docs/performance.md, and CSV.
 */
public final class Formats {

    /** CSV header; one row per implementation and size, values in the unit column. */
    public static final String CSV_HEADER = "suite,impl,device,ranks,size,iters,blocks,unit,p50,p90,p99,best,mean";

    private Formats() {
    }

    /** Column names of the table for a run, with a native p50 and ratio column when compared. */
    static List<String> columns(Suite suite, boolean compared) {
        String u = "(" + suite.unit() + ")";
        List<String> c = new ArrayList<>(List.of("Size", "p50" + u, "p90" + u, "p99" + u,
                (suite.isBandwidth() ? "max" : "min") + u));
        if (compared) {
            c.add("native p50" + u);
            c.add("ratio");
        }
        return c;
    }

    /** Rows of cells, one per size of the Tessera series. */
    static List<List<String>> rows(Series tessera, Series nativeRun) {
        List<List<String>> rows = new ArrayList<>();
        for (Series.Point p : tessera.points()) {
            List<String> r = new ArrayList<>(List.of(Integer.toString(p.size()), num(p.p50()), num(p.p90()),
                    num(p.p99()), num(p.best())));
            if (nativeRun != null) {
                Series.Point n = nativeRun.at(p.size());
                r.add(n == null ? "-" : num(n.p50()));
                r.add(n == null ? "-" : String.format(Locale.ROOT, "%.2f", p.p50() / n.p50()));
            }
            rows.add(r);
        }
        return rows;
    }

    /** The OSU-style table: header comments, column names, aligned rows. */
    public static String table(Series tessera, Series nativeRun, String nativeNote) {
        Suite s = tessera.suite();
        StringBuilder sb = new StringBuilder();
        sb.append("# Tessera bench ").append(s.cliName()).append(": ").append(s.description()).append('\n');
        sb.append("# device ").append(tessera.device()).append(", ").append(tessera.ranks()).append(" ranks, ")
                .append(tessera.points().isEmpty() ? 0 : tessera.points().get(0).time().count())
                .append(" timed blocks per size; p50 = median over blocks, p90/p99 = slow tail\n");
        if (nativeRun != null) {
            sb.append("# native: ").append(nativeNote).append("; ratio = Tessera p50 / native p50")
                    .append(s.isBandwidth() ? " (above 1: Tessera faster)" : " (above 1: Tessera slower)").append('\n');
        } else if (nativeNote != null) {
            sb.append("# ").append(nativeNote).append('\n');
        }
        List<String> cols = columns(s, nativeRun != null);
        sb.append(String.format(Locale.ROOT, "%-10s", "# " + cols.get(0)));
        for (int i = 1; i < cols.size(); i++) {
            sb.append(String.format(Locale.ROOT, "%18s", cols.get(i)));
        }
        sb.append('\n');
        for (List<String> r : rows(tessera, nativeRun)) {
            sb.append(String.format(Locale.ROOT, "%-10s", r.get(0)));
            for (int i = 1; i < r.size(); i++) {
                sb.append(String.format(Locale.ROOT, "%18s", r.get(i)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The same table as Markdown (sizes written as 4K, 1M). */
    public static String markdown(Series tessera, Series nativeRun) {
        List<String> cols = columns(tessera.suite(), nativeRun != null);
        StringBuilder sb = new StringBuilder("| " + String.join(" | ", cols) + " |\n|");
        sb.append("---|".repeat(cols.size())).append('\n');
        for (List<String> r : rows(tessera, nativeRun)) {
            List<String> cells = new ArrayList<>(r);
            cells.set(0, Sizes.format(Long.parseLong(r.get(0))));
            sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        return sb.toString();
    }

    /** CSV rows (no header) of a series. */
    public static String csvRows(Series s) {
        StringBuilder sb = new StringBuilder();
        for (Series.Point p : s.points()) {
            sb.append(String.join(",", s.suite().cliName(), s.impl(), s.device(), Integer.toString(s.ranks()),
                    Integer.toString(p.size()), Integer.toString(p.iters()), Integer.toString(p.time().count()),
                    s.suite().unit(), csvNum(p.p50()), csvNum(p.p90()), csvNum(p.p99()), csvNum(p.best()),
                    csvNum(p.mean()))).append('\n');
        }
        return sb.toString();
    }

    /** A value with about 4 significant digits. */
    public static String num(double v) {
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        return String.format(Locale.ROOT, "%.4f", v);
    }

    static String csvNum(double v) {
        return String.format(Locale.ROOT, "%.6g", v);
    }
}
