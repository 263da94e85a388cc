package dev.tessera.launch.process;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.device.DeviceProviders;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts one JVM per rank, on this machine or over ssh on the hosts of --hosts/--hostfile
 * (ranks placed in blocks of --ppn, or spread evenly), passes each its place in the job
 * through TESSERA_* variables (over ssh: on the remote command line, after a cd to the
 * same working directory, which should be on a shared file system; the job secret on the rank's
 * standard input, not on the command line), forwards its output line by line
 * (optionally prefixed with "[rank] "), and waits. When a rank exits with a non-zero
 * status the others get a grace period to notice (they are told through the device) and
 * are then killed; the launcher reports which rank failed and exits non-zero. With
 * {@code --on-rank-failure continue} (TESSERA_ON_RANK_FAILURE=continue) a rank that dies
 * without failing the job on purpose is reported and the others go on; the launcher still
 * exits with the dead rank's status once they are done. Ctrl-C
 * (JVM shutdown) kills every rank. The rendezvous directory is removed at the end.
 */
public final class ProcessLauncher {

    /** How long the other ranks may take to stop by themselves once one has failed. */
    static final long GRACE_MILLIS = LaunchSpec.RANK_FAILURE_GRACE_MILLIS;

    private final PrintStream out;
    private final PrintStream err;
    private final long jobTimeoutNanos;
    private final int emulatedNodes;
    /** The running job's failure file (local jobs), watched by every rank. */
    private volatile Path failureFile;
    /** What a rank's death does to the job; null: TESSERA_ON_RANK_FAILURE of this launcher's environment. */
    private dev.tessera.device.JobFailure.RankFailureMode rankFailureMode;
    /** The class path the ranks start with; null: this JVM's. */
    private String rankClassPath;

    /**
     * What the death of a rank process does to the job: ABORT (the default) stops the others;
     * CONTINUE lets them go on, with the operations involving the dead rank failing.
     */
    public ProcessLauncher onRankFailure(dev.tessera.device.JobFailure.RankFailureMode mode) {
        this.rankFailureMode = mode;
        return this;
    }

    /**
     * The class path the rank processes start with in place of this JVM's (the program's
     * entries still follow it); null: this JVM's. The framework's tests use it to start ranks
     * from jar copies of their class directories, which a class data sharing archive can cover.
     */
    public ProcessLauncher rankClassPath(String classPath) {
        this.rankClassPath = classPath;
        return this;
    }

    private dev.tessera.device.JobFailure.RankFailureMode rankFailureMode() {
        return rankFailureMode != null ? rankFailureMode
                : dev.tessera.device.JobFailure.RankFailureMode.fromEnvironment(System.getenv());
    }

    public ProcessLauncher(PrintStream out, PrintStream err) {
        this(out, err, java.time.Duration.ZERO, 0);
    }

    /**
     * A launcher that kills the job after {@code jobTimeout} (zero: no limit) and returns
     * 124, and, with {@code emulatedNodes} > 1, pretends this machine is that many nodes
     * (rank r on node r * nodes / np, through TESSERA_NODE), so the auto device's mix of
     * shared memory and TCP can be exercised on one machine.
     */
    public ProcessLauncher(PrintStream out, PrintStream err, java.time.Duration jobTimeout, int emulatedNodes) {
        this.out = out;
        this.err = err;
        this.jobTimeoutNanos = jobTimeout.toNanos();
        this.emulatedNodes = emulatedNodes;
    }

    public int run(LaunchSpec spec) throws IOException, InterruptedException {
        List<String> hosts = spec.hosts();
        boolean remote = hosts.stream().anyMatch(h -> !isLocal(h));
        if (spec.ranksPerNode() > 0 && !hosts.isEmpty() && (long) spec.ranksPerNode() * hosts.size() < spec.ranks()) {
            err.println("tessera run: " + hosts.size() + " host(s) x --ppn " + spec.ranksPerNode() + " cannot hold "
                    + spec.ranks() + " ranks");
            return 2;
        }
        String jobId = "tessera-job-" + Long.toHexString(new SecureRandom().nextLong() & Long.MAX_VALUE);
        // Ranks on other hosts need a rendezvous directory they can all see: the user's, or one under
        // the working directory (a shared file system on clusters); a local job uses /tmp.
        Path dir = remote ? Path.of(System.getenv().getOrDefault("TESSERA_RENDEZVOUS_DIR",
                Path.of(".tessera").toAbsolutePath().toString()), jobId) : Files.createTempDirectory(jobId);
        if (!remote) {
            removeStaleJobs(dir.getParent(), spec.device());
        }
        dev.tessera.device.OwnerOnlyFiles.createDirectories(dir);
        writeOwner(dir, jobId);
        String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        List<Process> ranks = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> pumps = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean cleaned = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable cleanUp = () -> {
            if (!cleaned.compareAndSet(false, true)) {
                return;
            }
            failureFile = null;   // the rank monitor writes no failure file into a directory being removed
            List<Process> all;
            synchronized (ranks) {
                all = new ArrayList<>(ranks);
            }
            all.forEach(Process::destroyForcibly);
            for (Process p : all) {
                try {
                    p.waitFor(5, TimeUnit.SECONDS); // the ranks' files are gone only once they are
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            deleteTree(dir);
            if (remote && dir.getParent() != null) {
                dir.getParent().toFile().delete();   // only if empty
            }
            DeviceProviders.require(spec.device()).cleanUpAfter(jobId, System.getenv());
        };
        // SIGTERM, SIGINT, SIGHUP end this JVM without running the finally below: kill the ranks and
        // remove the job's files from the shutdown hook too
        Thread killer = new Thread(cleanUp, "tessera-launcher-cleanup");
        Runtime.getRuntime().addShutdownHook(killer);
        try {
            for (int r = 0; r < spec.ranks(); r++) {
                int hostIndex = hostOf(r, spec);
                String host = hosts.isEmpty() ? null : hosts.get(hostIndex);
                Map<String, String> vars = rankVariables(spec, r, hostIndex, host, jobId, secret, dir, remote);
                ProcessBuilder pb;
                if (host == null || isLocal(host)) {
                    pb = new ProcessBuilder(rankCommand(spec, rankClassPath));
                    pb.environment().putAll(vars);
                } else {
                    pb = new ProcessBuilder(sshCommand(host, vars, rankCommand(spec, rankClassPath)));
                }
                Process p = pb.start();
                ranks.add(p);
                String prefix = spec.tagOutput() ? "[" + r + "] " : "";
                pumps.add(pump(p.getInputStream(), out, prefix));
                pumps.add(pump(p.getErrorStream(), err, prefix));
                if (host != null && !isLocal(host)) {
                    // The secret goes to a remote rank on its standard input, never on the ssh command line.
                    p.getOutputStream().write((secret + "\n").getBytes(StandardCharsets.UTF_8));
                }
                p.getOutputStream().close();
            }
            failureFile = remote ? null : dir.resolve("failure");
            if (!remote) {
                RUNNING.add(dir);
            }
            int status = await(ranks);
            for (Thread t : pumps) {
                t.join(2000);
            }
            return status;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException ignored) {
                // already shutting down: the hook cleans up
            }
            RUNNING.remove(dir);
            cleanUp.run();
        }
    }

    /** The directories of the local jobs this JVM's launchers run now. */
    private static final java.util.Set<Path> RUNNING = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Asks every rank of the local jobs this JVM runs to print where it is (its wait with
     * peer and tag, or that it is not in a Tessera call): the time limit calls this before it
     * ends the job. The ranks answer within a second (they poll their job's directory).
     */
    public static void requestWhereReports() {
        for (Path dir : RUNNING) {
            try {
                dev.tessera.device.OwnerOnlyFiles.writeString(
                        dev.tessera.runtime.internal.ProcessBootstrap.whereRequest(dir), "launcher\n");
            } catch (IOException | RuntimeException ignored) {
                // the job is ending already
            }
        }
    }

    /** Name of the file in a job's directory that names its launcher: "PID JOBID". */
    static final String OWNER_FILE = "launcher";

    private static void writeOwner(Path dir, String jobId) throws IOException {
        dev.tessera.device.OwnerOnlyFiles.writeString(dir.resolve(OWNER_FILE), ProcessHandle.current().pid() + " " + jobId + "\n");
    }

    /**
     * Removes what jobs of this user left in {@code tmp} when their launcher was killed
     * (SIGKILL gives it no chance to clean up): each {@code tessera-job-*} directory owned
     * by this user whose launcher process is gone, with the device's files of that job
     * (the shm device's file in /dev/shm). A directory without an owner file (an older
     * launcher, or one killed while it created it) is left alone unless it is older than a day.
     */
    static void removeStaleJobs(Path tmp, String device) {
        if (tmp == null) {
            return;
        }
        String me = System.getProperty("user.name");
        try (Stream<Path> s = Files.list(tmp)) {
            for (Path d : s.filter(p -> p.getFileName().toString().startsWith("tessera-job-")).toList()) {
                try {
                    if (!Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            || !Files.getOwner(d, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName().equals(me)) {
                        continue;
                    }
                    Path owner = d.resolve(OWNER_FILE);
                    String jobId = null;
                    boolean stale;
                    if (Files.isRegularFile(owner, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        String[] words = Files.readString(owner).trim().split("\\s+");
                        long pid = Long.parseLong(words[0]);
                        jobId = words.length > 1 ? words[1] : null;
                        stale = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) == Boolean.FALSE;
                    } else {
                        stale = Files.getLastModifiedTime(d).toMillis() < System.currentTimeMillis() - 86_400_000L;
                    }
                    if (!stale) {
                        continue;
                    }
                    deleteTree(d);
                    if (jobId != null && jobId.matches("tessera-job-[0-9a-f]+")) {
                        for (String name : List.of("shm", device)) {
                            try {
                                DeviceProviders.require(name).cleanUpAfter(jobId, System.getenv());
                            } catch (RuntimeException ignored) {
                                // a device that is not installed left nothing
                            }
                        }
                    }
                } catch (IOException | RuntimeException ignored) {
                    // another user's, or being removed by someone else: leave it
                }
            }
        } catch (IOException ignored) {
            // no temporary directory to look at
        }
    }

    /** Host index of rank r: blocks of --ppn ranks, else the ranks spread evenly over the hosts. */
    static int hostOf(int r, LaunchSpec spec) {
        int hosts = spec.hosts().size();
        if (hosts == 0) {
            return 0;
        }
        return spec.ranksPerNode() > 0 ? r / spec.ranksPerNode() : (int) ((long) r * hosts / spec.ranks());
    }

    private Map<String, String> rankVariables(LaunchSpec spec, int r, int hostIndex, String host, String jobId,
                                              String secret, Path dir, boolean remote) {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        int first = 0;
        int count = 0;
        for (int q = 0; q < spec.ranks(); q++) {
            if (hostOf(q, spec) == hostIndex) {
                if (count == 0) {
                    first = q;
                }
                count++;
            }
        }
        env.put("TESSERA_RANK", Integer.toString(r));
        env.put("TESSERA_SIZE", Integer.toString(spec.ranks()));
        env.put("TESSERA_LOCAL_RANK", Integer.toString(host == null ? r : r - first));
        env.put("TESSERA_LOCAL_SIZE", Integer.toString(host == null ? spec.ranks() : count));
        env.put("TESSERA_NODE_ID", Integer.toString(hostIndex));
        env.put("TESSERA_JOB_ID", jobId);
        env.put("TESSERA_SECRET", secret);
        env.put("TESSERA_RENDEZVOUS_DIR", dir.toString());
        env.put("TESSERA_DEVICE", spec.device());
        env.put("TESSERA_START_TIMEOUT", Long.toString(spec.startTimeout().toSeconds()));
        env.put("TESSERA_BIND", spec.bindToCore() ? "core" : "none");
        env.put(dev.tessera.device.JobFailure.RankFailureMode.VARIABLE, rankFailureMode().name().toLowerCase(java.util.Locale.ROOT));
        if (!remote) {
            env.put("TESSERA_LOCAL_ONLY", "1");
        }
        if (host == null || isLocal(host)) {
            // the rank's parent: a rank whose launcher is gone exits (ProcessBootstrap)
            env.put("TESSERA_LAUNCHER_PID", Long.toString(ProcessHandle.current().pid()));
        }
        if (host != null) {
            env.put("TESSERA_NODE", host);
        } else if (emulatedNodes > 1) {
            int node = (int) ((long) r * emulatedNodes / spec.ranks());
            env.put("TESSERA_NODE", "node" + node);
            env.put("TESSERA_NODE_ID", Integer.toString(node));
        }
        if (spec.threads() > 0) {
            env.put("TESSERA_THREADS", Integer.toString(spec.threads()));
        }
        return env;
    }

    /** True for names of this machine: localhost, loopback addresses, this host's name. */
    static boolean isLocal(String host) {
        if (host.equals("localhost") || host.startsWith("127.") || host.equals("::1")) {
            return true;
        }
        try {
            return host.equals(java.net.InetAddress.getLocalHost().getHostName());
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * The command that starts a rank on another host: {@code ssh -o BatchMode=yes HOST 'cd DIR
     * && exec env VARS java ...'}, every word single-quoted. TESSERA_SECRET is left out (every
     * user sees command lines in ps): the launcher writes it as the first line of the rank's
     * standard input, which TESSERA_SECRET_STDIN=1 tells the rank to read. The ssh program can be replaced
     * with TESSERA_SSH (or -Dtessera.ssh), e.g. {@code "ssh -p 2222"}.
     */
    static List<String> sshCommand(String host, Map<String, String> vars, List<String> command) {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("tessera.ssh",
                System.getenv().getOrDefault("TESSERA_SSH", "ssh")).trim().split("\\s+")));
        cmd.add("-o");
        cmd.add("BatchMode=yes");
        cmd.add(host);
        StringBuilder remote = new StringBuilder("cd ").append(quote(Path.of("").toAbsolutePath().toString()))
                .append(" && exec env");
        vars.forEach((k, v) -> {
            if (!k.equals("TESSERA_SECRET")) {
                remote.append(' ').append(k).append('=').append(quote(v));
            }
        });
        if (vars.containsKey("TESSERA_SECRET")) {
            // ps shows command lines to every user of both machines: the secret comes on standard input
            remote.append(" TESSERA_SECRET_STDIN=1");
        }
        for (String word : command) {
            remote.append(' ').append(quote(word));
        }
        cmd.add(remote.toString());
        return cmd;
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The JVM command of a rank: this JVM's java, the framework's class path plus the program's, RankMain. */
    static List<String> rankCommand(LaunchSpec spec) {
        return rankCommand(spec, null);
    }

    /** {@link #rankCommand(LaunchSpec)} with {@code baseClassPath} (null: this JVM's) in place of this JVM's class path. */
    static List<String> rankCommand(LaunchSpec spec, String baseClassPath) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-Xss4m");
        cmd.addAll(spec.jvmOptions());
        StringBuilder cp = new StringBuilder(baseClassPath != null ? baseClassPath : System.getProperty("java.class.path"));
        for (Path p : spec.classPath()) {
            cp.append(java.io.File.pathSeparatorChar).append(p.toAbsolutePath());
        }
        cmd.add("-cp");
        cmd.add(cp.toString());
        cmd.add(RankMain.class.getName());
        cmd.add(spec.mainClass());
        cmd.addAll(spec.args());
        return cmd;
    }

    /**
     * Longest sleep of the launcher between two looks at its ranks while none exits: it wakes at
     * once when one does ({@link Process#onExit}), and at the job's timeout or the end of a
     * failure's grace period. It used to look every 20 ms, which cost about 1 % of a core
     * (Intel Xeon VM: 54 ms of CPU and 246 context switches in 5 s of a class B CG run) taken from
     * the ranks, whose cores it shared.
     */
    static final long IDLE_WAKE_MILLIS = 1000;

    private int await(List<Process> ranks) throws InterruptedException {
        boolean goOn = rankFailureMode() == dev.tessera.device.JobFailure.RankFailureMode.CONTINUE;
        int deadStatus = 0;
        long started = System.nanoTime();
        ExitSignal exited = new ExitSignal(ranks);
        boolean[] reported = new boolean[ranks.size()];
        int firstFailed = -1;
        int status = 0;
        long failedAt = 0;
        while (true) {
            boolean allDone = true;
            List<Integer> failedNow = new ArrayList<>();
            for (int r = 0; r < ranks.size(); r++) {
                Process p = ranks.get(r);
                if (p.isAlive()) {
                    allDone = false;
                } else if (p.exitValue() != 0 && !reported[r]) {
                    reported[r] = true;
                    Path failed = failureFile;
                    if (goOn && firstFailed < 0 && (failed == null || !Files.exists(failed))) {
                        // the job chose to survive a dead rank, and no rank failed it on purpose (that writes the file)
                        err.println("tessera: rank " + r + " exited with status " + describe(p.exitValue())
                                + "; the job goes on without it (--on-rank-failure continue)");
                        deadStatus = deadStatus != 0 ? deadStatus : p.exitValue();
                        continue;
                    }
                    failedNow.add(r);
                }
            }
            if (firstFailed < 0 && !failedNow.isEmpty() && !goOn && !failedOnPurpose()) {
                int same = sameExit(ranks, exited);
                if (same != 0 && !failedOnPurpose()) {
                    err.println("tessera: every rank exited with status " + describe(same));
                    return same;
                }
            }
            if (firstFailed < 0 && !failedNow.isEmpty()) {
                // The first rank seen to exit is not always the one that failed: a rank that
                // stopped because of another's failure may exit first, or in the same poll.
                Path failure = failureFile;
                dev.tessera.device.JobFailure.Origin origin = failure == null ? null
                        : dev.tessera.runtime.internal.ProcessBootstrap.readFailure(failure);
                if (origin != null && origin.rank() >= 0 && origin.rank() < ranks.size()) {
                    firstFailed = origin.rank();
                    if (!failedNow.remove((Integer) firstFailed)) {
                        err.println("tessera: rank " + firstFailed + " failed: " + origin.reason() + "; stopping the job");
                    } else {
                        failedNow.add(0, firstFailed);
                    }
                } else {
                    firstFailed = originAmong(failedNow, ranks);
                    failedNow.remove((Integer) firstFailed);
                    failedNow.add(0, firstFailed);
                    if (failure != null) {
                        // every rank watches this file: the failure reaches ranks a device's notice missed
                        dev.tessera.runtime.internal.ProcessBootstrap.writeFailure(failure, firstFailed,
                                "rank " + firstFailed + " exited with status " + describe(ranks.get(firstFailed).exitValue()));
                    }
                }
                failedAt = System.nanoTime();
                status = failedNow.contains(firstFailed) ? ranks.get(firstFailed).exitValue() : ranks.get(failedNow.get(0)).exitValue();
                boolean stopping = failedNow.contains(firstFailed);
                for (int r : failedNow) {
                    err.println("tessera: rank " + r + " exited with status " + describe(ranks.get(r).exitValue())
                            + (stopping && r == firstFailed ? "; stopping the job" : ""));
                }
            } else {
                for (int r : failedNow) {
                    err.println("tessera: rank " + r + " exited with status " + describe(ranks.get(r).exitValue()));
                    if (r == firstFailed) {
                        status = ranks.get(r).exitValue();   // the job ends with the status of the rank that failed first
                    }
                }
            }
            if (allDone) {
                return firstFailed >= 0 ? status : deadStatus;
            }
            if (jobTimeoutNanos > 0 && System.nanoTime() - started > jobTimeoutNanos) {
                err.println("tessera: job timeout after " + jobTimeoutNanos / 1_000_000_000L
                        + " s; the threads of every rank still running follow, then every rank is killed");
                printThreads(ranks);
                ranks.forEach(Process::destroyForcibly);
                for (Process p : ranks) {
                    p.waitFor(5, TimeUnit.SECONDS);
                }
                return 124;
            }
            if (firstFailed >= 0 && System.nanoTime() - failedAt > TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS)) {
                for (int r = 0; r < ranks.size(); r++) {
                    if (ranks.get(r).isAlive()) {
                        err.println("tessera: killing rank " + r + " (still running " + GRACE_MILLIS / 1000
                                + " s after rank " + firstFailed + " failed)");
                        ranks.get(r).destroyForcibly();
                    }
                }
                for (Process p : ranks) {
                    p.waitFor(5, TimeUnit.SECONDS);
                }
                return status;
            }
            exited.await(wakeNanos(System.nanoTime(), started, jobTimeoutNanos, firstFailed >= 0 ? failedAt : -1));
        }
    }

    /**
     * How long the launcher may sleep before its next look at the ranks, if none exits: until the
     * job's timeout ({@code jobTimeoutNanos} after {@code started}; 0: none), the end of the grace
     * period of a failure seen at {@code failedAt} (-1: none), at most {@link #IDLE_WAKE_MILLIS};
     * never negative.
     */
    static long wakeNanos(long now, long started, long jobTimeoutNanos, long failedAt) {
        long wake = TimeUnit.MILLISECONDS.toNanos(IDLE_WAKE_MILLIS);
        if (jobTimeoutNanos > 0) {
            wake = Math.min(wake, started + jobTimeoutNanos - now + 1);
        }
        if (failedAt >= 0) {
            wake = Math.min(wake, failedAt + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS) - now + 1);
        }
        return Math.max(wake, 0);
    }

    /**
     * How long the launcher waits, after the first rank exits with a failure, for every rank to have
     * exited with that same status (a program that refuses its arguments on every rank, as the NPB
     * kernels do) before it reports the ranks one by one as a failure of the first.
     */
    static final long EXIT_AGREEMENT_MILLIS = 500;

    /** True if a rank has failed the job on purpose (an uncaught exception, an abort: the failure file names it). */
    private boolean failedOnPurpose() {
        Path failure = failureFile;
        return failure != null && Files.exists(failure)
                && dev.tessera.runtime.internal.ProcessBootstrap.readFailure(failure) != null;
    }

    /**
     * Waits up to {@link #EXIT_AGREEMENT_MILLIS} for every rank to exit; returns their common
     * non-zero status if all exited with the same, else 0 (the caller then reports them as before).
     */
    private static int sameExit(List<Process> ranks, ExitSignal exited) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_AGREEMENT_MILLIS);
        while (ranks.stream().anyMatch(Process::isAlive)) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            exited.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
        }
        int status = ranks.get(0).exitValue();
        for (Process p : ranks) {
            if (p.exitValue() != status) {
                return 0;
            }
        }
        return status;
    }

    /** Wakes the launcher's wait as soon as one of its ranks exits ({@link Process#onExit}). */
    static final class ExitSignal {

        private final java.util.concurrent.Semaphore exited = new java.util.concurrent.Semaphore(0);

        ExitSignal(List<Process> ranks) {
            for (Process p : ranks) {
                p.onExit().thenRun(exited::release);
            }
        }

        /**
         * Waits until a rank has exited since the last call that returned true, or {@code nanos}
         * have passed; true if one has. Every exit before the call returns is then seen by a look
         * at the ranks after it.
         */
        boolean await(long nanos) throws InterruptedException {
            if (exited.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
                exited.drainPermits();
                return true;
            }
            return false;
        }
    }

    /**
     * Which of the ranks that exited with a failure in one poll failed first, when no rank
     * has said (no failure file): one killed by a signal (its peers then fail because of it),
     * else the lowest.
     */
    private static int originAmong(List<Integer> failed, List<Process> ranks) {
        for (int r : failed) {
            if (ranks.get(r).exitValue() > 128) {
                return r;
            }
        }
        return failed.get(0);
    }

    /** How long the ranks get to print their threads at a job timeout before they are killed. */
    static final long THREADS_MILLIS = 2000;

    /**
     * At a job timeout, before the kill: every rank still running prints its threads' stacks
     * (the JVM's answer to SIGQUIT, on its standard output, which the launcher passes on with
     * the rank's prefix), so that a hung job says where each rank was, as {@code mpirun
     * --timeout --get-stack-traces} does. Nothing where there is no {@code kill} command.
     */
    private void printThreads(List<Process> ranks) throws InterruptedException {
        boolean asked = false;
        for (int r = 0; r < ranks.size(); r++) {
            Process p = ranks.get(r);
            if (!p.isAlive() || !p.info().command().orElse("").endsWith("java")) {
                continue;   // gone, or not a JVM of this host (ssh to a remote rank would just end)
            }
            try {
                Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(p.pid()))
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                asked |= kill.waitFor(THREADS_MILLIS, TimeUnit.MILLISECONDS) && kill.exitValue() == 0;
            } catch (IOException e) {
                err.println("tessera: cannot ask rank " + r + " for its threads: " + e.getMessage());
            }
        }
        if (asked) {
            Thread.sleep(THREADS_MILLIS);   // the JVMs print the stacks on a thread of their own
        }
    }

    private static String describe(int exit) {
        return exit > 128 ? exit + " (killed by signal " + (exit - 128) + ")" : Integer.toString(exit);
    }

    private static Thread pump(InputStream in, PrintStream target, String prefix) {
        return Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (target) {
                        target.println(prefix + line);
                    }
                }
            } catch (IOException ignored) {
                // the rank's stream closed
            }
        });
    }

    /**
     * Removes {@code dir} and everything in it; tries again (a few times, 50 ms apart) while a
     * file written during the walk (a dying rank's or the monitor's) keeps the directory.
     */
    private static void deleteTree(Path dir) {
        for (int attempt = 0; attempt < 5 && Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS); attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | java.io.UncheckedIOException ignored) {
                // a file vanished during the walk: walk again
            }
        }
    }
}
