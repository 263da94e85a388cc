package dev.tessera.bench.npb;

import dev.tessera.bench.sweep.Layout;
import dev.tessera.bench.sweep.NpbReference;
import dev.tessera.bench.sweep.ProgramRun;
import dev.tessera.bench.sweep.RunOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        footer = {"", "Layouts with the same ranks share the reference's runs (NPB3.4-MPI has no threads). After the table: the speed-ups",
                "over Tessera's 1x1 next to the reference's np=1 to np=cores, and the 1x1 geometric mean, against issue #22's goals.",
                "", "Example:", "  tessera bench npb --npb-home ~/NPB3.4 --class A,B --kernels ep,is,cg,mg,ft --layouts 1x1,1x2,2x1"})
public final class NpbCompareCommand implements Callable<Integer> {

    @Option(names = "--npb-home", paramLabel = "DIR", description = "The NPB3.4 source tree (holding NPB3.4-MPI).")
    Path npbHome;

    @Option(names = "--class", paramLabel = "X[,Y...]", split = ",", defaultValue = "A",
            description = "Problem classes (S, W, A, B, C, D; several, comma-separated, run in one command). Default: ${DEFAULT-VALUE}.")
    List<String> classes;

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

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (npbHome == null) {
            System.err.println("tessera bench npb: needs --npb-home DIR, an NPB 3.4 source tree (the directory holding NPB3.4-MPI),"
                    + " to build the reference from. Get it from " + NpbReference.WHERE + ", unpack it, and pass its NPB3.4 directory.");
            return 2;
        }
        List<Character> problemClasses;
        List<Layout> parsedLayouts = new ArrayList<>();
        try {
            problemClasses = parseClasses(classes);
            for (String l : layouts) {
                parsedLayouts.add(Layout.parse(l));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("tessera bench npb: " + e.getMessage());
            return 2;
        }
        if (repeat < 1) {
            System.err.println("tessera bench npb: --repeat must be at least 1, got " + repeat);
            return 2;
        }
        Path tessera = Path.of(System.getProperty("tessera.home", "."), "bin", "tessera");
        Map<String, Path> executables = new LinkedHashMap<>();
        try {
            NpbReference reference = NpbReference.kernels(npbHome, out.toAbsolutePath());
            for (char c : problemClasses) {
                for (String k : kernels) {
                    System.err.println("tessera bench npb: building the reference " + k + " class " + c + "...");
                    executables.put(k + c, reference.build(k, c));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("tessera bench npb: " + e.getMessage());
            return 1;
        }
        NpbTable table = new NpbTable();
        for (char c : problemClasses) {
            for (String k : kernels) {
                for (Layout l : parsedLayouts) {
                    table.add(c, k, l);
                }
            }
        }
        int total = table.rows().size() * repeat;
        int done = 0;
        for (int rep = 0; rep < repeat; rep++) {
            for (NpbTable.Row row : table.rows()) {
                System.err.printf(Locale.ROOT, "tessera bench npb: %d of %d: %s class %s %s%n", ++done, total, row.kernel(),
                        row.problemClass(), row.layout());
                RunOutcome ours = ProgramRun.run(tesseraCommand(tessera, row), new HashMap<>(), null, timeoutSeconds);
                if (ours != null) {
                    table.record(row, rep, ours);
                }
                if (table.runsReference(row)) {
                    Map<String, String> env = new HashMap<>();
                    List<String> cmd = NpbReference.command(executables.get(row.kernel() + row.problemClass()),
                            new Layout(row.layout().ranks(), 1), env);
                    RunOutcome ref = ProgramRun.run(cmd, env, null, timeoutSeconds);
                    if (ref != null) {
                        table.recordReference(row, rep, ref);
                    }
                }
            }
        }
        String names = problemClasses.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("");
        System.out.print(table.format("NPB class " + names + ": Tessera (device " + device + ") next to NPB3.4-MPI (mpirun), median of "
                + repeat + " alternating runs; CPU: " + dev.tessera.bench.osu.CpuName.describe()));
        Files.createDirectories(out);
        for (char c : problemClasses) {
            Path csv = out.resolve("npb-" + c + ".csv");
            Path png = out.resolve("npb-" + c + ".png");
            Files.writeString(csv, table.csv(c));
            writePng(png, c, table.rows().stream().filter(r -> r.problemClass() == c).toList());
            System.out.println("  wrote " + csv + " and " + png);
        }
        return 0;
    }

    /** "A", "a,B" -> the class letters, upper case, each once; a clear error for anything else. */
    static List<Character> parseClasses(List<String> values) {
        List<Character> out = new ArrayList<>();
        for (String v : values) {
            String t = v.trim().toUpperCase(Locale.ROOT);
            if (t.length() != 1 || "SWABCD".indexOf(t.charAt(0)) < 0) {
                throw new IllegalArgumentException("--class: '" + v + "' is not a class letter (S, W, A, B, C or D)");
            }
            if (!out.contains(t.charAt(0))) {
                out.add(t.charAt(0));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--class: no class given");
        }
        return out;
    }

    private List<String> tesseraCommand(Path tessera, NpbTable.Row row) {
        List<String> cmd = new ArrayList<>(List.of(tessera.toString(), "npb", row.kernel(), "--class",
                Character.toString(row.problemClass()), "-np", Integer.toString(row.layout().ranks()), "--threads",
                Integer.toString(row.layout().threads()), "--device", device, "--json"));
        for (String o : jvmOptions) {
            cmd.add("--jvm-opt");
            cmd.add(o);
        }
        return cmd;
    }

    private void writePng(Path png, char problemClass, List<NpbTable.Row> rows) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(900).height(500)
                .title("NPB class " + problemClass + ": Tessera vs NPB3.4-MPI (" + dev.tessera.bench.osu.CpuName.describe() + ")")
                .xAxisTitle("kernel, ranks x threads").yAxisTitle("Mop/s (median)").build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> x = rows.stream().map(r -> r.kernel().toUpperCase(Locale.ROOT) + " " + r.layout()).toList();
        chart.addSeries("Tessera", x, rows.stream().map(r -> (Number) r.mops()).toList());
        chart.addSeries("NPB3.4-MPI", x, rows.stream().map(r -> (Number) r.referenceMops()).toList());
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new NpbCompareCommand()).execute(args));
    }
}
