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

    @Option(names = "--tag-output", description = "Prefix every output line with [rank].")
    boolean tagOutput;

    @Option(names = {"-cp", "--class-path", "--classpath"}, paramLabel = "CP", split = "[:;]",
            description = "Class path of the program (directories and jars, separated by ':').")
    List<Path> classPath = new ArrayList<>();

    @Option(names = "--jvm-opt", paramLabel = "OPT",
            description = "Extra JVM option for rank processes (repeatable; not used by smp).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--start-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long ranks wait for each other at startup. Default: ${DEFAULT-VALUE} s.")
    long startTimeoutSeconds;

    @Option(names = "--emulate-nodes", paramLabel = "K", defaultValue = "0",
            description = "Pretend this machine is K nodes (for trying the auto device's shm + tcp mix on one machine).")
    int emulatedNodes;

    @Option(names = "--bind-to", paramLabel = "core|none", defaultValue = "core",
            description = "Bind each rank process's main thread (and the Team it starts) to cores of its own, as mpirun does: "
                    + "local rank i with T threads gets cores iT..iT+T-1; nothing is bound when the node's ranks x threads "
                    + "exceed its cores. Default: ${DEFAULT-VALUE}.")
    String bindTo;

    @Parameters(index = "0", paramLabel = "MAIN", description = "The program's main class.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to every rank's main.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws IOException, InterruptedException {
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
        LaunchSpec spec = new LaunchSpec(ranks, ranksPerNode, allHosts, threads, device, tagOutput,
                classPath, mainClass, args, jvmOptions, Duration.ofSeconds(startTimeoutSeconds), bindTo.equals("core"));
        DeviceProvider provider;
        try {
            provider = DeviceProviders.require(device);
        } catch (IllegalArgumentException e) {
            System.err.println("tessera run: " + e.getMessage());
            return 2;
        }
        return switch (provider.launchStyle()) {
            case IN_PROCESS -> {
                if (!allHosts.isEmpty()) {
                    System.err.println("tessera run: the " + device + " device runs all ranks in this JVM; --hosts needs a device with one process per rank (tcp, auto)");
                    yield 2;
                }
                yield new SmpLauncher(System.err).run(spec);
            }
            case PROCESSES -> new dev.tessera.launch.process.ProcessLauncher(System.out, System.err,
                    Duration.ZERO, emulatedNodes).run(spec);
            case LIBRARY_LAUNCHER -> {
                if (!mpiCollectives.equals("tessera") && !mpiCollectives.equals("native")) {
                    System.err.println("tessera run: --mpi-collectives must be tessera or native, got '" + mpiCollectives + "'");
                    yield 2;
                }
                yield new dev.tessera.launch.process.MpiLauncher(System.err).run(spec, mpiCollectives);
            }
        };
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
