package dev.tessera.bench.cli;

import dev.tessera.bench.osu.Bench;
import dev.tessera.bench.osu.Formats;
import dev.tessera.bench.osu.NativeMpi;
import dev.tessera.bench.osu.Plot;
import dev.tessera.bench.osu.Progress;
import dev.tessera.bench.osu.Series;
import dev.tessera.bench.osu.Sizes;
import dev.tessera.bench.osu.Suite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera bench}: OSU-style micro-benchmarks of Tessera, optionally next to native Open MPI. */
@Command(name = "tessera bench", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = {ReportCommand.class, dev.tessera.bench.npb.NpbCompareCommand.class},
        description = {"Runs an OSU-style micro-benchmark suite on a Tessera device and prints a table "
                + "(median and tail percentiles over timing blocks), writes CSV and a log-log PNG plot.",
            "Suites: latency, multi_lat, bw, bibw, mbw_mr, barrier, bcast, reduce, allreduce, gather, "
                + "scatter, allgather, alltoall. 'tessera bench report' writes docs/performance.md."},
        footer = {"", "Examples:",
            "  tessera bench latency --quick",
            "  tessera bench bw --device shm --sizes 1K:16M --vs native",
            "  tessera bench allreduce -np 4 --device tcp --csv allreduce.csv",
            "  tessera bench report --quick"})
public final class BenchCommand implements Callable<Integer> {

    static final Set<String> DEVICES = Set.of("smp", "shm", "tcp", "auto", "mpi");

    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "Suite to run (see above).")
    String suiteName;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", defaultValue = "2",
            description = "Number of ranks. Default: ${DEFAULT-VALUE}.")
    int ranks;

    @Option(names = {"-d", "--device"}, paramLabel = "DEVICE", defaultValue = "smp",
            description = "Tessera device: smp (ranks as threads of one JVM), shm, tcp, auto (one process per rank) or mpi (the system MPI library, through mpirun). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--sizes", paramLabel = "SPEC",
            description = "Message sizes in bytes: MIN:MAX (doubling, e.g. 1:16M) or a list (8,1K,64K); suffixes K, M, G are powers of 1024. "
                    + "Default: 1:4M for point-to-point, 4:1M for collectives (--quick: three sizes).")
    String sizes;

    @Option(names = "--iters", paramLabel = "N",
            description = "Operations per timing block up to 16 KiB, scaled down for larger sizes. "
                    + "Default: 2000 for latency suites, 40 windows for bandwidth suites, 500 for collectives (a tenth with --quick).")
    Integer iters;

    @Option(names = "--blocks", paramLabel = "N",
            description = "Timed blocks per size; percentiles are taken over blocks. Default: 20 (--quick: 5).")
    Integer blocks;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Discarded warm-up blocks per size. Default: 3 (--quick: 1).")
    Integer warmup;

    @Option(names = "--warmup-ms", paramLabel = "MS",
            description = "Warm-up goes on per size until this many milliseconds are spent (the JIT compiles the path); the first size warms up ten times as long; then, unless 0, until the JIT compilers of every rank have been idle for TESSERA_BENCH_JIT_QUIET_MS (default 100). Default: 200 (--quick: 20).")
    Integer warmupMs;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Run the suite N times (with --vs native, Tessera and native alternately) and report, per size, "
                    + "the run with the best median: on a noisy machine identical runs differ by tens of percent. "
                    + "Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Option(names = "--buffers", paramLabel = "heap|native", defaultValue = "heap",
            description = "Tessera's point-to-point buffers: heap (byte arrays) or native (off-heap memory segments, "
                    + "which the shm device sends by single copy from 8 KiB on Intel and on AMD before family 26). Default: ${DEFAULT-VALUE}.")
    String buffers;

    @Option(names = "--window", paramLabel = "N", defaultValue = "64",
            description = "Messages in flight per window (bw, bibw, mbw_mr). Default: ${DEFAULT-VALUE}.")
    int window;

    @Option(names = "--vs", paramLabel = "native",
            description = "Also run the suite with native Open MPI (bench/native/osu_mpi.c, built with mpicc on first use) and print Tessera/native ratios.")
    String vs;

    @Option(names = "--interleave",
            description = "With --vs native: run Tessera's job and Open MPI's at the same time, taking turns block by block "
                    + "(each size's warm-up, then each timed block; the side waiting sleeps), so that both meet the same "
                    + "states of the machine (VMs whose vCPUs move between core complexes switch speed every few seconds). "
                    + "With --repeat, the side that goes first alternates.")
    boolean interleave;

    @Option(names = "--quick", description = "Smoke run: three sizes, few iterations and blocks; finishes in seconds.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for SUITE-DEVICE-npN.csv and .png. Default: ${DEFAULT-VALUE}.")
    Path outDir;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the CSV here instead of into --out.")
    Path csv;

    @Option(names = "--png", paramLabel = "FILE", description = "Write the plot here instead of into --out.")
    Path png;

    @Option(names = "--no-progress", description = "No progress display on stderr.")
    boolean noProgress;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A run's settings after defaults; {@code ReportCommand} builds these too. */
    static Bench.Config config(Suite suite, int ranks, String device, String sizes, Integer iters, Integer warmup,
                               Integer warmupMs, Integer blocks, int window, boolean quick) {
        if (!DEVICES.contains(device)) {
            throw new IllegalArgumentException("unknown device '" + device + "'; known: smp, shm, tcp, auto, mpi");
        }
        if (ranks < suite.minRanks()) {
            throw new IllegalArgumentException(suite.cliName() + " needs at least " + suite.minRanks() + " ranks (-np)");
        }
        List<Integer> list = new ArrayList<>(Sizes.parse(sizes != null ? sizes : suite.defaultSizes(quick)));
        if (suite == Suite.REDUCE || suite == Suite.ALLREDUCE) {
            list.removeIf(s -> s < 4); // reductions work on floats
        }
        if (suite.sizeless()) {
            list = List.of(0);
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("no sizes left to run (" + suite.cliName() + " needs sizes of at least 4 bytes)");
        }
        long largest = list.stream().mapToLong(Integer::longValue).max().orElse(0);
        if (suite.kind() == Suite.Kind.COLLECTIVE && largest * ranks > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(suite.cliName() + " with " + ranks + " ranks needs buffers of " + ranks
                    + " x " + largest + " bytes, more than a Java array holds: use smaller --sizes");
        }
        int it = iters != null ? iters : suite.defaultIters(quick);
        int b = blocks != null ? blocks : quick ? 5 : 20;
        int w = warmup != null ? warmup : quick ? 1 : 3;
        int ms = warmupMs != null ? warmupMs : quick ? 20 : 200;
        if (it < 1 || b < 1 || w < 0 || ms < 0 || window < 1) {
            throw new IllegalArgumentException("--iters, --blocks and --window must be at least 1, --warmup and --warmup-ms at least 0");
        }
        return new Bench.Config(suite, ranks, device, List.copyOf(list), it, w, ms, b, window);
    }

    static Progress progress(boolean enabled) {
        return new Progress(System.err, Boolean.getBoolean("tessera.stderr.tty"), enabled);
    }

    @Override
    public Integer call() throws Exception {
        Suite suite;
        Bench.Config cfg;
        try {
            if (suiteName == null) {
                throw new IllegalArgumentException("missing SUITE (one of " + Suite.names() + ") or 'report'");
            }
            suite = Suite.parse(suiteName);
            cfg = config(suite, ranks, device, sizes, iters, warmup, warmupMs, blocks, window, quick);
            if (vs != null && !vs.equals("native")) {
                throw new IllegalArgumentException("--vs takes 'native' (Open MPI), not '" + vs + "'");
            }
            if (!buffers.equals("heap") && !buffers.equals("native")) {
                throw new IllegalArgumentException("--buffers takes 'heap' or 'native', not '" + buffers + "'");
            }
            System.setProperty("tessera.bench.buffers", buffers);
            if (interleave && !"native".equals(vs)) {
                throw new IllegalArgumentException("--interleave takes turns with native Open MPI: it needs --vs native");
            }
            if (repeat < 1) {
                throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path root = Bench.findRoot();
        try (Progress progress = progress(!noProgress)) {
            Bench bench = new Bench(root, progress);
            List<Series> ours = new java.util.ArrayList<>();
            List<Series> theirs = new java.util.ArrayList<>();
            String note = null;
            NativeMpi mpi = null;
            if (vs != null) {
                String why = NativeMpi.unavailable();
                if (why != null) {
                    progress.note("tessera bench: " + why);
                } else {
                    mpi = new NativeMpi(root);
                    note = mpi.describe(device);
                }
            }
            for (int run = 0; run < repeat; run++) {
                if (mpi != null && interleave) {
                    Series[] pair = bench.runInterleaved(cfg, mpi, run % 2);
                    ours.add(pair[0]);
                    theirs.add(pair[1]);
                    continue;
                }
                ours.add(bench.runTessera(cfg));
                if (mpi != null) {
                    theirs.add(bench.runNative(cfg, mpi));
                }
            }
            Series tessera = Series.bestOf(ours);
            Series nat = theirs.isEmpty() ? null : Series.bestOf(theirs);
            if (repeat > 1) {
                note = (note == null ? "" : note + "; ") + "best median of " + repeat + " runs per size"
                        + (mpi != null ? (interleave ? "" : ", Tessera and native alternately") : "");
            }
            if (mpi != null && interleave) {
                note = note + "; Tessera and native interleaved block by block";
            }
            progress.close();
            System.out.print(Formats.table(tessera, nat, note));
            System.out.flush();
            String base = suite.cliName() + "-" + device + "-np" + ranks;
            Path csvFile = csv != null ? csv : outDir.resolve(base + ".csv");
            writeCsv(csvFile, nat == null ? List.of(tessera) : List.of(tessera, nat));
            System.err.println("tessera bench: wrote " + csvFile);
            if (!suite.sizeless()) {
                Path pngFile = png != null ? png : outDir.resolve(base + ".png");
                Plot.write(pngFile, "tessera bench " + suite.cliName() + ", " + ranks + " ranks, " + device,
                        nat == null ? List.of(tessera) : List.of(tessera, nat));
                System.err.println("tessera bench: wrote " + pngFile);
            }
        }
        return 0;
    }

    static void writeCsv(Path file, List<Series> series) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        StringBuilder sb = new StringBuilder(Formats.CSV_HEADER).append('\n');
        series.forEach(s -> sb.append(Formats.csvRows(s)));
        Files.writeString(file, sb);
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        CommandLine cli = new CommandLine(new BenchCommand());
        cli.setExecutionExceptionHandler((e, cmd, parse) -> {
            cmd.getErr().println("tessera bench: " + e.getMessage());
            return 1;
        });
        cli.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("tessera bench: " + e.getMessage());
            e.getCommandLine().getErr().println("Run 'tessera bench --help' for the suites and options.");
            return 2;
        });
        System.exit(cli.execute(args));
    }
}
