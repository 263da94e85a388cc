package dev.tessera.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs test jobs on the mpi device: one JVM per rank, started by the MPI library's own
 * launcher (as users do on a cluster): Open MPI's {@code mpirun} (the default MPI here),
 * or MPICH's {@code mpirun.mpich} with the shim built by {@code mpicc.mpich} (Debian
 * installs both side by side). With {@code nativeCollectives} the library's collectives
 * run instead of Tessera's. A job that outlives its timeout is killed with its launcher
 * and fails the test with its output.
 */
public final class MpirunJobRunner implements JobRunner {

    private final boolean nativeCollectives;
    private final Duration timeout;
    private final boolean mpich;
    /** Extra environment of every rank of this runner's jobs. */
    private final java.util.Map<String, String> extraEnv;

    public MpirunJobRunner(boolean nativeCollectives) {
        this(nativeCollectives, Duration.ofSeconds(90));
    }

    public MpirunJobRunner(boolean nativeCollectives, Duration timeout) {
        this(nativeCollectives, timeout, false);
    }

    private MpirunJobRunner(boolean nativeCollectives, Duration timeout, boolean mpich) {
        this(nativeCollectives, timeout, mpich, java.util.Map.of());
    }

    private MpirunJobRunner(boolean nativeCollectives, Duration timeout, boolean mpich, java.util.Map<String, String> env) {
        this.nativeCollectives = nativeCollectives;
        this.timeout = timeout;
        this.mpich = mpich;
        this.extraEnv = java.util.Map.copyOf(env);
    }

    /** This runner with {@code env} added to every rank's environment (shown in its name). */
    public MpirunJobRunner withEnv(java.util.Map<String, String> env) {
        java.util.Map<String, String> all = new java.util.TreeMap<>(extraEnv);
        all.putAll(env);
        return new MpirunJobRunner(nativeCollectives, timeout, mpich, all);
    }

    @Override
    public MpirunJobRunner withTimeLimitTimes(int times) {
        return new MpirunJobRunner(nativeCollectives, timeout.multipliedBy(times), mpich, extraEnv);
    }

    /** Whether this runner's jobs use the library's own collectives. */
    public boolean nativeCollectives() {
        return nativeCollectives;
    }

    /** A runner over MPICH (mpirun.mpich, mpicc.mpich), next to the default Open MPI. */
    public static MpirunJobRunner mpich() {
        return new MpirunJobRunner(false, Duration.ofSeconds(120), true);
    }

    /** True when Open MPI's mpirun and mpicc are on PATH (the mpi device builds its shim with mpicc). */
    public static boolean available() {
        return onPath("mpirun") && onPath("mpicc");
    }

    /** True when MPICH is installed next to it (Debian: mpich libmpich-dev). */
    public static boolean mpichAvailable() {
        return onPath("mpirun.mpich") && onPath("mpicc.mpich");
    }

    private static boolean onPath(String program) {
        return pathOf(program) != null;
    }

    private static String pathOf(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return Path.of(dir, program).toString();
            }
        }
        return null;
    }

    /** The scope for the mpi device: 2, 3 and 4 ranks (each job is a full mpirun start). */
    @Override
    public boolean runs(int ranks) {
        return ranks >= 2 && ranks <= 4;
    }

    /** With native collectives a forced Tessera algorithm bypasses the library: only the unforced case is new. */
    @Override
    public boolean runsAlgorithm(String algorithm) {
        return !nativeCollectives || algorithm.equals("auto");
    }

    @Override
    public String device() {
        return "mpi";
    }

    @Override
    public void run(int ranks, RankCase body) {
        judge(ranks, launch(ranks, body, List.of(), java.util.Map.of()));
    }

    @Override
    public void run(int ranks, dev.tessera.comm.ThreadLevel level, RankCase body) {
        judge(ranks, launch(ranks, body, List.of(level.name()), java.util.Map.of()));
    }

    private void judge(int ranks, ProcessJobRunner.Result r) {
        if (r.status() != 0) {
            throw new AssertionError(this + " job of " + ranks + " ranks failed with status " + r.status()
                    + "; output:\n" + r.output());
        }
    }

    /** Launches a job under mpirun and returns its outcome without judging it. */
    public ProcessJobRunner.Result launch(int ranks, RankCase body, List<String> extraArgs, java.util.Map<String, String> env) {
        Path file = null;
        try {
            file = Files.createTempFile("tessera-case-", ".ser");
            try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
                out.writeObject(body);
            }
            List<String> args = new ArrayList<>(List.of(file.toString()));
            args.addAll(extraArgs);
            return launchMain(ranks, ProcessRankCase.class.getName(), args, env);
        } catch (IOException e) {
            throw new AssertionError("cannot write the rank case of an mpirun job", e);
        } finally {
            if (file != null) {
                file.toFile().delete();
            }
        }
    }

    /**
     * Launches {@code mainClass} (on the test class path) as every rank of an mpirun job on
     * the mpi device and returns its outcome without judging it.
     */
    public ProcessJobRunner.Result launchMain(int ranks, String mainClass, List<String> args,
                                              java.util.Map<String, String> env) {
        try {
            Process p = processBuilder(ranks, mainClass, args, env).start();
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                Thread reader = Thread.ofPlatform().daemon().start(() -> copy(p.getInputStream(), bytes));
                if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    ChildProcesses.killTree(p);
                    reader.join(2000);
                    return new ProcessJobRunner.Result(124, "timed out after " + timeout.toSeconds() + " s\n"
                            + bytes.toString(StandardCharsets.UTF_8));
                }
                reader.join(5000);
                return new ProcessJobRunner.Result(p.exitValue(), bytes.toString(StandardCharsets.UTF_8));
            } finally {
                // also when the test's @Timeout interrupts the wait: mpirun and its ranks go with the test
                ChildProcesses.killTree(p);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot launch an mpirun job", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The mpirun command of a job running {@code mainClass} on every rank (not started). */
    public ProcessBuilder processBuilder(int ranks, String mainClass, List<String> args, java.util.Map<String, String> env) {
        String java = ProcessHandle.current().info().command().orElse("java");
        java.util.Map<String, String> vars = new java.util.LinkedHashMap<>();
        vars.put("TESSERA_DEVICE", "mpi");
        vars.put("TESSERA_MPI_COLLECTIVES", nativeCollectives ? "native" : "tessera");
        vars.putAll(extraEnv);
        vars.putAll(env);
        List<String> cmd = new ArrayList<>();
        if (mpich) {
            vars.put("TESSERA_MPICC", pathOf("mpicc.mpich"));
            cmd.addAll(List.of("mpirun.mpich", "-np", Integer.toString(ranks)));
            vars.forEach((k, v) -> cmd.addAll(List.of("-genv", k, v)));
        } else {
            cmd.addAll(List.of("mpirun", "-np", Integer.toString(ranks), "--oversubscribe", "--bind-to", "none"));
            vars.forEach((k, v) -> cmd.addAll(List.of("-x", k + "=" + v)));
        }
        RankClassSharing.Setup sharing = RankClassSharing.get();
        cmd.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        cmd.addAll(sharing.jvmOptions());
        cmd.addAll(List.of("-cp", sharing.classPath() != null ? sharing.classPath() : System.getProperty("java.class.path"),
                mainClass));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.environment().put("OMPI_MCA_rmaps_base_oversubscribe", "1");
        // Yield when idle: more ranks than cores here.
        pb.environment().put("OMPI_MCA_mpi_yield_when_idle", "1");
        return pb;
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            in.transferTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        String name = mpich ? "mpi(MPICH)" : nativeCollectives ? "mpi(native collectives)" : "mpi";
        return extraEnv.isEmpty() ? name : name + extraEnv;
    }
}
