package dev.tessera.runtime.internal;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.ConnectedRank;
import dev.tessera.device.Device;
import dev.tessera.device.DeviceProvider;
import dev.tessera.device.DeviceProviders;
import dev.tessera.device.JobEnvironment;
import java.time.Duration;
import java.util.Map;

/**
 * Connects a rank that runs as its own process to its job, from what the launcher put in
 * the environment: Tessera's launcher (TESSERA_RANK / TESSERA_SIZE), Open MPI's mpirun
 * (OMPI_COMM_WORLD_RANK / SIZE / LOCAL_RANK / LOCAL_SIZE), Slurm (SLURM_PROCID /
 * SLURM_NTASKS / SLURM_LOCALID) or a PMI launcher (PMI_RANK / PMI_SIZE). It reads these
 * variables once into a {@link JobEnvironment} and hands it to the provider of the device
 * named by TESSERA_DEVICE (default auto); the device reads its own settings from there.
 *
 * <p>Variables read here: TESSERA_DEVICE, TESSERA_START_TIMEOUT (seconds, default 60),
 * TESSERA_JOB_ID, TESSERA_NODE_ID, TESSERA_NODE (this rank's node name, else the host
 * name), TESSERA_SECRET, TESSERA_LOCAL_RANK / TESSERA_LOCAL_SIZE. Each device's provider
 * documents its own.
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
        String deviceName = env.getOrDefault("TESSERA_DEVICE", "auto");
        DeviceProvider provider;
        try {
            provider = DeviceProviders.require(deviceName);
        } catch (IllegalArgumentException e) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_DEVICE=" + deviceName + ": " + e.getMessage());
        }
        JobEnvironment job = jobEnvironment(env, provider.launchStyle() == DeviceProvider.LaunchStyle.LIBRARY_LAUNCHER);
        if (job == null) {
            return null;
        }
        if (provider.launchStyle() == DeviceProvider.LaunchStyle.IN_PROCESS) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + job.rank() + ": TESSERA_DEVICE=" + deviceName
                    + " runs ranks as threads of one JVM (tessera run --device " + deviceName
                    + "); multi-process jobs use one of " + processDevices());
        }
        ConnectedRank connected = provider.connect(job, DeviceProvider.Link.standalone());
        current = connected.device();
        installExitHandlers(connected.device(), Thread.currentThread());
        return new RankBootstrap(connected.device(), connected.localRank(), connected.localSize(), connected.nodeId(),
                connected.jobId(), job.nodeName());
    }

    private static String processDevices() {
        return DeviceProviders.all().stream().filter(p -> p.launchStyle() != DeviceProvider.LaunchStyle.IN_PROCESS)
                .map(DeviceProvider::name).toList().toString();
    }

    /**
     * The job as the launcher's variables describe it, or null when they name no rank and size
     * (a program started on its own). {@code deviceDecides}: rank and size may be absent, the
     * device (mpi) learns them itself.
     */
    public static JobEnvironment jobEnvironment(Map<String, String> env, boolean deviceDecides) {
        int[] place = rankAndSize(env);
        if (place == null && !deviceDecides) {
            return null;
        }
        int rank = place != null ? place[0] : -1;
        int size = place != null ? place[1] : -1;
        Duration timeout = Duration.ofSeconds(Long.parseLong(env.getOrDefault("TESSERA_START_TIMEOUT", "60")));
        String jobId = first(env, "TESSERA_JOB_ID", "OMPI_MCA_ess_base_jobid", "SLURM_JOB_ID");
        return new JobEnvironment(rank, size,
                intOr(env, -1, "TESSERA_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"),
                intOr(env, -1, "TESSERA_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"),
                intOr(env, 0, "TESSERA_NODE_ID", "SLURM_NODEID"), nodeName(env), jobId,
                secret(env), timeout, env);
    }

    private static volatile String stdinSecret;

    /**
     * The job secret: TESSERA_SECRET, or with TESSERA_SECRET_STDIN=1 (ranks started over ssh, so
     * that the secret is on no command line) the first line of standard input, read once.
     */
    static String secret(Map<String, String> env) {
        String s = env.get("TESSERA_SECRET");
        if (s != null || !"1".equals(env.get("TESSERA_SECRET_STDIN"))) {
            return s;
        }
        synchronized (ProcessBootstrap.class) {
            if (stdinSecret == null) {
                java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
                try {
                    int b;
                    while ((b = System.in.read()) >= 0 && b != '\n') {
                        line.write(b);
                    }
                } catch (java.io.IOException e) {
                    throw new TesseraException(ErrorClass.OTHER, "cannot read the job secret from standard input "
                            + "(TESSERA_SECRET_STDIN=1): " + e, e);
                }
                String read = line.toString(java.nio.charset.StandardCharsets.UTF_8).trim();
                if (read.isEmpty()) {
                    throw new TesseraException(ErrorClass.ARG, "TESSERA_SECRET_STDIN=1 but standard input held no "
                            + "job secret (the launcher writes it there)");
                }
                stdinSecret = read;
            }
            return stdinSecret;
        }
    }

    private static String first(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return null;
    }

    public static int[] rankAndSize(Map<String, String> env) {
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

    /** This rank's node: TESSERA_NODE (tests, containers), else the host name. */
    public static String nodeName(Map<String, String> env) {
        String n = env.get("TESSERA_NODE");
        if (n != null && !n.isBlank()) {
            return n;
        }
        return RankBootstrap.hostName();
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
}
