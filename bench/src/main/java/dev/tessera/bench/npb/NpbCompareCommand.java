package dev.tessera.bench.npb;

import dev.tessera.bench.sweep.Layout;
import dev.tessera.bench.sweep.NpbReference;
import dev.tessera.bench.sweep.ProgramRun;
import dev.tessera.bench.sweep.RunOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tessera bench npb}: Tessera's NPB kernels side by side with the Fortran/C NPB3.4-MPI
 * reference built from the user's tree, same kernels, class and ranks, runs alternating
 * (Tessera, reference, Tessera, ...), median Mop/s of each and their ratio. The reference is
 * pure MPI: a Tessera layout of R ranks x T threads is compared with the reference on R
 * ranks, so the threads' gain shows in the ratio.
 */
@Command(name = "npb", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs Tessera's NPB kernels and the NPB3.4-MPI reference (built from --npb-home with mpif90/mpicc) "
                + "alternately with the same class and ranks, and prints and plots Mop/s side by side with the ratio."},
        footer = {"", "Example:", "  tessera bench npb --npb-home ~/NPB3.4 --class A --kernels ep,is,cg,mg,ft --layouts 1x1,1x2,2x1"})
public final class NpbCompareCommand implements Callable<Integer> {

    @Option(names = "--npb-home", paramLabel = "DIR", description = "The NPB3.4 source tree (holding NPB3.4-MPI).")
    Path npbHome;

    @Option(names = "--class", paramLabel = "X", defaultValue = "A", description = "Problem class. Default: ${DEFAULT-VALUE}.")
    char problemClass;

    @Option(names = "--kernels", paramLabel = "K,...", split = ",", defaultValue = "ep,is,cg,mg,ft",
            description = "Kernels. Default: ${DEFAULT-VALUE}.")
    List<String> kernels;

    @Option(names = "--layouts", paramLabel = "RxT,...", split = ",", defaultValue = "1x1,1x2,2x1",
            description = "Tessera layouts (ranks x threads). Default: ${DEFAULT-VALUE}.")
    List<String> layouts;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "2", description = "Runs of each. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = {"-d", "--device"}, paramLabel = "DEVICE", defaultValue = "shm", description = "Tessera device. Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--jvm-opt", paramLabel = "OPT", description = "JVM option for Tessera's ranks (e.g. -Xmx4g).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results", description = "CSV, PNG and the reference build. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "1800", description = "Limit per run. Default: ${DEFAULT-VALUE} s.")
    long timeoutSeconds;

    /** One table row: a kernel on a layout, with both sides' runs. */
    private record Row(String kernel, Layout layout, List<RunOutcome> ours, List<RunOutcome> reference) {
        double mops() {
            return median(ours.stream().mapToDouble(RunOutcome::mops).toArray());
        }

        double referenceMops() {
            return median(reference.stream().mapToDouble(RunOutcome::mops).toArray());
        }

        String verified() {
            return ours.stream().allMatch(o -> Boolean.TRUE.equals(o.verified())) ? "yes" : "NO";
        }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (npbHome == null) {
            System.err.println("tessera bench npb: needs --npb-home DIR, an NPB 3.4 source tree (the directory holding NPB3.4-MPI),"
                    + " to build the reference from. Get it from " + NpbReference.WHERE + ", unpack it, and pass its NPB3.4 directory.");
            return 2;
        }
        problemClass = Character.toUpperCase(problemClass);
        Path tessera = Path.of(System.getProperty("tessera.home", "."), "bin", "tessera");
        NpbReference reference;
        Map<String, Path> executables = new LinkedHashMap<>();
        try {
            reference = NpbReference.kernels(npbHome, out.toAbsolutePath());
            for (String k : kernels) {
                System.err.println("tessera bench npb: building the reference " + k + " class " + problemClass + "...");
                executables.put(k, reference.build(k, problemClass));
            }
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("tessera bench npb: " + e.getMessage());
            return 1;
        }
        List<Row> rows = new ArrayList<>();
        for (String k : kernels) {
            for (String l : layouts) {
                rows.add(new Row(k, Layout.parse(l), new ArrayList<>(), new ArrayList<>()));
            }
        }
        int total = rows.size() * repeat;
        int done = 0;
        for (int rep = 0; rep < repeat; rep++) {
            for (Row row : rows) {
                System.err.printf(Locale.ROOT, "tessera bench npb: %d of %d: %s class %s %s%n", ++done, total, row.kernel(),
                        problemClass, row.layout());
                RunOutcome ours = ProgramRun.run(tesseraCommand(tessera, row), new HashMap<>(), null, timeoutSeconds);
                if (ours != null) {
                    row.ours().add(ours);
                }
                Map<String, String> env = new HashMap<>();
                List<String> cmd = NpbReference.command(executables.get(row.kernel()), new Layout(row.layout().ranks(), 1), env);
                RunOutcome ref = ProgramRun.run(cmd, env, null, timeoutSeconds);
                if (ref != null) {
                    row.reference().add(ref);
                }
            }
        }
        print(rows);
        Files.createDirectories(out);
        Path csv = out.resolve("npb-" + problemClass + ".csv");
        Path png = out.resolve("npb-" + problemClass + ".png");
        writeCsv(csv, rows);
        writePng(png, rows);
        System.out.println("  wrote " + csv + " and " + png);
        return 0;
    }

    private List<String> tesseraCommand(Path tessera, Row row) {
        List<String> cmd = new ArrayList<>(List.of(tessera.toString(), "npb", row.kernel(), "--class", Character.toString(problemClass),
                "-np", Integer.toString(row.layout().ranks()), "--threads", Integer.toString(row.layout().threads()),
                "--device", device, "--json"));
        for (String o : jvmOptions) {
            cmd.add("--jvm-opt");
            cmd.add(o);
        }
        return cmd;
    }

    private void print(List<Row> rows) {
        System.out.println("NPB class " + problemClass + ": Tessera (device " + device + ") next to NPB3.4-MPI (mpirun), median of "
                + repeat + " alternating runs; CPU: " + cpu());
        System.out.printf(Locale.ROOT, "  %-6s %-7s %14s %8s %16s %8s%n", "kernel", "np x t", "Tessera Mop/s", "verified",
                "reference Mop/s", "ratio");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "  %-6s %-7s %14.1f %8s %16.1f %8.2f%n", r.kernel().toUpperCase(Locale.ROOT), r.layout(),
                    r.mops(), r.verified(), r.referenceMops(), r.mops() / r.referenceMops());
        }
        System.out.println("  (the reference runs on the layout's ranks with one thread: NPB3.4-MPI has no threads)");
    }

    private void writeCsv(Path csv, List<Row> rows) throws IOException {
        StringBuilder s = new StringBuilder("kernel,class,ranks,threads,tessera_mops,verified,reference_mops,ratio\n");
        for (Row r : rows) {
            s.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.2f,%s,%.2f,%.4f%n", r.kernel(), problemClass, r.layout().ranks(),
                    r.layout().threads(), r.mops(), r.verified(), r.referenceMops(), r.mops() / r.referenceMops()));
        }
        Files.writeString(csv, s);
    }

    private void writePng(Path png, List<Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("NPB class " + problemClass + ": Tessera vs NPB3.4-MPI (" + cpu() + ")")
                .xAxisTitle("kernel, ranks x threads").yAxisTitle("Mop/s (median)").build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> x = rows.stream().map(r -> r.kernel().toUpperCase(Locale.ROOT) + " " + r.layout()).toList();
        chart.addSeries("Tessera", x, rows.stream().map(r -> (Number) r.mops()).toList());
        chart.addSeries("NPB3.4-MPI", x, rows.stream().map(r -> (Number) r.referenceMops()).toList());
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown CPU";
    }

    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new NpbCompareCommand()).execute(args));
    }
}
