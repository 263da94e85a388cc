package dev.tessera.bench.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The sweep's table (stdout), CSV and PNG. The best layout is the one with the smallest
 * median time (the largest Mop/s where the program reports Mop/s); it is marked with '*'.
 * With a price per hour, each layout's cost per run is the machine's price for the median
 * time, and other machines' sweeps ({@code --compare}) join a table ordered by that cost.
 */
public final class SweepReport {

    /** A layout measured on some machine, at that machine's price. */
    public record Row(String machine, String layout, int runs, double medianSeconds, double minSeconds, double mops,
            String verified, double referenceMops, double pricePerHour) {

        double cost() {
            return Double.isNaN(pricePerHour) ? Double.NaN : medianSeconds / 3600.0 * pricePerHour;
        }
    }

    private SweepReport() {
    }

    public static List<Row> rows(String machine, List<LayoutResult> results, double pricePerHour) {
        List<Row> rows = new ArrayList<>();
        for (LayoutResult r : results) {
            rows.add(new Row(machine, r.layout().toString(), r.count(), r.medianSeconds(), r.minSeconds(), r.medianMops(),
                    r.verified(), r.referenceMedianMops(), pricePerHour));
        }
        return rows;
    }

    /** The index of the best row: largest Mop/s if every row has it, else smallest median time. */
    public static int best(List<Row> rows) {
        boolean mops = rows.stream().allMatch(r -> !Double.isNaN(r.mops()));
        Comparator<Row> order = mops ? Comparator.comparingDouble(Row::mops).reversed()
                : Comparator.comparingDouble(Row::medianSeconds);
        Row b = rows.stream().min(order).orElseThrow();
        return rows.indexOf(b);
    }

    public static void print(PrintStream out, String title, List<Row> rows) {
        int best = best(rows);
        boolean reference = rows.stream().anyMatch(r -> !Double.isNaN(r.referenceMops()));
        boolean price = rows.stream().anyMatch(r -> !Double.isNaN(r.pricePerHour()));
        out.println(title);
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "  %-8s %4s %11s %11s %11s %8s", "layout", "runs",
                "median (s)", "best (s)", "Mop/s", "verified"));
        if (reference) {
            h.append(String.format(Locale.ROOT, " %13s %7s", "ref. Mop/s", "ratio"));
        }
        if (price) {
            h.append(String.format(Locale.ROOT, " %12s", "cost/run"));
        }
        out.println(h);
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %-8s %4d %11.3f %11.3f %11s %8s",
                    i == best ? " *" : "  ", r.layout(), r.runs(), r.medianSeconds(), r.minSeconds(), num(r.mops(), "%.1f"),
                    r.verified()));
            if (reference) {
                line.append(String.format(Locale.ROOT, " %13s %7s", num(r.referenceMops(), "%.1f"),
                        num(r.mops() / r.referenceMops(), "%.2f")));
            }
            if (price) {
                line.append(String.format(Locale.ROOT, " %12s", num(r.cost(), "$%.6f")));
            }
            out.println(line);
        }
        out.println("  * best layout (" + (rows.stream().allMatch(r -> !Double.isNaN(r.mops())) ? "highest Mop/s" : "shortest median time") + ")");
    }

    /** Rows of every machine ordered by cost per run (cheapest answer first). */
    public static void printCheapest(PrintStream out, List<Row> rows) {
        List<Row> priced = rows.stream().filter(r -> !Double.isNaN(r.cost())).sorted(Comparator.comparingDouble(Row::cost)).toList();
        if (priced.isEmpty()) {
            return;
        }
        out.println("Cheapest answer (cost of one run at each machine's price per hour):");
        out.println(String.format(Locale.ROOT, "  %-28s %-8s %11s %10s %12s", "machine", "layout", "median (s)", "$/hour", "cost/run"));
        for (Row r : priced) {
            out.println(String.format(Locale.ROOT, "  %-28s %-8s %11.3f %10.3f %12s", r.machine(), r.layout(), r.medianSeconds(),
                    r.pricePerHour(), num(r.cost(), "$%.6f")));
        }
    }

    private static String num(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    public static void writeCsv(Path csv, List<Row> rows) throws IOException {
        StringBuilder s = new StringBuilder("machine,layout,runs,median_s,min_s,mops,verified,reference_mops,price_per_hour,cost_per_run\n");
        for (Row r : rows) {
            s.append(String.format(Locale.ROOT, "%s,%s,%d,%.6f,%.6f,%s,%s,%s,%s,%s%n", r.machine().replace(',', ';'), r.layout(),
                    r.runs(), r.medianSeconds(), r.minSeconds(), csvNum(r.mops()), r.verified(), csvNum(r.referenceMops()),
                    csvNum(r.pricePerHour()), csvNum(r.cost())));
        }
        if (csv.getParent() != null) {
            Files.createDirectories(csv.getParent());
        }
        Files.writeString(csv, s);
    }

    private static String csvNum(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    /** Reads a CSV written by {@link #writeCsv} (another machine's sweep), pricing it at {@code pricePerHour}. */
    public static List<Row> readCsv(Path csv, double pricePerHour) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty() || !lines.get(0).startsWith("machine,layout,runs,median_s")) {
            throw new IOException(csv + " is not a tessera sweep CSV (its first line should be the sweep's header)");
        }
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            rows.add(new Row(f[0], f[1], Integer.parseInt(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]),
                    parse(f[5]), f[6], parse(f[7]), pricePerHour));
        }
        return rows;
    }

    private static double parse(String s) {
        return s.isBlank() ? Double.NaN : Double.parseDouble(s);
    }

    /** Bars of Mop/s per layout (or median time when the program reports no Mop/s), reference beside. */
    public static void writePng(Path png, String title, List<Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        boolean mops = rows.stream().allMatch(r -> !Double.isNaN(r.mops()));
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500).title(title)
                .xAxisTitle("ranks x threads").yAxisTitle(mops ? "Mop/s (median)" : "time (s, median)").build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> x = rows.stream().map(r -> (rows.indexOf(r) == best(rows) ? "*" : "") + r.layout()).toList();
        chart.addSeries("tessera", x, rows.stream().map(r -> (Number) (mops ? r.mops() : r.medianSeconds())).toList());
        if (mops && rows.stream().allMatch(r -> !Double.isNaN(r.referenceMops()))) {
            chart.addSeries("reference (MPI+OpenMP)", x, rows.stream().map(r -> (Number) r.referenceMops()).toList());
        }
        if (png.getParent() != null) {
            Files.createDirectories(png.getParent());
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
