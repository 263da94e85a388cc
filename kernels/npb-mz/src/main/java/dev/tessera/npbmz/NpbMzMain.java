package dev.tessera.npbmz;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.PrintStream;
import java.util.Locale;
import dev.tessera.launch.WrapperHelp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The NPB-MZ program, run once per rank:
 * {@code bin/tessera npb-mz sp-mz --class A -np 2 --threads 1}, or under the launcher
 * {@code tessera run -np 2 -cp ... dev.tessera.npbmz.NpbMzMain sp-mz --class A}.
 *
 * <p>Rank 0 prints what the reference prints (banner, mapping, time steps, verification and
 * the print_results report) or, with {@code --json}, one JSON line; other ranks print nothing.
 * A failed verification or a bad argument ends the run with a non-zero exit status and one
 * line naming the cause (raised on rank 0 after every rank has closed its session).
 */
@Command(name = "npb-mz", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"NPB-MZ multi-zone benchmarks (BT-MZ, SP-MZ, LU-MZ) on Tessera: zones over ranks, threads inside zones.",
            "Tessera options (--threads T, --thread-level L) are taken before these."})
public final class NpbMzMain {

    @Parameters(index = "0", paramLabel = "BENCHMARK", description = "bt-mz, sp-mz or lu-mz.")
    String benchmark;

    @Option(names = {"-c", "--class"}, paramLabel = "CLASS", defaultValue = "S",
            description = "Problem class: S, W, A, B or C. Default: ${DEFAULT-VALUE}.")
    String problemClass;

    @Option(names = "--json", description = "Print one JSON line with the results instead of the report.")
    boolean json;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0",
            description = "Time steps (default: the class's; any other number fails verification, as in the reference).")
    int iterations;

    @Option(names = "--zone-threads",
            description = "Spread a rank's threads over its zones (each zone solved by one thread) instead of inside each zone.")
    boolean zoneThreads;

    @Option(names = "--no-thread-balance",
            description = "Keep every rank's thread count instead of redistributing the job's threads by load (NPB_MZ_BLOAD=off).")
    boolean noThreadBalance;

    @Option(names = {"-v", "--verbose"}, description = "Print the zone-to-rank mapping table (as NPB_VERBOSE=1).")
    boolean verbose;

    @Option(names = "--no-progress", description = "No progress line on stderr.")
    boolean noProgress;

    /** Exit status: the run finished but did not verify. */
    public static final int UNVERIFIED = 1;
    /** Exit status: refused before any work (arguments, class). */
    public static final int REFUSED = 2;

    /**
     * Runs the benchmark on this rank. A failure ends every rank with {@code System.exit}: {@link #REFUSED}
     * for arguments refused before any work (their line already printed by rank 0), {@link #UNVERIFIED}
     * for a failed verification (rank 0 prints the line here). Every rank ends with the same status, so
     * the launcher reports the job's once (smp: nothing more; processes: "every rank exited with status N").
     */
    public static void main(String[] args) {
        String failure;
        int rank;
        try (Session session = Tessera.init(args)) {
            rank = session.rank();
            failure = execute(session, session.args().toArray(new String[0]), System.out, System.err);
        }
        System.out.flush();
        if (failure != null) {
            boolean refused = failure.startsWith(REFUSAL_PREFIX);
            if (!refused && rank == 0) {
                System.err.println(failure);
            }
            System.err.flush();
            System.exit(refused ? REFUSED : UNVERIFIED);
        }
    }

    /** How a refusal's line starts (a failed verification's names the benchmark instead). */
    static final String REFUSAL_PREFIX = "npb-mz: ";

    /**
     * Parses {@code args} and runs the benchmark on this rank; rank 0 prints to {@code out}
     * (report or JSON) and {@code err} (errors, progress). Returns null on success, else the
     * failure line (the same on every rank).
     */
    public static String execute(Session session, String[] args, PrintStream out, PrintStream err) {
        boolean root = session.rank() == 0;
        NpbMzMain options = new NpbMzMain();
        CommandLine cli = new CommandLine(options);
        cli.getCommandSpec().usageMessage().footer(WrapperHelp.footer("npb-mz",
                "bin/tessera npb-mz sp-mz --class A -np 2 --threads 1",
                "bin/tessera npb-mz bt-mz --class B -np 2 --device shm --jvm-opt -Xmx4g",
                "bin/tessera run -np 2 -d shm -cp CP dev.tessera.npbmz.NpbMzMain sp-mz --json"));
        CommandLine.ParseResult parsed;
        try {
            parsed = cli.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            String line = REFUSAL_PREFIX + e.getMessage() + " (see --help)";
            if (root) {
                err.println(line);
            }
            return line;
        }
        if (parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested()) {
            if (root) {
                if (parsed.isUsageHelpRequested()) {
                    cli.usage(out);
                } else {
                    out.println("npb-mz (Tessera " + Tessera.VERSION + ")");
                }
            }
            return null;
        }
        return options.run(session, out, err);
    }

    private String run(Session session, PrintStream out, PrintStream err) {
        boolean root = session.rank() == 0;
        ZoneBenchmark bench;
        MzProblem problem;
        try {
            bench = ZoneBenchmarks.require(benchmark);
            if (problemClass.length() != 1) {
                throw new IllegalArgumentException("--class must be one letter (S, W, A, B, C), got '" + problemClass + "'");
            }
            problem = bench.problem(Character.toUpperCase(problemClass.charAt(0)));
            if (iterations < 0) {
                throw new IllegalArgumentException("--iterations must be >= 0, got " + iterations);
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            String line = REFUSAL_PREFIX + e.getMessage();
            if (root) {
                err.println(line);
            }
            return line;
        }
        boolean verboseTable = verbose || envVerbose();
        MzDriver.Settings settings = new MzDriver.Settings(iterations, !noThreadBalance, zoneThreads, verboseTable,
                json ? null : out, noProgress ? null : err);
        MzResult result = MzDriver.run(session, bench, problem, settings);
        if (root) {
            if (json) {
                out.println(MzReport.json(result));
            } else {
                MzReport.print(out, result);
            }
            out.flush();
        }
        return result.verified() ? null
                : String.format(Locale.ROOT, "%s class %c: verification failed (%d iterations, dt %s)", result.name(),
                        problem.problemClass(), result.problem().iterations(), problem.dt());
    }

    private static boolean envVerbose() {
        String v = System.getenv("NPB_VERBOSE");
        try {
            return v != null && Integer.parseInt(v.trim()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
