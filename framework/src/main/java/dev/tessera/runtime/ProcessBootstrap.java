package dev.tessera.runtime;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.Device;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.auto.AutoDevice;
import dev.tessera.device.mpi.MpiDevice;
import dev.tessera.device.shm.ShmDevice;
import dev.tessera.device.shm.ShmFile;
import dev.tessera.device.tcp.DirectoryRendezvous;
import dev.tessera.device.tcp.Rendezvous;
import dev.tessera.device.tcp.TcpStoreRendezvous;
import dev.tessera.device.tcp.TcpDevice;
import dev.tessera.device.tcp.TcpMesh;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

/**
 * Connects a rank that runs as its own process to its job, from what the launcher put in
 * the environment: Tessera's launcher (TESSERA_RANK / TESSERA_SIZE), Open MPI's mpirun
 * (OMPI_COMM_WORLD_RANK / SIZE / LOCAL_RANK / LOCAL_SIZE), Slurm (SLURM_PROCID /
 * SLURM_NTASKS / SLURM_LOCALID) or a PMI launcher (PMI_RANK / PMI_SIZE).
 *
 * <p>Other variables: TESSERA_DEVICE (auto, the default: shm within a node and tcp across; shm; tcp), TESSERA_ROOT (host:port
 * of a TCP store on rank 0 to rendezvous through, with TESSERA_SECRET), TESSERA_RENDEZVOUS_DIR (where
 * ranks publish their addresses; under mpirun without it, a directory in /tmp named
 * after the Open MPI job), TESSERA_SECRET (the job secret; without it rank 0 writes one
 * into the rendezvous directory), TESSERA_IFACE (address to use), TESSERA_START_TIMEOUT
 * (seconds, default 60), TESSERA_JOB_ID, TESSERA_NODE_ID.
 */
public final class ProcessBootstrap {

    private static volatile Device current;

    private ProcessBootstrap() {
    }

    /** The device of this process's rank, once bootstrapped (used to abort the job when main throws). */
    public static Device currentDevice() {
        return current;
    }

    /** A rank bootstrap from the environment, or null if no launcher variables are present. */
    public static RankBootstrap fromEnvironment(Map<String, String> env) {
        if ("mpi".equals(env.get("TESSERA_DEVICE"))) {
            return mpi(env);
        }
        int[] place = rankAndSize(env);
        if (place == null) {
            return null;
        }
        int rank = place[0];
        int size = place[1];
        String device = env.getOrDefault("TESSERA_DEVICE", "auto");
        Duration timeout = Duration.ofSeconds(Long.parseLong(env.getOrDefault("TESSERA_START_TIMEOUT", "60")));
        if (device.equals("shm")) {
            return shm(env, rank, size, timeout);
        }
        if (!device.equals("tcp") && !device.equals("auto")) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": TESSERA_DEVICE=" + device
                    + " is not a device; multi-process jobs use 'auto', 'shm' (one machine), 'tcp' or 'mpi'");
        }
        String secret = env.get("TESSERA_SECRET");
        Rendezvous rendezvous;
        String root = env.get("TESSERA_ROOT");
        if (root != null && !root.isBlank()) {
            if (secret == null || secret.isBlank()) {
                throw new TesseraException(ErrorClass.ARG, "rank " + rank
                        + ": TESSERA_ROOT needs TESSERA_SECRET too (any hard-to-guess string, the same for every rank)");
            }
            rendezvous = new TcpStoreRendezvous(root, rank, secret);
        } else {
            DirectoryRendezvous dir = new DirectoryRendezvous(rendezvousDir(env, rank));
            if (secret == null || secret.isBlank()) {
                secret = dir.shared("secret", rank == 0, ProcessBootstrap::newSecret, timeout);
            }
            rendezvous = dir;
        }
        JobFailure failure = new JobFailure();
        long eager = Long.parseLong(env.getOrDefault("TESSERA_EAGER_LIMIT", Long.toString(TcpDevice.DEFAULT_EAGER_LIMIT)));
        MatchingEngine engine = new MatchingEngine();
        TcpDevice tcp = TcpMesh.connect(new TcpMesh.Spec(rank, size, secret, rendezvous, address(env), timeout, eager,
                nodeName(env)), failure, engine);
        Device chosen = tcp;
        int[] local = null;
        if (device.equals("auto")) {
            String[] nodes = tcp.nodes();
            local = java.util.stream.IntStream.range(0, size).filter(r -> nodes[r].equals(nodes[rank])).toArray();
            ShmDevice shm = null;
            if (local.length > 1) {
                String job = env.getOrDefault("TESSERA_JOB_ID", env.getOrDefault("OMPI_MCA_ess_base_jobid",
                        env.getOrDefault("SLURM_JOB_ID", "job")));
                int me = java.util.Arrays.binarySearch(local, rank);
                shm = ShmFile.join(shmFile(env, job + "-" + nodes[rank]), me, local.length, timeout, failure, engine, local);
            }
            chosen = new AutoDevice(engine, failure, tcp, shm);
        }
        current = chosen;
        installExitHandlers(chosen, Thread.currentThread());
        if (rank == 0 && env.get("TESSERA_RENDEZVOUS_DIR") == null && rendezvous instanceof DirectoryRendezvous dir) {
            // A directory we derived (mpirun, srun): every rank has read it once the mesh is complete.
            deleteTree(dir.directory());
        }
        int localRank = local != null ? java.util.Arrays.binarySearch(local, rank)
                : intOr(env, 0, "TESSERA_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID");
        int localSize = local != null ? local.length : intOr(env, size, "TESSERA_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE");
        int node = intOr(env, 0, "TESSERA_NODE_ID", "SLURM_NODEID");
        return new RankBootstrap(chosen, localRank, localSize, node, env.getOrDefault("TESSERA_JOB_ID", "job"));
    }

    /**
     * The system's MPI library (started by mpirun/srun, or a singleton): rank and size come
     * from MPI itself. TESSERA_MPI_COLLECTIVES=native (or -Dtessera.mpi.collectives=native)
     * hands the common collectives to the library.
     */
    private static RankBootstrap mpi(Map<String, String> env) {
        String collectives = System.getProperty("tessera.mpi.collectives",
                env.getOrDefault("TESSERA_MPI_COLLECTIVES", "tessera"));
        if (!collectives.equals("native") && !collectives.equals("tessera")) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_MPI_COLLECTIVES=" + collectives
                    + " is not valid (native: the MPI library's collectives; tessera: Tessera's algorithms)");
        }
        long eager = Long.parseLong(env.getOrDefault("TESSERA_EAGER_LIMIT", Long.toString(MpiDevice.DEFAULT_EAGER_LIMIT)));
        MpiDevice d;
        try {
            d = MpiDevice.init(new JobFailure(), eager, collectives.equals("native"));
        } catch (TesseraException e) {
            // Like a failed MPI_Init: one line saying what was looked for, then exit (no stack trace).
            System.err.println("tessera: rank " + env.getOrDefault("OMPI_COMM_WORLD_RANK", env.getOrDefault("PMI_RANK", "?"))
                    + ": " + e.getMessage());
            System.err.flush();
            System.exit(1);
            throw e;
        }
        current = d;
        installExitHandlers(d, Thread.currentThread());
        int localRank = intOr(env, 0, "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID");
        int localSize = intOr(env, d.size(), "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS");
        int node = intOr(env, 0, "SLURM_NODEID");
        return new RankBootstrap(d, localRank, localSize, node,
                env.getOrDefault("OMPI_MCA_ess_base_jobid", env.getOrDefault("SLURM_JOB_ID", "mpi")));
    }

    /** All ranks on this machine, through a shared file named after the job (see {@link ShmFile}). */
    private static RankBootstrap shm(Map<String, String> env, int rank, int size, Duration timeout) {
        String job = env.get("TESSERA_JOB_ID");
        if (job == null) {
            job = env.getOrDefault("OMPI_MCA_ess_base_jobid", env.get("SLURM_JOB_ID"));
        }
        if (job == null) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": the shm device needs TESSERA_JOB_ID "
                    + "(set by tessera run) or an mpirun/srun job id to name its shared file");
        }
        Path file = shmFile(env, job);
        ShmDevice d = ShmFile.join(file, rank, size, timeout, new JobFailure());
        current = d;
        installExitHandlers(d, Thread.currentThread());
        return new RankBootstrap(d, rank, size, 0, job);
    }

    /** The shared file of a shm job: TESSERA_SHM_DIR (default /dev/shm) / tessera-JOB. */
    public static Path shmFile(Map<String, String> env, String job) {
        return Path.of(env.getOrDefault("TESSERA_SHM_DIR", "/dev/shm"), "tessera-" + job.replaceAll("[^A-Za-z0-9_.-]", "_"));
    }

    static int[] rankAndSize(Map<String, String> env) {
        String[][] pairs = {{"TESSERA_RANK", "TESSERA_SIZE"}, {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
            {"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"}};
        for (String[] p : pairs) {
            String r = env.get(p[0]);
            String s = env.get(p[1]);
            if (r != null && s != null) {
                try {
                    int rank = Integer.parseInt(r.trim());
                    int size = Integer.parseInt(s.trim());
                    if (rank < 0 || size < 1 || rank >= size) {
                        throw new NumberFormatException();
                    }
                    return new int[] {rank, size};
                } catch (NumberFormatException e) {
                    throw new TesseraException(ErrorClass.ARG, "invalid " + p[0] + "=" + r + " / " + p[1] + "=" + s);
                }
            }
        }
        return null;
    }

    private static Path rendezvousDir(Map<String, String> env, int rank) {
        String dir = env.get("TESSERA_RENDEZVOUS_DIR");
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String ompiJob = env.getOrDefault("OMPI_MCA_ess_base_jobid", env.get("OMPI_MCA_orte_ess_jobid"));
        if (ompiJob != null) {
            return Path.of(System.getProperty("java.io.tmpdir"), "tessera-ompi-" + ompiJob.replaceAll("[^A-Za-z0-9_.-]", "_"));
        }
        String slurmJob = env.get("SLURM_JOB_ID");
        if (slurmJob != null) {
            return Path.of(env.getOrDefault("HOME", System.getProperty("java.io.tmpdir")), ".tessera", "slurm-" + slurmJob);
        }
        throw new TesseraException(ErrorClass.OTHER, "rank " + rank
                + ": no rendezvous: set TESSERA_RENDEZVOUS_DIR to a directory all ranks can see");
    }

    /** This rank's node: TESSERA_NODE (tests, containers), else the host name. */
    private static String nodeName(Map<String, String> env) {
        String n = env.get("TESSERA_NODE");
        if (n != null && !n.isBlank()) {
            return n;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static InetAddress address(Map<String, String> env) {
        try {
            String iface = env.get("TESSERA_IFACE");
            if (iface != null && !iface.isBlank()) {
                NetworkInterface ni = NetworkInterface.getByName(iface);
                if (ni != null) {
                    return ni.inetAddresses().filter(a -> a.getAddress().length == 4).findFirst()
                            .orElseThrow(() -> new TesseraException(ErrorClass.ARG, "interface " + iface + " has no IPv4 address"));
                }
                return InetAddress.getByName(iface);
            }
            if ("1".equals(env.get("TESSERA_LOCAL_ONLY"))) {
                return InetAddress.getLoopbackAddress();
            }
            return InetAddress.getLocalHost();
        } catch (UnknownHostException | SocketException e) {
            throw new TesseraException(ErrorClass.ARG, "cannot resolve the address to use (TESSERA_IFACE): " + e, e);
        }
    }

    private static int intOr(Map<String, String> env, int fallback, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null) {
                try {
                    return Integer.parseInt(v.trim());
                } catch (NumberFormatException ignored) {
                    // try the next variable
                }
            }
        }
        return fallback;
    }

    /**
     * How a process rank leaves: if the thread that initialised it dies by an exception,
     * the job is aborted (every peer learns which rank failed and why) before the JVM
     * exits; otherwise the device is closed cleanly at JVM exit, after this rank's peers
     * have said goodbye too (bounded), like MPI_Finalize.
     */
    private static void installExitHandlers(Device device, Thread initThread) {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (t == initThread) {
                System.err.println("tessera: rank " + device.rank() + " failed: " + e);
                e.printStackTrace();
                device.abort(device.rank(), e);
                System.err.flush();
                java.lang.Runtime.getRuntime().halt(1);
            } else if (previous != null) {
                previous.uncaughtException(t, e);
            } else {
                System.err.println("Exception in thread \"" + t.getName() + "\" " + e);
                e.printStackTrace();
            }
        });
        java.lang.Runtime.getRuntime().addShutdownHook(new Thread(device::close, "tessera-close"));
    }

    private static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // best effort: a stale directory in /tmp is harmless, job ids differ
        }
    }

    static String newSecret() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
