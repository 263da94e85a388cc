package dev.tessera.launch;

import dev.tessera.device.DeviceProvider;
import dev.tessera.device.DeviceProviders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera run}: starts the ranks of a job and waits for them. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs MAIN once per rank and waits for all ranks.",
            "The exit status is 0 if every rank succeeded, else non-zero; a failed rank is named.",
            "Everything after MAIN is passed to the program."})
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", required = true,
            description = "Number of ranks.")
    int ranks;

    @Option(names = "--ppn", paramLabel = "P", defaultValue = "0",
            description = "Ranks per host (default: spread evenly over the hosts).")
    int ranksPerNode;

    @Option(names = "--hosts", paramLabel = "H1,H2", split = ",",
            description = "Hosts to run on, started over ssh (default: this machine only).")
    List<String> hosts = new ArrayList<>();

    @Option(names = "--hostfile", paramLabel = "FILE",
            description = "File with one host per line (# starts a comment).")
    Path hostfile;

    @Option(names = {"-t", "--threads"}, paramLabel = "T", defaultValue = "0",
            description = "Threads per rank (default: cores per node / ranks per node).")
    int threads;

    @Option(names = {"-d", "--device"}, paramLabel = "DEVICE", defaultValue = "smp",
            description = "Communication device: smp (ranks as threads of one JVM), shm (one process per rank, shared memory, one machine), tcp (one process per rank, TCP), auto (shm within a node, tcp between nodes), mpi (the system's MPI library; started through its mpirun). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--mpi-collectives", paramLabel = "KIND", defaultValue = "tessera",
            description = "With --device mpi: tessera (Tessera's collective algorithms over the device) or native "
                    + "(the MPI library's own tuned collectives for primitive buffers and built-in ops). Default: ${DEFAULT-VALUE}.")
    String mpiCollectives;

    @Option(names = "--on-rank-failure", paramLabel = "abort|continue", defaultValue = "abort",
            description = "What a rank process that dies (killed, crashed) does to the job: abort (the other ranks "
                    + "stop, naming it) or continue (the others go on; their operations with the dead rank throw "
                    + "RankFailedException; the launcher exits with the dead rank's status at the end). Devices "
                    + "with one process per rank (shm, tcp, auto). Default: ${DEFAULT-VALUE}.")
    String onRankFailure;

    @Option(names = "--tag-output", description = "Prefix every output line with [rank].")
    boolean tagOutput;

    @Option(names = {"-cp", "--class-path", "--classpath"}, paramLabel = "CP", split = "[:;]",
            description = "Class path of the program (directories and jars, separated by ':').")
    List<Path> classPath = new ArrayList<>();

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = "Extra JVM option for rank processes (repeatable; not used by smp, whose ranks run in "
                    + "this JVM: give its options through TESSERA_JAVA_OPTS with bin/tessera).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--aot", paramLabel = "auto|on|off",
            description = "Rank processes start from an ahead-of-time cache of the framework's and the JDK's classes "
                    + "(loaded and linked, written once per build by a short training job): faster start-up and less JIT "
                    + "work in every rank JVM. auto: when the ranks on this machine outnumber its cores. "
                    + "Default: TESSERA_AOT, else auto.")
    String aot;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long ranks wait for each other at startup. Default: ${DEFAULT-VALUE} s.")
    long startTimeoutSeconds;

    @Option(names = "--emulate-nodes", paramLabel = "K", defaultValue = "0",
            description = "Pretend this machine is K nodes (for trying the auto device's shm + tcp mix on one machine).")
    int emulatedNodes;

    @Option(names = "--bind-to", paramLabel = "core|none", defaultValue = "core",
            description = "Bind each rank process's main thread, or each smp rank thread, (and the Team it starts) to cores of its own, as mpirun does: "
                    + "local rank i with T threads gets cores iT..iT+T-1; nothing is bound when the node's ranks x threads "
                    + "exceed its cores. Default: ${DEFAULT-VALUE}.")
    String bindTo;

    @Option(names = "--time-limit", paramLabel = "DURATION",
            description = "End the job when it has run this long (like srun -t): 90s, 30m, 2h, or [h:]mm:ss. "
                    + "Exit status 124. Default: no limit.")
    String timeLimit;

    @Option(names = "--hang-report", paramLabel = "DURATION",
            description = "When a rank has waited this long in one blocking call, print which call (rank, call, "
                    + "communicator, peer, tag) and, if it still waits 10 s later (at most DURATION), end the job: "
                    + "for deadlocks. Same forms as --time-limit. Default: off.")
    String hangReport;

    @Parameters(index = "0", paramLabel = "MAIN", description = "The program's main class.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to every rank's main.")
    List<String> args = new ArrayList<>();

    /**
     * JIT threshold scaling for rank JVMs when this machine's rank processes outnumber its cores:
     * every JVM compiles the same code, and the compilers' CPU time comes out of the ranks'. Three
     * times the JDK's thresholds leaves methods that run only a little uncompiled and compiles the
     * hot ones with more profile (fewer recompilations); measured on 4 shm ranks on 2 cores
     * (docs/performance.md). {@code --jvm-opt -XX:CompileThresholdScaling=1} restores the default.
     */
    static final String OVERSUBSCRIBED_COMPILE_SCALING = "3";

    /** True if this job starts one process per rank, all on this machine, and they outnumber its cores. */
    private boolean oversubscribedProcesses(boolean remoteHosts) {
        if (remoteHosts) {
            return false;
        }
        try {
            return DeviceProviders.require(device).launchStyle() == DeviceProvider.LaunchStyle.PROCESSES
                    && ranks > Runtime.getRuntime().availableProcessors();
        } catch (IllegalArgumentException e) {
            return false;   // reported below
        }
    }

    private boolean allHostsGiven() {
        return !hosts.isEmpty() || hostfile != null || emulatedNodes > 0;
    }

    /**
     * The -XX:AOTCache option for the rank processes, or null: only for devices with one process
     * per rank, when --aot (or TESSERA_AOT) is on, or auto and the job's ranks all run on this
     * machine and outnumber its cores, and the user gave no AOT or CDS option of their own.
     */
    private String aotOption(boolean remoteHosts) throws InterruptedException {
        String source = aot != null ? "--aot" : dev.tessera.launch.process.AotCache.VARIABLE;
        dev.tessera.launch.process.AotCache.Mode mode = dev.tessera.launch.process.AotCache.Mode.parse(
                aot != null ? aot : System.getenv(dev.tessera.launch.process.AotCache.VARIABLE), source);
        if (mode == dev.tessera.launch.process.AotCache.Mode.OFF
                || jvmOptions.stream().anyMatch(o -> o.startsWith("-XX:AOT") || o.startsWith("-XX:SharedArchiveFile"))) {
            return null;
        }
        DeviceProvider provider;
        try {
            provider = DeviceProviders.require(device);
        } catch (IllegalArgumentException e) {
            return null;   // reported below
        }
        if (provider.launchStyle() != DeviceProvider.LaunchStyle.PROCESSES
                || (mode == dev.tessera.launch.process.AotCache.Mode.AUTO && remoteHosts)
                || !dev.tessera.launch.process.AotCache.wanted(mode, ranks, Runtime.getRuntime().availableProcessors())) {
            return null;
        }
        return dev.tessera.launch.process.AotCache.option(System.getenv(), System.err,
                mode == dev.tessera.launch.process.AotCache.Mode.ON,
                dev.tessera.launch.process.AotCache.moduleOptions(jvmOptions));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<String> givenJvmOptions = List.copyOf(jvmOptions);
        if (ranks < 1) {
            System.err.println("tessera run: -np must be at least 1, got " + ranks);
            return 2;
        }
        if (threads < 0 || ranksPerNode < 0) {
            System.err.println("tessera run: --threads and --ppn must not be negative");
            return 2;
        }
        if (startTimeoutSeconds < 1) {
            System.err.println("tessera run: --start-timeout must be at least 1 second, got " + startTimeoutSeconds);
            return 2;
        }
        if (emulatedNodes < 0) {
            System.err.println("tessera run: --emulate-nodes must not be negative, got " + emulatedNodes);
            return 2;
        }
        Duration limit = null;
        Duration hang = null;
        try {
            limit = timeLimit == null ? null : duration("--time-limit", timeLimit);
            hang = hangReport == null ? null : duration("--hang-report", hangReport);
        } catch (IllegalArgumentException e) {
            System.err.println("tessera run: " + e.getMessage());
            return 2;
        }
        String aotOption;
        try {
            aotOption = aotOption(allHostsGiven());
        } catch (IllegalArgumentException e) {
            System.err.println("tessera run: " + e.getMessage());
            return 2;
        }
        if (aotOption != null) {
            jvmOptions.add(0, aotOption);   // first: a user's own -XX:AOT... option comes later and wins
        }
        if (oversubscribedProcesses(allHostsGiven())
                && jvmOptions.stream().noneMatch(o -> o.startsWith("-XX:CompileThresholdScaling"))) {
            jvmOptions.add(0, "-XX:CompileThresholdScaling=" + OVERSUBSCRIBED_COMPILE_SCALING);
        }
        if (hang != null) {
            // every rank reads it: process ranks from their JVM options, smp ranks from this JVM
            jvmOptions.add("-Dtessera.hangReport=" + hang.toSeconds());
            System.setProperty("tessera.hangReport", Long.toString(hang.toSeconds()));
        }
        if (limit != null) {
            // the ranks track their calls, so that the time limit can say where each one is
            jvmOptions.add("-Dtessera.trackCalls=true");
            System.setProperty("tessera.trackCalls", "true");
            startTimeLimit(limit, timeLimit);
        }
        if (!bindTo.equals("core") && !bindTo.equals("none")) {
            System.err.println("tessera run: --bind-to must be core or none, got " + bindTo);
            return 2;
        }
        List<String> allHosts = new ArrayList<>(hosts);
        if (hostfile != null) {
            try {
                allHosts.addAll(readHostfile(hostfile));
            } catch (java.nio.file.NoSuchFileException e) {
                System.err.println("tessera run: --hostfile " + hostfile + ": no such file");
                return 2;
            } catch (IOException e) {
                System.err.println("tessera run: --hostfile " + hostfile + ": cannot read it: " + e.getMessage());
                return 2;
            }
            if (allHosts.isEmpty()) {
                System.err.println("tessera run: --hostfile " + hostfile + " names no host");
                return 2;
            }
        }
        dev.tessera.device.JobFailure.RankFailureMode rankFailure;
        try {
            rankFailure = dev.tessera.device.JobFailure.RankFailureMode.fromEnvironment(
                    java.util.Map.of(dev.tessera.device.JobFailure.RankFailureMode.VARIABLE, onRankFailure));
        } catch (RuntimeException e) {
            System.err.println("tessera run: --on-rank-failure must be abort or continue, got '" + onRankFailure + "'");
            return 2;
        }
        LaunchSpec spec = new LaunchSpec(ranks, ranksPerNode, allHosts, threads, device, tagOutput,
                classPath, mainClass, args, jvmOptions, Duration.ofSeconds(startTimeoutSeconds), bindTo.equals("core"));
        DeviceProvider provider;
        try {
            provider = DeviceProviders.require(device);
        } catch (IllegalArgumentException e) {
            System.err.println("tessera run: " + e.getMessage());
            return 2;
        }
        if (rankFailure == dev.tessera.device.JobFailure.RankFailureMode.CONTINUE
                && provider.launchStyle() != DeviceProvider.LaunchStyle.PROCESSES) {
            System.err.println("tessera run: --on-rank-failure continue needs a device with one process per rank "
                    + "started by tessera (shm, tcp, auto), not " + device);
            return 2;
        }
        return switch (provider.launchStyle()) {
            case IN_PROCESS -> {
                if (!allHosts.isEmpty()) {
                    System.err.println("tessera run: the " + device + " device runs all ranks in this JVM; --hosts needs a device with one process per rank (tcp, auto)");
                    yield 2;
                }
                if (!givenJvmOptions.isEmpty()) {
                    // said, not refused: scripts pass the same options for every device
                    System.err.println("tessera run: the " + device + " device runs all ranks in this JVM, so --jvm-opt "
                            + String.join(" ", givenJvmOptions) + " is not used (give this JVM's options through "
                            + "TESSERA_JAVA_OPTS with bin/tessera, or on its java command line)");
                }
                yield new SmpLauncher(System.err).run(spec);
            }
            case PROCESSES -> new dev.tessera.launch.process.ProcessLauncher(System.out, System.err,
                    Duration.ZERO, emulatedNodes).onRankFailure(rankFailure).run(spec);
            case LIBRARY_LAUNCHER -> {
                if (!mpiCollectives.equals("tessera") && !mpiCollectives.equals("native")) {
                    System.err.println("tessera run: --mpi-collectives must be tessera or native, got '" + mpiCollectives + "'");
                    yield 2;
                }
                yield new dev.tessera.launch.process.MpiLauncher(System.err).run(spec, mpiCollectives);
            }
        };
    }

    /**
     * 90s, 30m, 2h, 45 with a unit missing refused; or [h:]mm:ss as srun writes it. At least 1 s.
     */
    static Duration duration(String option, String text) {
        String t = text.trim();
        Duration d;
        try {
            if (t.matches("\\d+[smh]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                d = switch (t.charAt(t.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    default -> Duration.ofHours(n);
                };
            } else if (t.matches("(\\d+:)?\\d+:\\d{2}")) {
                String[] f = t.split(":");
                long s = 0;
                for (String part : f) {
                    s = s * 60 + Long.parseLong(part);
                }
                d = Duration.ofSeconds(s);
            } else {
                throw new IllegalArgumentException(option + " " + text + ": give a unit (90s, 30m, 2h) or [h:]mm:ss");
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(option + " " + text + ": not a duration");
        }
        if (d.toSeconds() < 1) {
            throw new IllegalArgumentException(option + " must be at least 1 second, got " + text);
        }
        return d;
    }

    /** How long the time limit waits for the ranks' answers (they poll 4 times a second) before ending the job. */
    private static final long WHERE_ANSWER_MILLIS = 3000;

    /**
     * Ends this launcher (and with it, through its shutdown hooks, every rank process or the
     * mpirun it started; smp ranks are its threads) when the limit is reached, with status 124,
     * after printing where each rank is (the hang report's lines; smp ranks and the ranks of
     * Tessera's own launcher on this host, not ranks on other hosts or under mpirun).
     */
    private static void startTimeLimit(Duration limit, String text) {
        Thread.ofPlatform().daemon().name("tessera-time-limit").start(() -> {
            try {
                Thread.sleep(limit.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("tessera run: time limit " + text + " reached; where each rank is:");
            System.err.flush();
            // smp ranks are threads of this JVM; process ranks answer through their job's directory
            dev.tessera.device.BlockedCalls.printWhere();
            dev.tessera.launch.process.ProcessLauncher.requestWhereReports();
            try {
                Thread.sleep(WHERE_ANSWER_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.err.println("tessera run: time limit " + text + " reached; ending the job");
            System.err.flush();
            System.exit(124);
        });
    }

    static List<String> readHostfile(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String h = line.replaceAll("#.*", "").trim();
            if (!h.isEmpty()) {
                out.add(h.split("\\s+")[0]);
            }
        }
        return out;
    }
}
