package dev.tessera.launch.process;

import dev.tessera.launch.LaunchSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code tessera run --device mpi}: hands the job to the MPI library's own launcher
 * (Open MPI's mpirun, or MPICH's Hydra mpiexec), which starts one JVM per rank with the
 * mpi device. The JVMs get the JDK's signal-chaining library (libjsig) preloaded, so that
 * handlers the MPI library or its fabric layer installs cannot displace the JVM's own. The
 * ranks' output comes back through {@link OutputForwarding}, in whole lines.
 */
public final class MpiLauncher {

    private final PrintStream err;

    public MpiLauncher(PrintStream err) {
        this.err = err;
    }

    /** Runs the job and returns mpirun's exit status (non-zero if any rank failed). */
    public int run(LaunchSpec spec, String collectives) throws IOException, InterruptedException {
        String mpirun = findLauncher();
        if (mpirun == null) {
            err.println("tessera run: the mpi device needs an MPI launcher: set TESSERA_MPIRUN, or put mpirun "
                    + "(Open MPI: apt-get install openmpi-bin) or mpiexec (MPICH) on PATH");
            return 2;
        }
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("TESSERA_DEVICE", "mpi");
        vars.put("TESSERA_MPI_COLLECTIVES", collectives);
        if (spec.tagOutput()) {
            vars.put("TESSERA_TAG_OUTPUT", "1");   // whole lines, tagged by each rank (see RankMain)
        }
        if (spec.threads() > 0) {
            vars.put("TESSERA_THREADS", Integer.toString(spec.threads()));
        }
        Path jsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so");
        if (Files.isRegularFile(jsig)) {
            vars.put("LD_PRELOAD", jsig.toString());
        }
        // the ranks on this host send their output to this launcher, which prints it in whole lines
        try (OutputForwarding output = OutputForwarding.open(System.out, err)) {
            vars.put(OutputForwarding.SOCKET_VARIABLE, output.socketPath());
            return run(mpirun, spec, vars);
        }
    }

    private int run(String mpirun, LaunchSpec spec, Map<String, String> vars) throws IOException, InterruptedException {
        List<String> cmd = command(mpirun, isOpenMpi(mpirun), spec, vars,
                Runtime.getRuntime().availableProcessors());
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        if ("root".equals(System.getProperty("user.name"))) {
            // Open MPI refuses root unless told; the user asked for this job explicitly.
            pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
            pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        }
        Process p = pb.start();
        Thread stop = new Thread(() -> {
            if (p.isAlive()) {
                p.destroy();
            }
        });
        Runtime.getRuntime().addShutdownHook(stop);
        int status = p.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException ignored) {
            // shutting down already
        }
        if (status != 0) {
            err.println("tessera run: the mpi job failed (" + Path.of(mpirun).getFileName() + " exit status " + status + ")");
        }
        return status;
    }

    /** The launcher command line for Open MPI (mpirun -x) or MPICH Hydra (mpiexec -genv). */
    public static List<String> command(String mpirun, boolean openMpi, LaunchSpec spec, Map<String, String> vars, int cores) {
        List<String> cmd = new ArrayList<>(List.of(mpirun, "-np", Integer.toString(spec.ranks())));
        if (openMpi) {
            if (spec.hosts().isEmpty() && spec.ranks() > cores) {
                cmd.add("--oversubscribe");
            }
            cmd.addAll(List.of("--bind-to", "none"));
            if (!spec.hosts().isEmpty()) {
                cmd.addAll(List.of("--host", String.join(",", spec.hosts())));
            }
            if (spec.ranksPerNode() > 0) {
                cmd.addAll(List.of("--npernode", Integer.toString(spec.ranksPerNode())));
            }
            vars.forEach((k, v) -> cmd.addAll(List.of("-x", k + "=" + v)));
        } else {
            if (!spec.hosts().isEmpty()) {
                cmd.addAll(List.of("-hosts", String.join(",", spec.hosts())));
            }
            if (spec.ranksPerNode() > 0) {
                cmd.addAll(List.of("-ppn", Integer.toString(spec.ranksPerNode())));
            }
            vars.forEach((k, v) -> cmd.addAll(List.of("-genv", k, v)));
        }
        cmd.addAll(ProcessLauncher.rankCommand(spec));
        return cmd;
    }

    static String findLauncher() {
        String explicit = System.getenv("TESSERA_MPIRUN");
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        for (String name : List.of("mpirun", "mpiexec")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    private static boolean isOpenMpi(String mpirun) {
        try {
            Process p = new ProcessBuilder(mpirun, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return out.contains("Open MPI") || out.contains("OpenRTE");
        } catch (IOException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}
