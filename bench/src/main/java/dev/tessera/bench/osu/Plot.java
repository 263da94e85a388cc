package dev.tessera.bench.osu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots with XChart: p50 against message size, both axes logarithmic, one line per series. */
public final class Plot {

    private Plot() {
    }

    public static void write(Path png, String title, List<Series> series) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Suite suite = series.get(0).suite();
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
                .xAxisTitle("message size (bytes)").yAxisTitle(suite.isBandwidth() ? "bandwidth p50 (MB/s)" : "latency p50 (us)")
                .build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        for (Series s : series) {
            // Log axes cannot show 0 bytes or 0 values.
            List<Series.Point> pts = s.points().stream().filter(p -> p.size() > 0 && p.p50() > 0).toList();
            if (pts.isEmpty()) {
                continue;
            }
            double[] x = pts.stream().mapToDouble(Series.Point::size).toArray();
            double[] y = pts.stream().mapToDouble(Series.Point::p50).toArray();
            chart.addSeries(s.label(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        if (chart.getSeriesMap().isEmpty()) {
            throw new IOException("nothing to plot (sizes must be above 0 on log axes)");
        }
        if (png.getParent() != null) {
            Files.createDirectories(png.getParent());
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
