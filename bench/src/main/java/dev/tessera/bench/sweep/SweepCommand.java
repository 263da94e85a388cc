package dev.tessera.bench.sweep;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tessera sweep}: the layout advisor. Runs a hybrid program over the ranks x threads
 * layouts that fill the machine's cores, several times each (layouts interleaved, so that a
 * slow phase of a noisy machine spreads over all of them), and prints, writes as CSV and
 * plots the median time and Mop/s of each layout with the best one marked; with a price per
 * hour it adds the cost of one run, and with other machines' sweeps and prices it says
 * which machine and layout give the answer cheapest. With {@code --npb-home} the NPB-MZ
 * MPI+OpenMP reference runs on the same layouts, alternating with Tessera.
 */
@Command(name = "tessera sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a program over ranks x threads layouts (1xC ... Cx1 for C cores), repeats each, and reports "
                + "time and Mop/s per layout with the best marked; optionally the cost per run and the NPB-MZ reference."},
        footer = {"", "Programs:",
            "  npb-mz bt-mz|sp-mz|lu-mz --class A        an NPB-MZ benchmark (bin/tessera npb-mz)",
            "  npb ep|is|cg|mg|ft --class A              an NPB kernel (bin/tessera npb)",
            "  --cp CLASSPATH MAIN [ARGS]                any program (bin/tessera run); its time is read from its output",
            "", "Examples:",
            "  tessera sweep npb-mz bt-mz --class S",
            "  tessera sweep --repeat 5 --price-per-hour 0.34 npb-mz sp-mz --class A --npb-home ~/NPB3.4-MZ",
            "  tessera sweep --cp examples/target/classes dev.tessera.examples.Heat3D -n 48",
            "  tessera sweep --compare c7a.csv:0.29 --compare m7i.csv:0.40 --price-per-hour 0.34 npb-mz bt-mz --class A"})
public final class SweepCommand implements Callable<Integer> {

    @Option(names = "--cores", paramLabel = "C", description = "Cores to fill (default: this machine's).")
    Integer cores;

    @Option(names = "--layouts", paramLabel = "RxT,...", split = ",",
            description = "Layouts to run instead of every one filling the cores, e.g. 1x2,2x1,2x2.")
    List<String> layouts;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Runs per layout. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = {"-d", "--device"}, paramLabel = "DEVICE", defaultValue = "shm",
            description = "Tessera device for the ranks. Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--cp", paramLabel = "CLASSPATH", description = "Class path of a program run with tessera run.")
    String classPath;

    @Option(names = "--time-regex", paramLabel = "REGEX",
            description = "Where the program prints its time: a regular expression whose group 1 is seconds.")
    String timeRegex;

    @Option(names = "--price-per-hour", paramLabel = "PRICE", description = "This machine's price per hour: adds the cost of one run.")
    Double pricePerHour;

    @Option(names = "--machine", paramLabel = "NAME", description = "This machine's name in the CSV and the cost table (default: host and CPU).")
    String machine;

    @Option(names = "--compare", paramLabel = "CSV:PRICE",
            description = "Another machine's sweep CSV and its price per hour (repeatable): adds a cheapest-answer table.")
    List<String> compare = new ArrayList<>();

    @Option(names = "--npb-home", paramLabel = "DIR",
            description = "An NPB3.4-MZ source tree: builds the MPI+OpenMP reference with mpif90 and runs it on the same layouts.")
    Path npbHome;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Where the CSV and PNG go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "900", description = "Limit per run. Default: ${DEFAULT-VALUE} s.")
    long timeoutSeconds;

    @Parameters(paramLabel = "PROGRAM", arity = "1..*", description = "The program and its arguments (see below).")
    List<String> program;

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new SweepCommand());
        cli.setStopAtPositional(true);
        System.exit(cli.execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        int c = cores != null ? cores : java.lang.Runtime.getRuntime().availableProcessors();
        List<Layout> plan = layouts != null ? layouts.stream().map(Layout::parse).toList() : Layout.filling(c);
        if (repeat < 1) {
            System.err.println("tessera sweep: --repeat must be at least 1");
            return 2;
        }
        Path tessera = Path.of(System.getProperty("tessera.home", "."), "bin", "tessera");
        String title = describeProgram();
        NpbReference reference = null;
        Path referenceExe = null;
        if (npbHome != null) {
            if (!program.get(0).equals("npb-mz")) {
                System.err.println("tessera sweep: --npb-home builds the NPB-MZ reference; the program must be npb-mz <benchmark> --class X");
                return 2;
            }
            System.err.println("tessera sweep: building the reference " + program.get(1) + " class " + npbClass() + "...");
            try {
                reference = NpbReference.multiZone(npbHome, out.toAbsolutePath());
                referenceExe = reference.build(program.get(1), npbClass());
            } catch (IOException | IllegalArgumentException e) {
                System.err.println("tessera sweep: " + e.getMessage());
                return 1;
            }
        }
        Pattern userTime = timeRegex != null ? Pattern.compile(timeRegex, Pattern.MULTILINE) : null;
        Map<Layout, LayoutResult> results = new LinkedHashMap<>();
        plan.forEach(l -> results.put(l, new LayoutResult(l)));
        int total = plan.size() * repeat;
        int done = 0;
        for (int rep = 0; rep < repeat; rep++) {
            for (Layout l : plan) {
                done++;
                System.err.printf(Locale.ROOT, "tessera sweep: run %d of %d: %s%n", done, total, l);
                RunOutcome ours = ProgramRun.run(command(tessera, l), new HashMap<>(), userTime, timeoutSeconds);
                if (ours != null) {
                    results.get(l).add(ours);
                }
                if (referenceExe != null) {
                    Map<String, String> env = new HashMap<>();
                    List<String> cmd = NpbReference.command(referenceExe, l, env);
                    RunOutcome ref = ProgramRun.run(cmd, env, null, timeoutSeconds);
                    if (ref != null) {
                        results.get(l).addReference(ref);
                    }
                }
            }
        }
        List<LayoutResult> measured = results.values().stream().filter(r -> r.count() > 0).toList();
        if (measured.isEmpty()) {
            System.err.println("tessera sweep: no run succeeded");
            return 1;
        }
        String name = machine != null ? machine : MachineName.describe();
        double price = pricePerHour != null ? pricePerHour : Double.NaN;
        List<SweepReport.Row> rows = SweepReport.rows(name, measured, price);
        String header = title + " on " + name + ", device " + device + ", " + repeat + " run(s) per layout";
        SweepReport.print(System.out, header, rows);
        if (measured.stream().anyMatch(r -> r.runs().stream().anyMatch(o -> o.timeFrom().equals("wall clock")))) {
            System.out.println("  (times read as wall-clock time of the whole run, start-up included: the program printed none;"
                    + " give --time-regex to use the program's own)");
        }
        List<SweepReport.Row> everything = new ArrayList<>(rows);
        for (String spec : compare) {
            int at = spec.lastIndexOf(':');
            if (at < 0) {
                System.err.println("tessera sweep: --compare takes CSV:PRICE, got " + spec);
                return 2;
            }
            everything.addAll(SweepReport.readCsv(Path.of(spec.substring(0, at)), Double.parseDouble(spec.substring(at + 1))));
        }
        if (!Double.isNaN(price) || !compare.isEmpty()) {
            SweepReport.printCheapest(System.out, everything);
        }
        String stem = "sweep-" + title.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("(^-|-$)", "").toLowerCase(Locale.ROOT);
        Path csv = out.resolve(stem + ".csv");
        Path png = out.resolve(stem + ".png");
        SweepReport.writeCsv(csv, rows);
        SweepReport.writePng(png, header, rows);
        System.out.println("  wrote " + csv + " and " + png);
        return 0;
    }

    private char npbClass() {
        int i = program.indexOf("--class");
        if (i < 0 || i + 1 >= program.size() || program.get(i + 1).length() != 1) {
            throw new IllegalArgumentException("tessera sweep: the npb-mz program needs --class X");
        }
        return Character.toUpperCase(program.get(i + 1).charAt(0));
    }

    private String describeProgram() {
        if (program.get(0).equals("npb-mz") || program.get(0).equals("npb")) {
            return String.join(" ", program.subList(1, program.size())).replace("--class ", "class ");
        }
        return program.get(0).substring(program.get(0).lastIndexOf('.') + 1);
    }

    private List<String> command(Path tessera, Layout l) {
        List<String> cmd = new ArrayList<>(List.of(tessera.toString()));
        String first = program.get(0);
        if (first.equals("npb-mz") || first.equals("npb")) {
            cmd.addAll(program);
            cmd.addAll(List.of("-np", Integer.toString(l.ranks()), "--threads", Integer.toString(l.threads()), "--device", device));
            if (!program.contains("--json")) {
                cmd.add("--json");
            }
            return cmd;
        }
        if (classPath == null) {
            throw new IllegalArgumentException("tessera sweep: a program other than npb/npb-mz needs --cp CLASSPATH before its main class");
        }
        cmd.addAll(List.of("run", "-np", Integer.toString(l.ranks()), "--threads", Integer.toString(l.threads()),
                "--device", device, "-cp", classPath));
        cmd.addAll(program);
        return cmd;
    }
}
