package dev.tessera.npb;

import dev.tessera.comm.Comm;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Function;
import dev.tessera.launch.WrapperHelp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs one NPB kernel; started once per rank by {@code tessera run} (which {@code tessera
 * npb} does for you).
 *
 * <pre>
 * tessera run -np 2 --threads 1 --device shm -cp kernels/npb/target/tessera-npb.jar \
 *     dev.tessera.npb.NpbMain cg --class A [--json]
 * </pre>
 *
 * <p>Order of events: the rank joins the job; the arguments, the kernel's problem class and
 * rank count ({@link NpbKernel#check}) and the heap ({@link MemoryFootprint}) are checked,
 * and anything wrong ends every rank with one line from rank 0 and exit status 2, before
 * any work; then the kernel runs; rank 0 prints the reference's report (or, with
 * {@code --json}, one JSON line and nothing else on stdout) and a progress line on stderr
 * for runs longer than a few seconds. Exit status 1 when verification failed.
 */
@Command(name = "npb", mixinStandardHelpOptions = false, sortOptions = false,
        description = {"Runs one NAS Parallel Benchmark kernel (NPB 3.4 problem classes, verification and "
                + "operation counts) over the job's ranks and each rank's threads.",
            "Exit status: 0 verified, 1 verification failed, 2 bad arguments or a run the kernel cannot do."})
public final class NpbMain {

    @Parameters(index = "0", paramLabel = "KERNEL", description = "ep, is, cg, mg or ft.")
    String kernel;

    @Option(names = {"--class", "-c"}, paramLabel = "CLASS", defaultValue = "S",
            description = "Problem class: S, W, A, B or C. Default: ${DEFAULT-VALUE}.")
    String problemClass;

    @Option(names = "--json", description = "Print one JSON line (name, class, np, threads, seconds, mops, verified, ...) instead of the report.")
    boolean json;

    @Option(names = "--threads", paramLabel = "T",
            description = "Threads per rank (read by Tessera; tessera run/npb pass it).")
    Integer threads;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    /** Exit status: verified. */
    public static final int OK = 0;
    /** Exit status: the run finished but did not verify. */
    public static final int UNVERIFIED = 1;
    /** Exit status: refused before any work (arguments, class, rank count, heap). */
    public static final int REFUSED = 2;

    public static void main(String[] args) {
        int status;
        try (Session session = Tessera.init(args)) {
            status = run(session, session.args(), System.out, System.err);
        }
        System.out.flush();
        if (status != OK) {
            System.exit(status);
        }
    }

    /** Runs the command on one rank of {@code session}; returns the rank's exit status. */
    public static int run(Session session, List<String> args, PrintStream out, PrintStream err) {
        return run(session, args, out, err, KernelCatalog::create);
    }

    /** As {@link #run(Session, List, PrintStream, PrintStream)} with kernels from {@code catalog} (tests). */
    static int run(Session session, List<String> args, PrintStream out, PrintStream err,
            Function<String, NpbKernel> catalog) {
        Comm world = session.world();
        boolean root = world.rank() == 0;
        NpbMain options = new NpbMain();
        CommandLine cli = new CommandLine(options);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.getCommandSpec().usageMessage().footer(WrapperHelp.footer("npb",
                "bin/tessera npb cg --class A -np 2 --threads 1 --device shm",
                "bin/tessera npb mg --class B -np 1 --threads 2 --json",
                "bin/tessera npb ft --class B -np 2 --device shm --jvm-opt -Xmx4g",
                "bin/tessera bench npb --npb-home DIR --class A (beside the reference)"));
        try {
            cli.parseArgs(args.toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            if (root) {
                err.println("npb: " + e.getMessage() + " (try --help)");
            }
            return REFUSED;
        }
        if (options.help) {
            if (root) {
                cli.usage(out);
                out.println("Kernels available in this build: " + availableKernels());
            }
            return OK;
        }
        return options.execute(session, out, err, catalog);
    }

    private int execute(Session session, PrintStream out, PrintStream err, Function<String, NpbKernel> catalog) {
        Comm world = session.world();
        boolean root = world.rank() == 0;
        NpbKernel k;
        char cls;
        try {
            if (problemClass.length() != 1) {
                throw new IllegalArgumentException("--class takes one letter (S, W, A, B, C), got '" + problemClass + "'");
            }
            cls = Character.toUpperCase(problemClass.charAt(0));
            k = catalog.apply(kernel);
            k.check(cls, world.size());
            checkHeap(k, cls, session);
        } catch (IllegalArgumentException e) {
            if (root) {
                err.println("npb: " + e.getMessage());
            }
            return REFUSED;
        }
        int teamSize = session.team().size();
        NpbReport.RunInfo info = new NpbReport.RunInfo(world.size(), teamSize, session.deviceName(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()), Tessera.VERSION, buildDate());
        if (root && !json) {
            out.printf(Locale.ROOT, "%n%n NAS Parallel Benchmarks %s -- %s Benchmark (Tessera %s)%n%n", NpbReport.NPB_VERSION,
                    k.name(), Tessera.VERSION);
            out.printf(Locale.ROOT, " Class:                    %c%n", cls);
            out.printf(Locale.ROOT, " Number of processes:      %d%n", world.size());
            out.printf(Locale.ROOT, " Threads per process:      %d%n", teamSize);
            out.printf(Locale.ROOT, " Device:                   %s%n", session.deviceName());
            out.flush();
        }
        KernelResult result;
        if (root) {
            Progress.install(err, k.name() + "." + cls);
        }
        try {
            result = k.run(world, session.team(), cls);
        } finally {
            Progress.uninstall();
        }
        if (!root) {
            return OK;
        }
        if (json) {
            out.println(NpbReport.json(result, info));
        } else {
            out.print(NpbReport.text(result, info));
            if (result.verificationDetail() != null && !result.verificationDetail().isEmpty()) {
                out.println();
                out.println(result.verificationDetail().stripTrailing());
            }
        }
        out.flush();
        return result.verified() ? OK : UNVERIFIED;
    }

    /** Refuses, before any work, a class whose arrays would not fit in this JVM's heap. */
    private static void checkHeap(NpbKernel k, char cls, Session session) {
        if (!(k instanceof MemoryFootprint footprint)) {
            return;
        }
        Comm world = session.world();
        int ranksHere = "smp".equals(session.deviceName()) ? world.size() : 1;
        long perRank = footprint.heapBytesPerRank(cls, world.size(), session.threads());
        long needed = perRank * ranksHere;
        long max = java.lang.Runtime.getRuntime().maxMemory();
        if (max != Long.MAX_VALUE && needed > max * 0.9) {
            String where = ranksHere > 1 ? " x " + ranksHere + " smp ranks in this JVM = " + gib(needed) : "";
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "%s class %c needs about %s of heap per rank%s, but this JVM's -Xmx is %s; "
                            + "give it more (tessera npb/run: TESSERA_JAVA_OPTS=-Xmx%dg for smp, --jvm-opt -Xmx%dg for processes) "
                            + "or use more ranks", k.name(), cls, gib(perRank), where, gib(max),
                    (long) Math.ceil(needed / 0.85 / (1L << 30)), (long) Math.ceil(perRank / 0.85 / (1L << 30))));
        }
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }

    static String availableKernels() {
        StringBuilder b = new StringBuilder();
        for (String n : KernelCatalog.names()) {
            if (KernelCatalog.available(n)) {
                b.append(b.isEmpty() ? "" : ", ").append(n);
            }
        }
        return b.toString();
    }

    private static String buildDate() {
        try (InputStream in = NpbMain.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("date", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
