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

    static {
        dev.tessera.internal.CurrentRank.install(RankBootstrap::deviceOfCallingThread);
    }

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
        dieWithParent(env, job.rank());
        ExitWatch.install();
        // TESSERA_ON_RANK_FAILURE=continue (tessera run --on-rank-failure continue): a dead peer fails
        // only the operations with it, not the job
        dev.tessera.device.JobFailure failure = new dev.tessera.device.JobFailure(
                dev.tessera.device.JobFailure.RankFailureMode.fromEnvironment(env));
        ConnectedRank connected = provider.connect(job, new DeviceProvider.Link(failure,
                new dev.tessera.device.MatchingEngine(), null));
        current = connected.device();
        installExitHandlers(connected.device(), Thread.currentThread());
        failureFile = failureFile(env);
        watchFailureFile(connected.device(), failureFile);
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
                noteFailure(device, e);
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
        java.lang.Runtime.getRuntime().addShutdownHook(new Thread(() -> onExit(device, initThread), "tessera-close"));
    }

    private static volatile boolean sessionClosed;
    private static volatile boolean mainReturned;

    /** The program closed the session of this process's rank: a later exit is a normal end. */
    public static void sessionClosed(Device device) {
        if (device == current) {
            sessionClosed = true;
        }
    }

    /** The rank's main returned (RankMain calls this before it exits): the exit that follows is a normal end. */
    public static void mainReturned() {
        mainReturned = true;
    }

    /**
     * The process is exiting. A normal end (the session was closed, or main returned) closes
     * the device cleanly. A System.exit with the session open, from the middle of the program
     * (main still running) or with a non-zero status, fails the job instead: the
     * peers would otherwise wait for this rank for ever (their pending and later calls fail
     * naming it and the status; under MPI the job is aborted). A signal (the launcher stopping
     * the job) closes as before.
     */
    private static void onExit(Device device, Thread initThread) {
        int status = ExitWatch.status();
        boolean signalled = ExitWatch.bySignal();
        boolean midRun = !mainReturned && initThread.isAlive();
        if (!signalled && !sessionClosed && (status > 0 || midRun)) {
            TesseraException cause = new TesseraException(ErrorClass.PROC_FAILED, "rank " + device.rank()
                    + " exited with " + ExitWatch.describe() + " before closing its session"
                    + (midRun ? " (System.exit while its main was still running)" : ""));
            System.out.flush();
            System.err.println("tessera: " + cause.getMessage());
            System.err.flush();
            noteFailure(device, cause);
            device.abort(device.rank(), cause);
            return;
        }
        device.close();
    }

    /** The job's failure file (Tessera's launcher, local ranks), or null. */
    private static volatile java.nio.file.Path failureFile;

    /**
     * {@code TESSERA_RENDEZVOUS_DIR/failure} for ranks of Tessera's own launcher on this host:
     * the job's first failure, as "RANK" and a message on two lines, written by the failing rank
     * (or by the launcher when a rank exits with a non-zero status). Every rank watches it, so a
     * failure reaches ranks that a device's own notice missed.
     */
    private static java.nio.file.Path failureFile(Map<String, String> env) {
        String dir = env.get("TESSERA_RENDEZVOUS_DIR");
        return env.containsKey("TESSERA_LAUNCHER_PID") && dir != null && !dir.isBlank()
                ? java.nio.file.Path.of(dir, "failure") : null;
    }

    /**
     * Writes this rank's failure with {@code cause} into the job's failure file (unless the
     * file exists), before the device's notices go out: the launcher and every local rank read
     * it. If the job had already failed, the file names that first failure's origin instead (a
     * rank that stops because another failed only relays it). A no-op without a failure file.
     */
    public static void noteFailure(Device device, Throwable cause) {
        if (device != current || failureFile == null) {
            return;
        }
        dev.tessera.device.JobFailure.Origin origin = device.failureOrigin();
        if (origin == null) {
            origin = new dev.tessera.device.JobFailure.Origin(device.rank(), dev.tessera.device.JobFailure.describe(cause));
        }
        writeFailure(failureFile, origin.rank(), origin.reason());
    }

    /**
     * The rank named by a job's failure file and its reason; null if there is no such file
     * or it cannot be read.
     */
    public static dev.tessera.device.JobFailure.Origin readFailure(java.nio.file.Path file) {
        try {
            String text = java.nio.file.Files.readString(file);
            int nl = text.indexOf('\n');
            int rank = Integer.parseInt((nl < 0 ? text : text.substring(0, nl)).strip());
            String reason = nl < 0 ? "" : text.substring(nl + 1).strip();
            return new dev.tessera.device.JobFailure.Origin(rank, reason.isEmpty() ? "failed" : reason);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** Writes the job's failure file unless it exists (the first failure wins); best effort. */
    public static void writeFailure(java.nio.file.Path file, int rank, String message) {
        if (file == null) {
            return;
        }
        java.nio.file.Path tmp = file.resolveSibling("failure." + ProcessHandle.current().pid() + ".tmp");
        try {
            dev.tessera.device.OwnerOnlyFiles.writeString(tmp, rank + "\n" + message + "\n");
            java.nio.file.Files.move(tmp, file); // fails if another failure came first
        } catch (java.io.IOException | RuntimeException ignored) {
            // another failure was first, or the job's directory is gone
        } finally {
            try {
                java.nio.file.Files.deleteIfExists(tmp);
            } catch (java.io.IOException ignored) {
                // best effort
            }
        }
    }

    /**
     * The request, in the job's directory, that every rank print where it is (its wait, or
     * that it is not in a Tessera call): written by the first rank whose hang report fires
     * and by the launcher when the time limit ends the job.
     */
    public static java.nio.file.Path whereRequest(java.nio.file.Path jobDirectory) {
        return jobDirectory.resolve("where");
    }

    /**
     * Polls the job's failure file (4 times a second) and fails this rank's calls once it
     * appears; answers a request to say where this rank is ({@link #whereRequest}) once.
     */
    private static void watchFailureFile(Device device, java.nio.file.Path file) {
        if (file == null) {
            return;
        }
        java.nio.file.Path where = whereRequest(file.getParent());
        if (dev.tessera.device.BlockedCalls.enabled()) {
            dev.tessera.device.BlockedCalls.onFirstReport(() -> {
                try {
                    dev.tessera.device.OwnerOnlyFiles.writeString(where, device.rank() + "\n");
                } catch (java.io.IOException | RuntimeException ignored) {
                    // the job's directory is gone: the job is ending anyway
                }
            });
        }
        Thread.ofPlatform().daemon().name("tessera-failure-watch").start(() -> {
            boolean answered = false;
            while (!java.nio.file.Files.exists(file)) {
                if (!answered && java.nio.file.Files.exists(where)) {
                    answered = true;
                    dev.tessera.device.BlockedCalls.answerWhereRequest();
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
            dev.tessera.device.JobFailure.Origin origin = readFailure(file);
            if (origin != null && origin.rank() != device.rank()) {
                device.abort(origin.rank(), new dev.tessera.device.JobFailure.Notice(origin.reason()));
            }   // unreadable: the device's own notices still apply
        });
    }

    /**
     * Makes this rank die with the process that started it (the launcher, or mpirun's daemon):
     * the kernel sends SIGKILL when the parent ends (prctl PR_SET_PDEATHSIG), and a watchdog
     * thread ends the rank if its parent changes (where prctl is not available, or the parent
     * died before the call). TESSERA_LAUNCHER_PID, set by Tessera's launcher, is the parent to
     * expect; otherwise the parent at start-up.
     */
    private static void dieWithParent(Map<String, String> env, int rank) {
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        String launcher = env.get("TESSERA_LAUNCHER_PID");
        if (launcher != null && !launcher.isBlank() && !launcher.strip().equals(Long.toString(parent))) {
            System.err.println("tessera: rank " + rank + ": the launcher (pid " + launcher.strip()
                    + ") is gone before this rank started; exiting");
            System.err.flush();
            java.lang.Runtime.getRuntime().halt(1);
        }
        if (parent <= 1) {
            return; // nothing to watch
        }
        dev.tessera.device.Posix.parentDeathSignal(dev.tessera.device.Posix.SIGKILL);
        long watched = parent;
        Thread.ofPlatform().daemon().name("tessera-parent-watch").start(() -> {
            while (true) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                long now = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
                if (now != watched) {
                    System.err.println("tessera: rank " + rank + ": the process that started it (pid " + watched
                            + ") ended; exiting");
                    System.err.flush();
                    java.lang.Runtime.getRuntime().halt(1);
                }
            }
        });
    }
}
